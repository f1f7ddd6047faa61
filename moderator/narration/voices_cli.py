"""`mindflayer voices install|remove` and the natural voices in `mindflayer voices`.

The install prints a progress bar (bytes, rate, time left) on standard error:
one line redrawn in a terminal, a line every tenth of the way otherwise (a log
keeps a readable record). Every failure is one sentence and exit status 1;
nothing half-installed is left where the table looks.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from moderator.i18n import _
from moderator.i18n.numbers import decimal
from moderator.narration.settings import VoiceSettings
from moderator.narration.speech.piper_voices import (
    ADD_NEURAL,
    LICENCES,
    RECOMMENDED,
    card_licence,
    damaged_voices,
    installed_voices,
    neural_missing,
    rank,
    remove_voice,
)
from moderator.narration.speech.voice_catalogue import (
    DownloadError,
    base_url,
    fetch_catalogue,
    pick,
)
from moderator.narration.speech.voice_download import Progress, install, installed_as_listed
from moderator.narration.speech.voice_engines import choose_engine

BAR_WIDTH = 24


def megabytes(count: int) -> str:
    """A byte count in MB, as the progress and the listing show it, in the table's
    language ("63.2 MB", "63,2 Mo")."""
    return _("{size} MB").format(size=decimal(count / 1e6))


def progress_line(progress: Progress) -> str:
    """`[#####.....]  12.3 MB of 63.2 MB  2.1 MB/s  0:24 left`."""
    total = max(progress.total, 1)
    filled = min(BAR_WIDTH, BAR_WIDTH * progress.done // total)
    bar = "#" * filled + "." * (BAR_WIDTH - filled)
    rate = _("{rate} MB/s").format(rate=f"{progress.rate / 1e6:.1f}") if progress.rate else ""
    left = ""
    if progress.left is not None:
        minutes, seconds = divmod(round(progress.left), 60)
        left = _("{time} left").format(time=f"{minutes}:{seconds:02d}")
    amounts = _("{done} of {total}").format(
        done=megabytes(progress.done), total=megabytes(progress.total)
    )
    return "  ".join(part for part in (f"[{bar}]", amounts, rate, left) if part)


class ProgressBar:
    """Draws `Progress` on a stream: redrawn in place on a terminal, by tenths elsewhere."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.live = _is_terminal(stream)
        self._tenth = -1

    def __call__(self, progress: Progress) -> None:
        line = progress_line(progress)
        if self.live:
            self.stream.write("\r" + line + "\x1b[K")
            self.stream.flush()
            return
        tenth = 10 * progress.done // max(progress.total, 1)
        if tenth != self._tenth:
            self._tenth = tenth
            print(line, file=self.stream, flush=True)

    def end(self) -> None:
        """Leave the terminal's line as it is and go to the next one."""
        if self.live:
            print(file=self.stream, flush=True)


def run_install(args: argparse.Namespace) -> int:
    """Download and install the voice `args.voice` (a language code or a voice name)."""
    if args.voice.lower() == "en" or args.voice == RECOMMENDED["en"]:
        return _english()
    base = base_url(getattr(args, "url", None))
    try:
        catalogue = fetch_catalogue(base)
        voice = pick(catalogue, args.voice)
    except DownloadError as error:
        print(str(error), file=sys.stderr)
        return 1
    if installed_as_listed(voice):
        print(_("{name} is already installed.").format(name=voice.name))
        _say_if_neural_missing()
        return 0
    licence = LICENCES.get(voice.name)
    print(
        _("Installing {name} ({size}{licence}) from {base}").format(
            name=voice.name,
            size=megabytes(voice.size),
            licence=f", {licence}" if licence else "",
            base=base,
        )
    )
    bar = ProgressBar(sys.stderr)
    try:
        installed = install(voice, base, progress=bar)
    except DownloadError as error:
        bar.end()
        print(str(error), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        bar.end()
        print(_("Stopped; run the install again to finish it."), file=sys.stderr)
        return 130
    bar.end()
    print(
        _("Installed {name} for {lang}: the table speaks {lang} with it from now on.").format(
            name=installed.name, lang=installed.language
        )
    )
    licence = card_licence(installed.voice.model.parent)
    if licence:
        print(_("Its model card gives its licence: {licence}").format(licence=licence))
    _say_if_neural_missing()
    return 0


def _english() -> int:
    """English's natural voice is the `neural` extra's model: nothing to download."""
    shipped = [v for v in installed_voices() if v.language == "en" and not v.downloaded]
    if not shipped:
        print(neural_missing() or _(ADD_NEURAL), file=sys.stderr)
        return 1
    print(
        _("English's natural voice, {name}, came with the `neural` extra: it is installed.").format(
            name=shipped[0].name
        )
    )
    return 0


def _say_if_neural_missing() -> None:
    missing = neural_missing()
    if missing:
        print(missing, file=sys.stderr)


def run_remove(args: argparse.Namespace) -> int:
    """Remove an installed voice by name."""
    try:
        folder = remove_voice(args.name)
    except LookupError as error:
        print(str(error.args[0]), file=sys.stderr)
        return 1
    except OSError as error:
        print(
            _("Could not remove {name} ({reason}).").format(
                name=args.name, reason=error.strerror or error
            ),
            file=sys.stderr,
        )
        return 1
    print(_("Removed {name} ({folder}).").format(name=args.name, folder=folder))
    return 0


def print_natural_voices(
    languages: list[tuple[str, str]], settings: VoiceSettings, stream: TextIO
) -> None:
    """Each language's installed natural voices and the engine it speaks with."""
    voices = installed_voices()
    print(_("Natural voices (Piper), per language:"), file=stream)
    for code, name in languages:
        own = rank(v for v in voices if v.language == code)
        engine = choose_engine(settings, code, voices).engine
        print(
            _("  {code} {name} speaks with: {engine}").format(
                code=f"{code:<6}", name=f"{name:<12}", engine=engine
            ),
            file=stream,
        )
        for voice in own:
            where = _("downloaded") if voice.downloaded else _("the neural extra")
            print(f"         {voice.name}  ({megabytes(voice.size)}, {where})", file=stream)
        if not own and code in RECOMMENDED:
            print(
                _("         none: `mindflayer voices install {code}` adds {voice}").format(
                    code=code, voice=RECOMMENDED[code]
                ),
                file=stream,
            )
    for problem in damaged_voices():
        print(_("  damaged: {problem}").format(problem=problem), file=stream)
    missing = neural_missing()
    if missing:
        print(missing, file=stream)


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (OSError, ValueError, AttributeError):
        return False
