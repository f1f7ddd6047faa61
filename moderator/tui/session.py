"""The game night's state outside the widgets: store, current game, narrator.

Screens never talk to SQLite or the speech engine directly: they ask the
session. One session per app instance (no module-level singletons), injected
by `make_app`, so tests can run many apps side by side on temp folders.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from textual.message_pump import MessagePump

from moderator.domain import GameState, rules
from moderator.domain.timeline import LogEntry
from moderator.narration import VoiceSettings
from moderator.tui.config import TableSettings, save_settings
from moderator.tui.messages import NarrationFinished, translate
from moderator.tui.ports import GameScoreLike, NarratorLike, SavedGameLike, StoreLike
from moderator.tui.voice import to_voice_settings


@dataclass(frozen=True)
class SeatingPlan:
    """The roster a new game starts from: names clockwise and the first player."""

    players: tuple[str, ...]
    first_player: int


class Session:
    """Owns the Store, the current series and game, the narrator and the settings."""

    def __init__(
        self,
        store: StoreLike,
        narrator: NarratorLike,
        settings: TableSettings,
        config_dir: Path,
    ) -> None:
        self.store = store
        self.narrator = narrator
        self.settings = settings
        self.config_dir = config_dir
        #: The series being played, if any.
        self.series_id: int | None = None
        #: The game being played (None between games and before the first).
        self.game: SavedGameLike | None = None
        #: Temporary silence (the mute key); not saved, unlike settings.enabled.
        self.muted = False
        self._playbacks = itertools.count(1)
        #: The playback still running (0: none); written by the narration thread too.
        self._speaking = 0

    # --- the game -----------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The current game's public state (a game must be open)."""
        if self.game is None:
            raise RuntimeError("No game is open.")
        return self.game.state

    def record(self, entry: LogEntry) -> GameState:
        """Save the entry, then apply it (IllegalAction / StorageError: nothing changes)."""
        if self.game is None:
            raise RuntimeError("No game is open.")
        return self.game.record(entry)

    def new_series(self) -> bool:
        """Start a fresh series; True if an unfinished one was set aside for it."""
        unfinished = self.store.unfinished()
        if unfinished is not None:
            self.store.abandon_series(unfinished.series_id)
        self.series_id = self.store.new_series()
        self.game = None
        return unfinished is not None

    def start_game(self, players: Sequence[str], first_player: int) -> SavedGameLike:
        """Open the next game of the current series (a series is created if needed)."""
        if self.series_id is None:
            self.series_id = self.store.new_series()
        self.game = self.store.new_game(self.series_id, tuple(players), first_player)
        return self.game

    def resume(self) -> bool:
        """Pick up the unfinished series and game, if any; True when there was one."""
        unfinished = self.store.unfinished()
        if unfinished is None:
            return False
        self.series_id = unfinished.series_id
        self.game = unfinished.game
        return True

    def series_games(self) -> list[GameScoreLike]:
        """The finished games of the current series, in order."""
        if self.series_id is None:
            return []
        return list(self.store.series_games(self.series_id))

    def series_complete(self) -> bool:
        """Whether the current series has all its games."""
        return rules.series_complete(len(self.series_games()))

    def next_plan(self) -> SeatingPlan | None:
        """The roster of the last game, offered for the next one."""
        if self.game is not None:
            state = self.game.state
            return SeatingPlan(state.players, state.first_player)
        games = self.series_games()
        if games:
            return SeatingPlan(tuple(games[-1].players), 0)
        return None

    # --- the voice ----------------------------------------------------------------

    def speak(self, script: str, context: Mapping[str, object], target: MessagePump) -> int:
        """Play a script without blocking; progress arrives at `target` as messages.

        Returns the playback id the messages will carry. When muted, the script
        still runs (captions and timing) but silently: the narrator is told so
        through its settings.
        """
        playback = next(self._playbacks)
        self._speaking = playback

        def on_event(event: object) -> None:
            # Runs on the narration thread: only an int store and post_message here.
            message = translate(playback, event)
            if isinstance(message, NarrationFinished) and self._speaking == playback:
                self._speaking = 0
            if message is not None:
                target.post_message(message)

        self.narrator.play(script, dict(context), on_event)
        return playback

    @property
    def speaking(self) -> bool:
        """Whether a script started here is still running."""
        return self._speaking != 0

    def lines(self, script: str, context: Mapping[str, object]) -> list[str]:
        """The captions of a script (for showing without playing)."""
        return self.narrator.lines(script, dict(context))

    def silence(self) -> None:
        """Stop whatever is being said, at once."""
        self._speaking = 0
        self.narrator.cancel()

    def toggle_mute(self) -> bool:
        """Mute or unmute the voice; returns whether it is now muted.

        Muting silences the current line at once but lets a running script go
        on with its captions and timing (a muted reveal still works).
        """
        self.muted = not self.muted
        self.narrator.update_settings(self.voice_settings())
        return self.muted

    def voice_settings(self) -> VoiceSettings:
        """The narrator's settings for the current settings and mute state."""
        settings = replace(self.settings, enabled=self.settings.enabled and not self.muted)
        return to_voice_settings(settings)

    def change_settings(self, settings: TableSettings) -> None:
        """Save new settings (OSError if the disk refuses) and hand them to the narrator."""
        settings = settings.validated()
        save_settings(self.config_dir, settings)
        self.settings = settings
        self.narrator.update_settings(self.voice_settings())

    def close(self) -> None:
        """Silence the narrator and close the database."""
        try:
            self.narrator.close()
        finally:
            self.store.close()
