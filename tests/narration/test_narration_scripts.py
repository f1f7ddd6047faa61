"""The shipped scripts, the user's overrides, and the values scripts speak."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from user_scripts import user_scripts

from moderator.domain.rules import MAX_PLAYERS, MIN_PLAYERS, setup_for
from moderator.narration import available_languages
from moderator.narration.scripts.library import Line, ScriptLibrary, Wait, shipped_scripts_dir
from moderator.narration.scripts.validation import SCRIPT_NAMES
from moderator.narration.settings import VoiceSettings

SHIPPED = shipped_scripts_dir()


def voice(lang: str = "en") -> VoiceSettings:
    """Default settings in `lang` with ambience off: the actions carry no bed marks."""
    return VoiceSettings(lang=lang, ambience=False)


def test_shipped_scripts_are_found_in_the_checkout() -> None:
    assert (SHIPPED / "en" / "reveal.toml").is_file()


def test_shipped_scripts_are_found_inside_an_installed_package(tmp_path: Path) -> None:
    """The wheel puts them at moderator/voice_scripts: that layout wins."""
    package = tmp_path / "site-packages" / "moderator"
    shutil.copytree(SHIPPED, package / "voice_scripts")
    assert shipped_scripts_dir(package) == package / "voice_scripts"


def test_every_shipped_file_validates_and_english_is_complete() -> None:
    library = ScriptLibrary.load(None, SHIPPED)
    assert library.warnings == []
    assert list(library.languages) == ["en", "de", "es", "fr"]
    for name in SCRIPT_NAMES:
        script, language = library.scripts[("en", name)]
        assert script.source == SHIPPED / "en" / f"{name}.toml"
        assert language.voice == "en-us"


@pytest.mark.parametrize(
    ("lang", "voice"), [("en", "en-us"), ("fr", "fr"), ("de", "de"), ("es", "es")]
)
def test_every_language_has_every_script_in_its_own_voice(lang: str, voice: str) -> None:
    library = ScriptLibrary.load(None, SHIPPED)
    for name in SCRIPT_NAMES:
        assert (SHIPPED / lang / f"{name}.toml").is_file(), f"{lang} lacks {name}"
        script, language = library.scripts[(lang, name)]
        assert script.source == SHIPPED / lang / f"{name}.toml"
        assert language.voice == voice


def test_a_user_language_lacking_a_script_is_told_and_english_is_used(tmp_path: Path) -> None:
    user = user_scripts(
        tmp_path,
        {
            "it/language.toml": 'name = "Italiano"\nvoice = "it"\n',
            "it/turn.toml": '[[step]]\nsay = "{player}, tocca a te."\n',
        },
    )
    library = ScriptLibrary.load(user, SHIPPED)
    (missing,) = [w for w in library.warnings if "Italiano (it)" in w]  # one sentence
    others = [name for name in SCRIPT_NAMES if name != "turn"]
    assert f"has no usable {', '.join(others[:-1])} and {others[-1]} scripts" in missing
    assert missing.endswith(
        "(in its folder it/): those moments are spoken in English, with the English voice."
    )
    assert library.actions("turn", {"player": "Lucas"}, voice("it")) == [
        Line("Lucas, tocca a te.", "it")
    ]
    (line, *_) = library.actions("reveal", {}, voice("it")) or []
    assert line == Line("Everyone, close your eyes.", "en-us")


def test_a_language_with_only_its_language_file_is_one_sentence(tmp_path: Path) -> None:
    """It gave one toast per script (seven): the table wants to read one."""
    user = user_scripts(tmp_path, {"it/language.toml": 'name = "Italiano"\nvoice = "it"\n'})
    library = ScriptLibrary.load(user, SHIPPED)
    assert library.warnings == [
        f"Italiano (it) has no usable {', '.join(SCRIPT_NAMES[:-1])} and {SCRIPT_NAMES[-1]} "
        "scripts (in its folder it/): those moments are spoken in English, "
        "with the English voice."
    ]
    for name in SCRIPT_NAMES:
        assert library.scripts[("it", name)] == library.scripts[("en", name)]


def test_a_language_lacking_one_script_names_its_file(tmp_path: Path) -> None:
    files = {"it/language.toml": 'name = "Italiano"\nvoice = "it"\n'}
    for name in SCRIPT_NAMES[1:]:
        files[f"it/{name}.toml"] = (SHIPPED / "en" / f"{name}.toml").read_text(encoding="utf-8")
    library = ScriptLibrary.load(user_scripts(tmp_path, files), SHIPPED)
    first = SCRIPT_NAMES[0]
    assert library.warnings == [
        f"Italiano (it) has no usable {first} script (it/{first}.toml): that moment is "
        "spoken in English, with the English voice."
    ]


def test_a_user_voice_override_keeps_the_shipped_voice_as_fallback(tmp_path: Path) -> None:
    user = user_scripts(tmp_path, {"fr/language.toml": 'name = "Français"\nvoice = "frr"\n'})
    library = ScriptLibrary.load(user, SHIPPED)
    assert library.warnings == []
    (line, *_) = library.actions("reveal", {}, voice("fr")) or []
    assert line == Line("Tout le monde, fermez les yeux.", "frr", "fr")


def test_available_languages_lists_shipped_languages() -> None:
    assert [lang.code for lang in available_languages()] == ["en", "de", "es", "fr"]


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_setup_speaks_the_rulebook_numbers(players: int) -> None:
    library = ScriptLibrary.load(None, SHIPPED)
    text = " ".join(
        a.text
        for a in library.actions("setup", {"players": players}, voice()) or []
        if isinstance(a, Line)
    )
    setup = setup_for(players)
    assert f"for {players} players" in text
    assert f"Mind Flayer cards: {setup.mind_flayer}." in text
    assert f"Waffle cards: {setup.waffle}." in text
    if setup.back_in_box:
        assert " and ".join(setup.back_in_box) in text
    else:
        assert "Play with all the Adventure cards." in text
    assert ("find each other" in text) == setup.reveal


def test_reveal_window_comes_from_the_context_or_the_settings() -> None:
    library = ScriptLibrary.load(None, SHIPPED)
    eight = replace(voice(), reveal_seconds=8.0)
    waits = [a for a in library.actions("reveal", {}, eight) or [] if isinstance(a, Wait)]
    assert Wait(8.0) in waits
    waits = [
        a for a in library.actions("reveal", {"seconds": 6}, eight) or [] if isinstance(a, Wait)
    ]
    assert Wait(6.0) in waits and Wait(8.0) not in waits


def test_meeting_finale_and_winners() -> None:
    library = ScriptLibrary.load(None, SHIPPED)

    def text(name: str, context: dict[str, object]) -> str:
        actions = library.actions(name, context, voice()) or []
        return " ".join(a.text for a in actions if isinstance(a, Line))

    assert "Meeting 2 of 3." in text("meeting", {"meeting": 2})
    assert "last meeting" not in text("meeting", {"meeting": 2})
    assert "last meeting" in text("meeting", {"meeting": 3})
    reminder = "if you are Sane, you must keep your Mind Flayer cards"
    assert reminder in text("meeting", {"meeting": 1})
    finale = text("finale", {})
    assert finale.index("One,") < finale.index("Two,") < finale.index("Three.")
    # The rulebook's order: count, growl, then applause, then the results prompt.
    assert finale.index("Three.") < finale.index("start growling") < finale.index("applaud")
    assert finale.endswith("Now, enter the results on the screen.")
    actions = library.actions("finale", {}, replace(voice("fr"), growl_seconds=3.5)) or []
    growl = next(i for i, a in enumerate(actions) if isinstance(a, Line) and "grognez" in a.text)
    assert actions[growl + 1] == Wait(3.5)
    assert "applaudissez" in actions[growl + 2].text  # type: ignore[union-attr]
    assert "Eleven, Mike and Will" in text("series_winner", {"players": ["Eleven", "Mike", "Will"]})
    assert "{Max} [/]" in text("knockout", {"player": "{Max} [/]"})


def test_a_valid_user_script_overrides_the_shipped_one(tmp_path: Path) -> None:
    user = user_scripts(tmp_path, {"en/turn.toml": '[[step]]\nsay = "Go, {player}!"\n'})
    library = ScriptLibrary.load(user, SHIPPED)
    assert library.warnings == []
    assert library.actions("turn", {"player": "Lucas"}, voice()) == [Line("Go, Lucas!", "en-us")]


def test_a_broken_user_script_falls_back_with_file_and_line(tmp_path: Path) -> None:
    user = user_scripts(
        tmp_path, {"en/turn.toml": '[[step]]\nsay = "Hi"\n\n[[step]]\npause = -1\n'}
    )
    library = ScriptLibrary.load(user, SHIPPED)
    (warning,) = library.warnings
    assert f"{user / 'en' / 'turn.toml'}:5: pause must be more than 0 seconds" in warning
    assert "falling back" in warning
    assert library.actions("turn", {"player": "Lucas"}, voice()) == [
        Line("Lucas, your turn.", "en-us")
    ]


def test_user_folder_mistakes_are_warnings_not_crashes(tmp_path: Path) -> None:
    user = user_scripts(
        tmp_path,
        {
            "en/revael.toml": "",
            "it/reveal.toml": '[[step]]\nsay = "Chiudete gli occhi."\n',
            "nl/language.toml": "name = 'Nederlands'\nvoice = 'nl'\n",
            "nl/reveal.toml": '[[step]]\nsay = "Iedereen, ogen dicht."\n'
            '[[step]]\npause = "{seconds}"\n',
            "Not A Language/x.toml": "",
        },
    )
    library = ScriptLibrary.load(user, SHIPPED)
    joined = "\n".join(library.warnings)
    assert "unknown script name 'revael'" in joined
    assert f"{user / 'it' / 'language.toml'}:1: missing" in joined
    assert "not a language code folder" in joined
    assert library.languages["nl"].voice == "nl"
    assert library.actions("reveal", {}, voice("nl")) == [
        Line("Iedereen, ogen dicht.", "nl"),
        Wait(voice("nl").reveal_seconds),
    ]
    assert "it" not in library.languages


def test_missing_shipped_scripts_still_give_a_library(tmp_path: Path) -> None:
    library = ScriptLibrary.load(None, tmp_path / "nowhere")
    assert any("shipped voice scripts are missing" in w for w in library.warnings)
    assert any("No usable reveal script" in w for w in library.warnings)
    assert library.actions("reveal", {}, voice()) is None


def test_a_broken_shipped_script_is_reported(tmp_path: Path) -> None:
    shipped = tmp_path / "shipped"
    shutil.copytree(SHIPPED, shipped)
    (shipped / "en" / "finale.toml").write_text("[[step]\n", encoding="utf-8")
    library = ScriptLibrary.load(None, shipped)
    assert any("finale.toml:1: the file is not valid TOML" in w for w in library.warnings)
    assert any("No usable finale script" in w for w in library.warnings)
    assert library.actions("finale", {}, voice()) is None
    assert library.actions("finale", {}, voice("fr"))
