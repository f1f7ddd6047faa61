"""The voice-script library's sentences about whole folders, in the screen's language.

Apart from `library.py` so each stays short; `missing_folder` is also what
`mindflayer narrate` says (without falling back: it refuses to run).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from moderator.i18n import _
from moderator.safe_input import escaped


def english_fallback(language: str, code: str, names: Sequence[str]) -> str:
    """The one sentence for the scripts of `language` (`code`) that English speaks instead."""
    if len(names) == 1:
        return _(
            "{language} ({code}) has no usable {script} script ({code}/{script}.toml): that "
            "moment is spoken in English, with the English voice."
        ).format(language=language, code=code, script=names[0])
    listed = _("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1])
    return _(
        "{language} ({code}) has no usable {scripts} scripts (in its folder {code}/): those "
        "moments are spoken in English, with the English voice."
    ).format(language=language, code=code, scripts=listed)


def missing_folder(folder: Path, *, falling_back: bool = True) -> str:
    """The sentence for a `--voice-scripts` folder that does not exist, or is not a folder.

    The app goes on with the shipped scripts (`falling_back`); `mindflayer
    narrate` stops, so it says only what is wrong. The path is quoted with its
    invisible characters escaped (`safe_input.escaped`): the name on disk.
    """
    shown = escaped(folder)
    if folder.exists():  # a file, a device, a pipe: it exists, so do not say it does not
        if not falling_back:
            return _(
                "The voice-scripts path {folder} is a file, not a folder (--voice-scripts)."
            ).format(folder=shown)
        return _(
            "The voice-scripts path {folder} is a file, not a folder (--voice-scripts); using "
            "the shipped scripts."
        ).format(folder=shown)
    if not falling_back:
        return _("The voice-scripts folder {folder} does not exist (--voice-scripts).").format(
            folder=shown
        )
    return _(
        "The voice-scripts folder {folder} does not exist (--voice-scripts); using the "
        "shipped scripts."
    ).format(folder=shown)
