"""What espeak-ng really says for the names the voice speaks (issue 17 item 4).

espeak-ng's phonemes (`espeak-ng -q -x`) show a code point spelled out by the
voice's word for "letter" before its hex digits ("l,Et#3_|w'Vn_|'i:_|..."):
the measured failure was "Ngô Bảo Châu" said as "Ngo B letter 1 E A 3 O chau"
and "Ⅻ" as "letter 216B" in every language, and nothing at all for "👩‍💻" in
German. Each test first shows the failure on the written name, so it cannot
pass by a broken probe.
"""

from __future__ import annotations

import shutil

import pytest
from real_speech import require_speech
from spelled_probe import SHIPPED_VOICES, phonemes, spelled

from moderator.narration import VoiceSettings
from moderator.narration.scripts.library import Line, ScriptLibrary
from moderator.narration.scripts.spelled_letters import SPELLED_RANGES
from moderator.narration.scripts.spoken_names import spoken_name

pytestmark = pytest.mark.speech

#: Shipped language code -> its espeak-ng voice (voice_scripts/*/language.toml).
VOICES = dict(zip(("en", "de", "fr", "es"), SHIPPED_VOICES, strict=True))
HARD_NAMES = ("Ngô Bảo Châu", "Ⅻ", "Ｊｏ", "Ƃob", "Trần Thị Ảnh", "Ἀλέξανδρος")


@pytest.fixture(autouse=True)
def espeak_command() -> None:
    """The espeak-ng command prints the phonemes (CI installs it)."""
    require_speech(None if shutil.which("espeak-ng") else "the espeak-ng command is missing")


def test_the_written_names_are_spelled_by_number_as_measured() -> None:
    for voice in SHIPPED_VOICES:
        assert set(spelled(voice, ["Ngô Bảo Châu", "Ⅻ"])) == {"Ngô Bảo Châu", "Ⅻ"}, voice


def test_the_spoken_forms_have_no_code_point_spelled_in_any_shipped_language() -> None:
    for lang, voice in VOICES.items():
        forms = [spoken_name(name, lang) for name in HARD_NAMES]
        assert spelled(voice, forms) == [], (lang, forms)


def test_the_knockout_line_the_voice_gets_has_no_code_point_spelled() -> None:
    library = ScriptLibrary.load(None)
    for lang, voice in VOICES.items():
        said = [
            action.said
            for name in HARD_NAMES
            for action in library.actions("knockout", {"player": name}, VoiceSettings(lang=lang))
            or []
            if isinstance(action, Line)
        ]
        assert said and spelled(voice, said) == [], lang


def test_german_says_the_woman_technologist_emoji() -> None:
    assert phonemes("de", ["👩‍💻"]) == [""]  # silent as written
    said = spoken_name("👩‍💻", "de")
    assert phonemes("de", [said])[0].strip()


def test_no_voice_spells_any_replaced_character_by_number() -> None:
    """Every character of the measured table, said inside a word after derivation."""
    words = [
        spoken_name(f"ka{chr(code)}ta", "en")
        for first, last in SPELLED_RANGES
        for code in range(first, last + 1)
    ]
    for voice in SHIPPED_VOICES:
        hits = spelled(voice, words)
        assert hits == [], (voice, hits[:10])
