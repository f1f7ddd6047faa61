"""A name's spoken form (issue 17 item 4): derived sensibly, or as the table typed it.

Pure checks of `spoken_names`, then the library's lines (caption as written, the
voice's words apart) and the director synthesizing the voice's words, with a
speaker that pins the audio out. What espeak-ng really says for the derived
forms is in test_spoken_names_real_espeak.py.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path

from event_recorders import Recorder

from moderator.narration import Clip, LineStarted, SilentSpeaker, VoiceSettings, make_narrator
from moderator.narration.scripts.library import Line, ScriptLibrary
from moderator.narration.scripts.spelled_letters import SPELLED_RANGES, spelled_by_number
from moderator.narration.scripts.spoken_names import SAID_AS, spoken_name, spoken_values

LANGS = ("en", "de", "fr", "es")


def test_a_vietnamese_name_keeps_what_espeak_says_and_loses_only_the_spelled_marks() -> None:
    for lang in LANGS:
        said = spoken_name("Ngô Bảo Châu", lang)
        assert said == "Ngô Bao Châu"  # ô and â are said; ả was "letter 1EA3"
        assert not any(spelled_by_number(ch) for ch in said)


def test_a_roman_numeral_and_fullwidth_letters_become_letters() -> None:
    assert spoken_name("Ⅻ", "de") == "XII"
    assert spoken_name("Ｂｅｎ", "fr") == "Ben"
    assert spoken_name("①", "en") == "1"  # espeak says nothing for the circled digit


def test_a_letter_without_a_decomposition_is_said_as_the_letter_it_is_named_after() -> None:
    assert spoken_name("Ƃob", "en") == "Bob"  # LATIN CAPITAL LETTER B WITH TOPBAR
    assert spoken_name("Євген", "en") == "Евген"  # UKRAINIAN IE -> IE


def test_every_spelled_character_becomes_something_no_voice_spells() -> None:
    for first, last in SPELLED_RANGES:
        for code in range(first, last + 1):
            said = spoken_name(f"a{chr(code)}b", "en")
            assert not any(spelled_by_number(ch) for ch in said), (hex(code), said)


def test_accents_espeak_says_are_left_as_typed() -> None:
    for name in ("Zoë", "José", "Łukasz", "Ådne", "Ñandú", "Çağla"):
        assert spoken_name(name, "fr") == name


def test_a_name_is_taken_in_nfc() -> None:
    decomposed = unicodedata.normalize("NFD", "Zoë")
    assert spoken_name(decomposed, "en") == "Zoë"


def test_an_emoji_is_said_in_the_scripts_language() -> None:
    assert spoken_name("👩‍💻", "en") == "woman technologist"
    assert spoken_name("👩‍💻", "de") == "it-expertin"
    assert spoken_name("👩‍💻", "fr") == "informaticienne"
    assert spoken_name("Ana 👍🏽", "es") == "Ana pulgar hacia arriba tono de piel medio"


def test_an_emoji_without_a_name_in_the_language_is_left_out() -> None:
    assert spoken_name("Ana 👩‍💻", "nl") == "Ana"  # no Dutch emoji names: not English either


def test_a_name_never_comes_out_as_nothing() -> None:
    # Only an emoji, in a language without emoji names: its English name, not silence.
    assert spoken_name("👩‍💻", "nl") == "woman technologist"
    # Nothing that can be made into letters: as written (the scripts have no "player 3").
    assert spoken_name("ɂ", "en") == "ɂ"
    for name in ("👩‍💻", "Ⅻ", "①", "🏴‍☠️", "Ngô Bảo Châu"):
        for lang in (*LANGS, "nl", "xx"):
            assert spoken_name(name, lang).strip(), (name, lang)


def test_what_the_table_typed_wins_in_every_language() -> None:
    for lang in LANGS:
        assert spoken_name("Ngô Bảo Châu", lang, "  Ngo   Bow Chow ") == "Ngo Bow Chow"


def test_spoken_values_name_only_what_differs() -> None:
    values = {"player": "Ann"}
    assert spoken_values("turn", {"player": "Ann"}, values, "en", "and") == {}
    context = {"player": "Ann", SAID_AS: {"Ann": "Anne"}}
    assert spoken_values("turn", context, values, "en", "and") == {"player": "Anne"}


def test_series_winners_are_said_one_by_one_and_joined_by_the_scripts_and() -> None:
    context = {"players": ("Ⅻ", "Bob"), SAID_AS: {"Bob": "Robert"}}
    values = {"players": "Ⅻ und Bob"}
    spoken = spoken_values("series_winner", context, values, "de", "und")
    assert spoken == {"players": "XII und Robert"}


def shipped_library() -> ScriptLibrary:
    return ScriptLibrary.load(None)


def test_the_caption_keeps_the_written_name_and_the_voice_gets_the_spoken_one() -> None:
    library = shipped_library()
    for lang in LANGS:
        settings = VoiceSettings(lang=lang)
        actions = library.actions("knockout", {"player": "Ngô Bảo Châu"}, settings) or []
        first = actions[0]
        assert isinstance(first, Line)
        assert "Ngô Bảo Châu" in first.text
        assert "Ngô Bao Châu" in first.said and "ả" not in first.said
        # A line without a name is said as captioned.
        later = [a for a in actions[1:] if isinstance(a, Line)]
        assert later and all(line.said == line.text and not line.speech for line in later)


def test_a_typed_spoken_form_reaches_every_script_that_says_a_name() -> None:
    library = shipped_library()
    said = {SAID_AS: {"Zed": "Zedd"}}
    settings = VoiceSettings(lang="en")
    for script, context in (
        ("knockout", {"player": "Zed"}),
        ("turn", {"player": "Zed"}),
        ("series_winner", {"players": ("Ann", "Zed")}),
    ):
        lines = [a for a in library.actions(script, {**context, **said}, settings) or []]
        spoken = [line for line in lines if isinstance(line, Line) and "Zed" in line.text]
        assert spoken, script
        assert all("Zedd" in line.said and "Zedd" not in line.text for line in spoken), script


class WordsSpeaker(SilentSpeaker):
    """Clips with a fake audio file; records the words it was asked to synthesize."""

    def __init__(self) -> None:
        self.synthesized: list[str] = []

    def synthesize(self, text: str, voice: str, rate: int, volume: float) -> Future[Clip]:
        self.synthesized.append(text)
        future: Future[Clip] = Future()
        future.set_result(Clip(text, 0.01, Path("fake.wav")))
        return future

    def play(self, clip: Clip, on_start: Callable[[], None]) -> None:
        on_start()


def test_the_director_synthesizes_the_spoken_words_and_captions_the_written_name(
    tmp_path: Path, recorder: Recorder
) -> None:
    speaker = WordsSpeaker()
    narrator = make_narrator(VoiceSettings(), None, tmp_path, speaker, time_scale=0.01)
    try:
        narrator.play("turn", {"player": "Ⅻ", SAID_AS: {"Ⅻ": "Twelve"}}, recorder)
        assert recorder.wait(10)
    finally:
        narrator.close()
    assert speaker.synthesized == ["Twelve, your turn."]
    captions = [event.text for _, event in recorder.events if isinstance(event, LineStarted)]
    assert captions == ["Ⅻ, your turn."]
