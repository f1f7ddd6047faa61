"""The English scripts say "Sane" the way a listener hears it: after "is" or "are".

Measured with Whisper base (bench/bench_listener.py, three takes a script, each by
a fresh espeak engine): before a noun, "Sane" is heard "same" ("Sane versus
Possessed", "every Sane player", "the Sane team": the how-to-play's role words were
heard 24 of 45); said as what a player is ("everyone who is Sane", "If you are
Sane"), 45 of 45. No phoneme spelling of the word changed that (espeak_markup).
"""

from __future__ import annotations

import re

from shipped_renders import context_for

from moderator.narration.scripts.library import Line, ScriptLibrary
from moderator.narration.scripts.validation import SCRIPT_NAMES
from moderator.narration.settings import VoiceSettings

#: "Sane" and the word before it.
SANE = re.compile(r"(\w+)\W+Sane\b")


def english_lines() -> list[tuple[str, str]]:
    library = ScriptLibrary.load(None)
    found: list[tuple[str, str]] = []
    for script in SCRIPT_NAMES:
        for ambience in (False, True):
            settings = VoiceSettings(lang="en", ambience=ambience)
            actions = library.actions(script, context_for(script), settings) or []
            found += [(script, a.text) for a in actions if isinstance(a, Line)]
    return found


def test_every_english_sane_is_said_after_is_or_are() -> None:
    lines = english_lines()
    sane = [(script, text) for script, text in lines if "Sane" in text]
    assert len(sane) >= 5, "the scripts name the Sane"
    for script, text in sane:
        before = SANE.findall(text)
        assert before and len(before) == text.count("Sane"), f"{script}: {text!r}"
        assert all(word in ("is", "are") for word in before), f"{script}: {text!r}"
