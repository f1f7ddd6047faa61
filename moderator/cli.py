"""The `mindflayer` command: starts the TUI, or runs one of its sub-commands.

Each sub-command's work lives beside the code it uses (storage, narration,
tui); this module only parses arguments and dispatches, importing lazily so
`mindflayer history` never pays for Textual and the TUI never waits on speech.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import sys
from collections.abc import Sequence

from moderator import __version__, paths
from moderator.i18n import _, ngettext
from moderator.i18n.argparse_words import TranslatedParser


def _since(text: str) -> object:
    """`history --since`'s value (imported when used: the TUI's start never pays for it)."""
    from moderator.history_report.summary import since_date

    return since_date(text)


def build_parser() -> argparse.ArgumentParser:
    """The whole command line, shared by `main` and the tests (in the screen's language)."""
    parser = TranslatedParser(
        prog="mindflayer",
        description=_("Table-side moderator for Stranger Things: Attack of the Mind Flayer."),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"%(prog)s {__version__}",
        help=_("show program's version number and exit"),
    )
    parser.add_argument(
        "--lang",
        metavar=_("CODE"),
        dest="table_lang",
        help=_(
            "the table's language for this run, on the screen and in the voice: en, fr, de, "
            "es (default: the settings' language, else the computer's)"
        ),
    )
    parser.add_argument(
        "--data-dir",
        metavar=_("DIR"),
        help=_(
            "folder of the score database (default: the platform's user data folder, "
            "or $MINDFLAYER_DATA_DIR)"
        ),
    )
    parser.add_argument(
        "--voice-scripts",
        metavar=_("DIR"),
        help=_("folder of voice scripts that override the shipped ones"),
    )
    sub = parser.add_subparsers(dest="command", metavar=_("COMMAND"))

    history = sub.add_parser("history", help=_("print past series and per-player stats"))
    history.add_argument(
        "--csv", metavar=_("FILE"), help=_("export the history as CSV (- for stdout)")
    )
    history.add_argument(
        "--json", metavar=_("FILE"), help=_("export the history as JSON (- for stdout)")
    )
    history.add_argument(
        "--bgstats",
        metavar=_("FILE"),
        help=_("write every game as a BG Stats play (JSON) and print the link for the latest"),
    )
    history.add_argument(
        "--summary",
        action="store_true",
        help=_("print the leaderboard and the trends instead of every series"),
    )
    history.add_argument(
        "--since",
        metavar=_("DATE"),
        type=_since,
        help=_("only the series that ended on or after DATE (YYYY-MM-DD, UTC)"),
    )
    history.add_argument(
        "--group",
        metavar=_("NAME"),
        nargs="+",
        help=_("only the series played by exactly these players"),
    )

    narrate = sub.add_parser("narrate", help=_("speak a voice script, or render it to a WAV"))
    narrate.add_argument(
        "script", metavar=_("SCRIPT"), help=_("script name, e.g. reveal, setup, finale")
    )
    narrate.add_argument(
        "--players", type=int, default=7, metavar=_("NUMBER"), help=_("number of players (4-10)")
    )
    narrate.add_argument(
        "--lang",
        default=None,
        metavar=_("CODE"),
        help=_("language code: en, fr, de, es (default: the table's language)"),
    )
    narrate.add_argument(
        "--seconds",
        type=float,
        default=None,
        metavar=_("SECONDS"),
        help=_("eyes-open window of the reveal"),
    )
    narrate.add_argument(
        "--wav",
        metavar=_("FILE"),
        help=_("render to this WAV instead of playing (- for stdout)"),
    )
    narrate.add_argument(
        "--ambience",
        choices=("on", "off"),
        default="on",
        help=_("the sound bed under the eyes-closed moments (default on)"),
    )
    narrate.add_argument(
        "--engine",
        default=None,
        metavar=_("ENGINE"),
        help=_(
            "espeak, piper (English's neural voice), natural (the language's best "
            "installed voice) or an installed voice's name (default: the settings' "
            "choice for the language)"
        ),
    )

    voices = sub.add_parser(
        "voices",
        help=_("list the voices per language; install or remove a natural voice"),
    )
    voice_actions = voices.add_subparsers(dest="voices_action", metavar=_("ACTION"))
    install = voice_actions.add_parser(
        "install",
        help=_("download a natural voice (Piper) for a language: fr, de, es, en or a voice name"),
    )
    install.add_argument(
        "voice", metavar=_("VOICE"), help=_("fr, de, es, en, or a Piper voice name")
    )
    install.add_argument(
        "--url",
        metavar=_("URL"),
        help=_(
            "the voice repository's address (default: $MINDFLAYER_VOICES_URL, "
            "else Piper's repository on Hugging Face)"
        ),
    )
    remove = voice_actions.add_parser("remove", help=_("remove an installed natural voice"))
    remove.add_argument("name", metavar=_("NAME"), help=_("the voice's name, as listed"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `mindflayer` console script and `python -m moderator`."""
    try:
        return _dispatch(argv)
    except BrokenPipeError:
        # `mindflayer voices | head`: the reader left; that is not an error.
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - replaced for shutdown
        return 0


def lang_given(argv: Sequence[str]) -> str | None:
    """The `--lang CODE` of a command line, read before it is parsed.

    The help and argparse's own sentences are printed while parsing, so the
    language must be known first. The last `--lang` counts (`narrate`'s too:
    one language for the whole run).
    """
    found = None
    for index, word in enumerate(argv):
        if word == "--lang" and index + 1 < len(argv):
            found = argv[index + 1]
        elif word.startswith("--lang="):
            found = word.partition("=")[2]
    return found or None


def _dispatch(argv: Sequence[str] | None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    from moderator.table.language import choose_table_language

    language = choose_table_language(paths.config_dir(), lang_given(words))
    args = build_parser().parse_args(words)
    args.table_language = language  # the app's start uses it (`tui.run.build_app`)
    if args.command in ("history", "narrate", "voices") and language.notice:
        print(_("notice: {message}").format(message=language.notice), file=sys.stderr)
    if args.command == "narrate" and args.lang is None:
        args.lang = language.table
    if args.command == "history":
        from moderator.history_report.command import run_history

        return run_history(args)
    if args.command == "narrate":
        from moderator.narration.cli import run_narrate

        return run_narrate(args)
    if args.command == "voices":
        return _voices(args)
    refusal = needs_a_terminal()
    if refusal is not None:
        print(refusal, file=sys.stderr)
        return 2
    pause_collector_for_start_up()
    from moderator.tui.run import run_app

    return run_app(args)


def _voices(args: argparse.Namespace) -> int:
    """`mindflayer voices [install VOICE | remove NAME]`."""
    action = getattr(args, "voices_action", None)
    if action == "install":
        from moderator.narration.voices_cli import run_install

        return run_install(args)
    if action == "remove":
        from moderator.narration.voices_cli import run_remove

        return run_remove(args)
    from moderator.narration.cli import run_voices
    from moderator.table.config import load_settings

    args.voice_settings = load_settings(paths.config_dir())[0]  # which engine each speaks with
    return run_voices(args)


def needs_a_terminal() -> str | None:
    """Why the TUI cannot start here (no terminal), or None when it can.

    Without a terminal on standard input and output (a cron job, a pipe,
    `< /dev/null`) the app would draw into nowhere and wait for keys that never
    come: it never exits. A Textual driver named in `TEXTUAL_DRIVER` (the web
    driver of textual-serve, say) brings its own input and output, so it may run.
    """
    if os.environ.get("TEXTUAL_DRIVER"):
        return None
    streams = {"input": sys.stdin, "output": sys.stdout}
    missing = [name for name, stream in streams.items() if not _is_terminal(stream)]
    if not missing:
        return None
    which = {
        ("input",): _("input"),
        ("output",): _("output"),
        ("input", "output"): _("input and output"),
    }[tuple(missing)]
    return ngettext(
        "mindflayer: the moderator needs a terminal, and its standard {streams} is not "
        "one. Start it from a terminal window; `mindflayer history` and `mindflayer "
        "narrate` work without one.",
        "mindflayer: the moderator needs a terminal, and its standard {streams} are not "
        "one. Start it from a terminal window; `mindflayer history` and `mindflayer "
        "narrate` work without one.",
        len(missing),
    ).format(streams=which)


def _is_terminal(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return callable(isatty) and bool(isatty())
    except (OSError, ValueError):  # a closed stream
        return False


def pause_collector_for_start_up() -> None:
    """Pause Python's cyclic garbage collector until the app's first frame.

    Loading Textual and the app allocates a few hundred thousand objects
    (modules, classes, styles, widgets) and frees almost none; the collector's
    passes over them cost the first frame about 20 ms (docs/startup.md). The
    app resumes the collector half a second after its first frame
    (`moderator.tui.start_up`), and `run_app` resumes it if the app
    never ran.
    The start-up bench starts the app through this too, as the command does.
    """
    gc.disable()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
