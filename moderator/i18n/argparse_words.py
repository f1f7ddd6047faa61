"""argparse in the table's language: "usage:", "options", its error sentences.

argparse looks its own words up with `gettext.gettext`, which follows the
environment's locale, not the table's language. `TranslatedParser` lets
argparse's module-level `_`/`ngettext` name this package's functions while it
builds, parses and prints, so `mindflayer --lang fr --help` is French from
"utilisation :" on. The msgids argparse uses are listed below, marked, so the
catalogs carry them.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator
from typing import Any, NoReturn

from moderator import i18n
from moderator.i18n import N_

#: argparse's words a user sees (Python 3.11-3.13), for the catalogs.
ARGPARSE_WORDS = (
    N_("usage: "),
    N_("options"),
    N_("positional arguments"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
)


@contextlib.contextmanager
def translated_argparse() -> Iterator[None]:
    """While inside, argparse's own words come from the table's catalog."""
    saved = argparse.__dict__.get("_"), argparse.__dict__.get("ngettext")
    argparse._ = i18n._  # type: ignore[attr-defined]
    argparse.ngettext = i18n.ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


class TranslatedParser(argparse.ArgumentParser):
    """An ArgumentParser whose own words (help, usage, errors) are in the table's language."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        with translated_argparse():
            super().__init__(*args, **kwargs)

    def add_argument_group(self, *args: Any, **kwargs: Any) -> Any:
        with translated_argparse():
            return super().add_argument_group(*args, **kwargs)

    def parse_args(self, *args: Any, **kwargs: Any) -> Any:
        with translated_argparse():
            return super().parse_args(*args, **kwargs)

    def parse_known_args(self, *args: Any, **kwargs: Any) -> Any:
        with translated_argparse():
            return super().parse_known_args(*args, **kwargs)

    def format_usage(self) -> str:
        with translated_argparse():
            return super().format_usage()

    def format_help(self) -> str:
        with translated_argparse():
            return super().format_help()

    def error(self, message: str) -> NoReturn:
        with translated_argparse():
            super().error(message)
