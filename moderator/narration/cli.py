"""`mindflayer narrate` and `mindflayer voices`: the only narration code that prints.

`narrate` lets a user hear (or render to a WAV) an edited voice script without
starting a game; `voices` lists the engine's voices for `language.toml`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
from dataclasses import replace
from pathlib import Path

from moderator import safe_output
from moderator.domain.errors import IllegalAction
from moderator.domain.rules import REVEAL_FROM_PLAYERS, setup_for
from moderator.i18n import _, ngettext, refusals
from moderator.narration.events import Countdown, Finished, LineStarted, NarrationEvent, Notice
from moderator.narration.narrator import make_narrator
from moderator.narration.scripts.library import ScriptLibrary, user_scripts_dir
from moderator.narration.scripts.library_words import missing_folder
from moderator.narration.scripts.validation import SCRIPT_NAMES
from moderator.narration.settings import MAX_REVEAL_SECONDS, MIN_REVEAL_SECONDS, VoiceSettings
from moderator.narration.speech.engines import ChoosingSpeaker
from moderator.narration.speech.speaker import SpeechFault
from moderator.paths import cache_dir

#: Sample values for the scripts that speak a name.
SAMPLE_CONTEXT: dict[str, dict[str, object]] = {
    "knockout": {"player": "Eleven"},
    "turn": {"player": "Dustin"},
    "series_winner": {"players": ["Eleven", "Mike"]},
    "meeting": {"meeting": 1},
    "table_state": {
        "situation": "turns",
        "game": 1,
        "turn": 7,
        "player": "Dustin",
        "meetings_done": 1,
        "knocked_out": ["Eleven"],
    },
}
#: Longest `narrate` waits for a script to finish (the longest script is ~1 min).
NARRATE_BOUND = 600.0


def _context(args: argparse.Namespace) -> dict[str, object]:
    context: dict[str, object] = {"players": args.players}
    context.update(SAMPLE_CONTEXT.get(args.script, {}))
    if args.seconds is not None:
        context["seconds"] = args.seconds
    return context


def _settings(args: argparse.Namespace) -> VoiceSettings:
    engine = getattr(args, "engine", None) or "espeak"
    # `--engine espeak|piper` is English's switch, as it always was; `natural` or a
    # voice's name chooses the engine of the language being narrated.
    named = "" if engine in ("espeak", "piper") else f"{args.lang}={engine}"
    if engine == "espeak" and args.lang != "en" and getattr(args, "engine", None):
        named = f"{args.lang}=espeak"
    settings = VoiceSettings(
        lang=args.lang,
        ambience=getattr(args, "ambience", "on") == "on",
        english_engine="piper" if engine == "piper" else "espeak",
        voice_engines=named,
    )
    if args.seconds is not None:
        settings = replace(settings, reveal_seconds=args.seconds)
    return settings


def _scripts_dir(args: argparse.Namespace) -> Path | None:
    value = getattr(args, "voice_scripts", None)
    return Path(value).expanduser() if value else None


def run_narrate(args: argparse.Namespace) -> int:
    """Speak a script with captions on stdout, or render it with `--wav FILE`."""
    if args.script not in SCRIPT_NAMES:
        print(
            _("Unknown script {script!r}; known: {known}").format(
                script=args.script, known=", ".join(SCRIPT_NAMES)
            ),
            file=sys.stderr,
        )
        return 2
    if args.seconds is not None and not MIN_REVEAL_SECONDS <= args.seconds <= MAX_REVEAL_SECONDS:
        print(
            _("--seconds must be from {low} to {high} (the reveal window of the settings).").format(
                low=f"{MIN_REVEAL_SECONDS:g}", high=f"{MAX_REVEAL_SECONDS:g}"
            ),
            file=sys.stderr,
        )
        return 2
    refusal = _players_refusal(args.script, args.players)
    if refusal is not None:
        print(refusal, file=sys.stderr)
        return 2
    chosen = _scripts_dir(args)
    if chosen is not None and not chosen.is_dir():
        print(missing_folder(chosen, falling_back=False), file=sys.stderr)
        return 2
    library = ScriptLibrary.load(user_scripts_dir(chosen))
    for warning in library.warnings:
        print(_("warning: {message}").format(message=warning), file=sys.stderr)
    if args.lang not in library.languages:
        known = ", ".join(library.languages)
        print(
            _("Unknown language {code!r}; known: {known}").format(code=args.lang, known=known),
            file=sys.stderr,
        )
        return 2
    try:
        _settings(args).validated()  # an engine that is no engine, a voice of another language
    except ValueError as error:
        print(refusals.refusal(error), file=sys.stderr)
        return 2
    if args.wav:
        return _render(args, library)
    return _speak(args)


def _players_refusal(script: str, players: int) -> str | None:
    """Why `--players` cannot be narrated (the domain's own sentence), or None."""
    try:
        setup = setup_for(players)
    except IllegalAction as error:
        return str(error)
    if script == "reveal" and not setup.reveal:
        return ngettext(
            "The eyes-closed reveal is only for {least} or more players; "
            "with {players} there is none.",
            "The eyes-closed reveal is only for {least} or more players; "
            "with {players} there is none.",
            players,
        ).format(least=REVEAL_FROM_PLAYERS, players=players)
    return None


def _render(args: argparse.Namespace, library: ScriptLibrary) -> int:
    from moderator.narration.render import render_script
    from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer

    try:
        # Refused before any rendering: a folder, a missing folder, a dangling link.
        safe_output.check_target(args.wav)
    except safe_output.OutputError as error:
        print(refusals.refusal(error), file=sys.stderr)
        return 1
    # With the WAV on standard output, the captions go to stderr.
    messages = sys.stderr if args.wav == safe_output.STDOUT else sys.stdout
    # No warm-up: a render whose lines are all cached starts no synthesis child.
    speaker = ChoosingSpeaker(Pyttsx3Synthesizer(cache_dir(), warm=False), cache_dir())
    speaker.watch_faults(
        lambda fault: print(_("notice: {message}").format(message=fault.message), file=sys.stderr)
    )
    from moderator.narration.speech.voice_engines import routes_for

    routes = routes_for(
        _settings(args),
        [(lang.code, (lang.voice, lang.fallback_voice)) for lang in library.languages.values()],
    )
    speaker.choose_voices(routes.voices, warm=routes.warm)
    if routes.problem is not None:
        print(_("notice: {message}").format(message=routes.problem), file=sys.stderr)
    try:
        for fault in speaker.problems():
            if fault.part == "library":
                print(fault.message, file=sys.stderr)
                return 1
        with tempfile.TemporaryDirectory(prefix="mindflayer-render-") as folder:
            rendered = render_script(
                library,
                speaker,
                args.script,
                _context(args),
                _settings(args),
                Path(folder) / "render.wav",
            )
            safe_output.write_bytes(args.wav, rendered.path.read_bytes())
    except safe_output.OutputError as error:
        print(refusals.refusal(error), file=sys.stderr)
        return 1
    except (SpeechFault, TimeoutError, OSError) as error:
        print(_("Could not render: {error}").format(error=error), file=sys.stderr)
        return 1
    finally:
        speaker.close()
    for line in rendered.lines:
        print(line, file=messages)
    print(
        _("Wrote {file} ({seconds} s, {rate} Hz)").format(
            file=args.wav, seconds=f"{rendered.duration:.2f}", rate=rendered.rate
        ),
        file=messages,
    )
    return 0


def _speak(args: argparse.Namespace) -> int:
    narrator = make_narrator(_settings(args), _scripts_dir(args), cache_dir())
    done = threading.Event()
    outcome: list[bool] = []

    def show(event: NarrationEvent) -> None:
        if isinstance(event, LineStarted):
            print(event.text, flush=True)
        elif isinstance(event, Countdown) and event.seconds_left:
            print(f"  ... {event.seconds_left}", flush=True)
        elif isinstance(event, Notice):
            print(_("notice: {message}").format(message=event.message), file=sys.stderr, flush=True)
        elif isinstance(event, Finished):
            outcome.append(event.cancelled)
            done.set()

    try:
        narrator.play(args.script, _context(args), show)
        done.wait(NARRATE_BOUND)
    except KeyboardInterrupt:
        narrator.cancel()
        done.wait(2.0)
        return 130
    finally:
        narrator.close()
    return 0 if outcome and not outcome[0] else 1


def run_voices(args: argparse.Namespace) -> int:
    """List the voice-script languages and the speech engine's voices."""
    from moderator.narration.speech.pyttsx3_synth import Pyttsx3Synthesizer

    library = ScriptLibrary.load(user_scripts_dir(_scripts_dir(args)))
    print(_("Voice-script languages (use with --lang):"))
    for language in library.languages.values():
        print(
            _("  {code} {name} voice {voice}").format(
                code=f"{language.code:<6}", name=f"{language.name:<12}", voice=language.voice
            )
        )
    synthesizer = Pyttsx3Synthesizer(cache_dir())
    try:
        voices = synthesizer.voices()
    except (SpeechFault, TimeoutError) as error:
        print(_("Cannot list the engine's voices: {error}").format(error=error), file=sys.stderr)
        return 1
    finally:
        synthesizer.close()
    print(
        _('Speech engine voices ({count}), for voice = "..." in language.toml:').format(
            count=len(voices)
        )
    )
    for voice in voices:
        languages = ",".join(str(code) for code in voice.get("languages", []))
        print(f"  {voice.get('id', '')!s:<28} {voice.get('name', '')!s:<28} {languages}")
    _print_neural_voice()
    from moderator.narration.voices_cli import print_natural_voices

    print_natural_voices(
        [(language.code, language.name) for language in library.languages.values()],
        getattr(args, "voice_settings", None) or VoiceSettings(),
        sys.stdout,
    )
    return 0


def _print_neural_voice() -> None:
    """The optional neural English voice: its name when installed, else how to install it."""
    from moderator.narration.speech.neural_voice import find_neural_voice

    try:
        voice = find_neural_voice()
    except SpeechFault as fault:
        print(_("Neural English voice: none. {reason}").format(reason=fault.message))
        return
    print(
        _(
            "Neural English voice (Settings > English voice: Piper): {name} "
            "(piper-tts {version}, run as a separate program)"
        ).format(name=voice.name, version=voice.engine_version)
    )
