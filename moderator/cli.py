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

from moderator import __version__


def build_parser() -> argparse.ArgumentParser:
    """The whole command line, shared by `main` and the tests."""
    parser = argparse.ArgumentParser(
        prog="mindflayer",
        description="Table-side moderator for Stranger Things: Attack of the Mind Flayer.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        help="folder of the score database (default: the platform's user data folder, "
        "or $MINDFLAYER_DATA_DIR)",
    )
    parser.add_argument(
        "--voice-scripts",
        metavar="DIR",
        help="folder of voice scripts that override the shipped ones",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    history = sub.add_parser("history", help="print past series and per-player stats")
    history.add_argument("--csv", metavar="FILE", help="export the history as CSV (- for stdout)")
    history.add_argument("--json", metavar="FILE", help="export the history as JSON (- for stdout)")
    history.add_argument(
        "--bgstats",
        metavar="FILE",
        help="write every game as a BG Stats play (JSON) and print the link for the latest",
    )

    narrate = sub.add_parser("narrate", help="speak a voice script, or render it to a WAV")
    narrate.add_argument("script", help="script name, e.g. reveal, setup, finale")
    narrate.add_argument("--players", type=int, default=7, help="number of players (4-10)")
    narrate.add_argument("--lang", default="en", help="language code: en, fr, de, es")
    narrate.add_argument(
        "--seconds", type=float, default=None, help="eyes-open window of the reveal"
    )
    narrate.add_argument(
        "--wav", metavar="FILE", help="render to this WAV instead of playing (- for stdout)"
    )
    narrate.add_argument(
        "--ambience",
        choices=("on", "off"),
        default="on",
        help="the sound bed under the eyes-closed moments (default on)",
    )
    narrate.add_argument(
        "--engine",
        choices=("espeak", "piper"),
        default="espeak",
        help="English voice: espeak, or piper (the optional neural voice)",
    )

    sub.add_parser("voices", help="list the speech engine's voices")
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


def _dispatch(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "history":
        from moderator.storage.history_cli import run_history

        return run_history(args)
    if args.command == "narrate":
        from moderator.narration.cli import run_narrate

        return run_narrate(args)
    if args.command == "voices":
        from moderator.narration.cli import run_voices

        return run_voices(args)
    refusal = needs_a_terminal()
    if refusal is not None:
        print(refusal, file=sys.stderr)
        return 2
    pause_collector_for_start_up()
    from moderator.tui.run import run_app

    return run_app(args)


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
    return (
        f"mindflayer: the moderator needs a terminal, and its standard "
        f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} not one. "
        "Start it from a terminal window; `mindflayer history` and `mindflayer narrate` "
        "work without one."
    )


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
    (`MindFlayerApp._after_start_up`), and `run_app` resumes it if the app
    never ran.
    The start-up bench starts the app through this too, as the command does.
    """
    gc.disable()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
