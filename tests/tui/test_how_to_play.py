"""How to play (issue 20 item 7): the rules in short, shown line by line while spoken.

The real app and the real narrator (speech off: captions paced as the voice
would be). A time scale of 1000 pins the clock: a line's caption stays current
until a key skips it, so every assert is about what a key did, never about how
fast the machine is. A skip must stop the line being said: a newer script
alone waits for the current line's end, which at this scale never comes.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from driving import key, shown, to_setup, until
from no_message_left import BOUND, settled, toasts
from textual.pilot import Pilot
from textual.widgets import Static

from moderator.narration import VoiceSettings, make_narrator
from moderator.narration.scripts.library import ScriptLibrary
from moderator.narration.settings import VoiceSettings as Settings
from moderator.tui.app import MindFlayerApp
from moderator.tui.dialogs.help import HelpScreen
from moderator.tui.dialogs.how_to_play import DONE, MARK, HowToPlayScreen
from moderator.tui.screens.setup import SetupScreen
from tests.tui.app_driver import TrackedNarrator, app_on, narration_over

#: Each line's pace, times a script's seconds: a caption stays until it is skipped.
PINNED = 1000.0


def shipped_lines(lang: str = "en") -> list[str]:
    library = ScriptLibrary.load(None)
    actions = library.actions("how_to_play", {}, Settings(lang=lang)) or []
    return [a.text for a in actions if hasattr(a, "text")]


@pytest.fixture
def pinned(folders: dict[str, Path]) -> Iterator[tuple[MindFlayerApp, TrackedNarrator]]:
    narrator = TrackedNarrator(folders["cache"], time_scale=PINNED)
    yield app_on(folders, narrator), narrator
    narrator.close()


def heard(dialog: HowToPlayScreen) -> list[int]:
    """The lines the voice reported starting, in order (recorded by `follow_line`)."""
    return dialog.heard  # type: ignore[attr-defined, no-any-return]


def record_heard(monkeypatch: pytest.MonkeyPatch) -> None:
    """Note each line the voice reports (the dialog's own handler still runs)."""
    follow = HowToPlayScreen.follow_line

    def noting(self: HowToPlayScreen, text: str) -> None:
        follow(self, text)
        if not hasattr(self, "heard"):
            self.heard = []  # type: ignore[attr-defined]
        self.heard.append(self.lines.index(text))  # type: ignore[attr-defined]

    monkeypatch.setattr(HowToPlayScreen, "follow_line", noting)


def marked(dialog: HowToPlayScreen) -> list[int]:
    """The lines shown with the mark, as rendered."""
    lines = dialog.query(".how-to-play-line").results(Static)
    return [i for i, line in enumerate(lines) if str(line.render()).startswith(MARK)]


async def open_dialog(pilot: Pilot[None]) -> HowToPlayScreen:
    await to_setup(pilot)
    await key(pilot, "ctrl+g")
    dialog = await shown(pilot, HowToPlayScreen)
    await until(pilot, lambda: bool(dialog.lines), "the lines shown")
    return dialog


async def at_first_line(pilot: Pilot[None]) -> HowToPlayScreen:
    """The dialog open and the voice at its first line."""
    dialog = await open_dialog(pilot)
    await until(pilot, lambda: heard(dialog) == [0], "the voice at the first line")
    return dialog


async def test_the_key_opens_the_lines_and_the_voice_marks_the_first(
    pinned: tuple[MindFlayerApp, TrackedNarrator], monkeypatch: pytest.MonkeyPatch
) -> None:
    record_heard(monkeypatch)
    app, narrator = pinned
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await at_first_line(pilot)
        assert dialog.lines == shipped_lines()
        assert len(dialog.query(".how-to-play-line")) == len(dialog.lines)
        assert marked(dialog) == [0] and dialog.current == 0
        assert narrator.played[-1] == "how_to_play"
        assert narrator.contexts[-1].get("from_line") == 0
        setup_caption = app.screen_stack[-2].query_one("#setup-caption", Static)
        assert str(setup_caption.render()) == ""  # the dialog shows it, not the screen below


async def test_a_skip_stops_the_line_and_the_voice_says_the_next(
    pinned: tuple[MindFlayerApp, TrackedNarrator], monkeypatch: pytest.MonkeyPatch
) -> None:
    record_heard(monkeypatch)
    app, narrator = pinned
    async with app.run_test(size=(120, 40)) as pilot:
        dialog = await at_first_line(pilot)
        await key(pilot, "space")
        # Without stopping line 0 the next script would wait for its end (never, here).
        await until(pilot, lambda: heard(dialog) == [0, 1], "the voice at the second line")
        assert marked(dialog) == [1]
        assert narrator.contexts[-1].get("from_line") == 1
        await key(pilot, "n")
        await until(pilot, lambda: heard(dialog)[-1] == 2, "the third line")
        assert marked(dialog) == [2]


async def test_skipping_past_the_last_line_ends_it_and_esc_closes(
    pinned: tuple[MindFlayerApp, TrackedNarrator],
) -> None:
    app, narrator = pinned
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_dialog(pilot)
        for _ in dialog.lines:
            await key(pilot, "space")
        await narration_over(pilot, narrator)  # the voice stopped after the last line
        assert dialog.finished and marked(dialog) == []
        assert str(dialog.query_one("#how-to-play-hint", Static).render()) == DONE
        await key(pilot, "escape")
        await shown(pilot, SetupScreen)


async def test_esc_stops_the_voice_at_once_and_goes_back_to_the_setup(
    pinned: tuple[MindFlayerApp, TrackedNarrator],
) -> None:
    app, narrator = pinned
    async with app.run_test(size=(80, 24)) as pilot:
        await open_dialog(pilot)
        assert not narrator.idle  # the first line is being said (and would be for hours)
        await key(pilot, "escape")
        await shown(pilot, SetupScreen)
        await narration_over(pilot, narrator)
        assert not app.controller.speaking


async def test_the_voice_runs_to_the_end_by_itself(folders: dict[str, Path]) -> None:
    narrator = TrackedNarrator(folders["cache"], time_scale=0.0)
    app = app_on(folders, narrator)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            dialog = await open_dialog(pilot)
            await until(pilot, lambda: dialog.finished, "the end of the script")
            assert marked(dialog) == []
    finally:
        narrator.close()


async def test_muted_the_lines_still_show_and_step(
    pinned: tuple[MindFlayerApp, TrackedNarrator], monkeypatch: pytest.MonkeyPatch
) -> None:
    record_heard(monkeypatch)
    app, _narrator = pinned
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await at_first_line(pilot)
        await key(pilot, "v")
        assert app.controller.muted and "Voice muted." in toasts(app)
        assert isinstance(app.screen, HowToPlayScreen)
        await key(pilot, "space")
        await until(pilot, lambda: heard(dialog)[-1:] == [1], "the second line's caption")
        assert marked(dialog) == [1]


async def test_a_broken_user_script_is_told_with_its_line_and_the_shipped_one_shown(
    folders: dict[str, Path], tmp_path: Path
) -> None:
    user = tmp_path / "scripts"
    (user / "en").mkdir(parents=True)
    broken = user / "en" / "how_to_play.toml"
    broken.write_text('[[step]]\nsay = "Fine."\n\n[[step]]\nsay = 3\n', encoding="utf-8")
    narrator = make_narrator(
        VoiceSettings(enabled=False), user, folders["cache"], time_scale=PINNED
    )
    app = app_on(folders, narrator)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            dialog = await open_dialog(pilot)
            assert dialog.lines == shipped_lines()
            await until(
                pilot,
                lambda: any(f"{broken}:5" in message for message in toasts(app)),
                "the refusal with the file and line",
            )
    finally:
        narrator.close()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_the_setup_help_lists_the_key_and_the_dialog_its_own(
    pinned: tuple[MindFlayerApp, TrackedNarrator], size: tuple[int, int]
) -> None:
    app, _narrator = pinned
    async with app.run_test(size=size) as pilot:
        await to_setup(pilot)
        await key(pilot, "f1")
        help_screen = await shown(pilot, HelpScreen)
        current = str(help_screen.query_one("#help-current", Static).render())
        assert "^g" in current and "Rules: The rules in short" in current
        await key(pilot, "escape")
        await key(pilot, "ctrl+g")
        dialog = await shown(pilot, HowToPlayScreen)
        await until(pilot, lambda: bool(dialog.lines), "the lines shown")
        hint = str(dialog.query_one("#how-to-play-hint", Static).render())
        assert "space or n or →: Next line" in hint and "esc: Stop and close" in hint


async def test_esc_before_the_lines_are_read_says_nothing(
    pinned: tuple[MindFlayerApp, TrackedNarrator], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lines are read off the UI thread; a dialog closed meanwhile starts no voice."""
    app, narrator = pinned
    async with app.run_test(size=(80, 24)) as pilot:
        await to_setup(pilot)
        release = threading.Event()
        lines = app.controller.lines

        def slow_lines(cue: object) -> list[str]:
            release.wait(BOUND)  # the read waits until the dialog is closed
            return lines(cue)  # type: ignore[arg-type]

        monkeypatch.setattr(app.controller, "lines", slow_lines)
        await key(pilot, "ctrl+g")
        await shown(pilot, HowToPlayScreen)
        await key(pilot, "escape")
        await shown(pilot, SetupScreen)
        release.set()
        await until(pilot, lambda: not any(w.is_running for w in app.workers), "the read done")
        assert "how_to_play" not in narrator.played


async def test_key_bursts_never_break_the_dialog(
    pinned: tuple[MindFlayerApp, TrackedNarrator],
) -> None:
    """Seeded random bursts of the dialog's keys and the key that opens it."""
    app, narrator = pinned
    keys = ["ctrl+g", "space", "n", "right", "escape", "v", "ctrl+g", "space"]
    chooser = random.Random(20_7)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_setup(pilot)
        for _ in range(12):
            for name in chooser.choices(keys, k=20):
                app.simulate_key(name)
                await pilot.pause(0)
            await settled(pilot)
            assert isinstance(app.screen, SetupScreen | HowToPlayScreen)
            dialog = app.screen
            if isinstance(dialog, HowToPlayScreen) and dialog.lines:
                assert len(marked(dialog)) <= 1
                assert dialog.current is None or 0 <= dialog.current < len(dialog.lines)
        if not isinstance(app.screen, HowToPlayScreen):
            await key(pilot, "ctrl+g")
        await key(pilot, "escape")
        await shown(pilot, SetupScreen)
        await narration_over(pilot, narrator)
