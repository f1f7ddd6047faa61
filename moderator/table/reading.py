"""What the table controller knows: its parts, and every question the screens ask it.

`TableController` (moderator.table.controller) adds the actions; this base
holds the store, the voice, the settings, the open series and game, and reads
them without changing anything (plus the voice's own switches), so the
controller module stays about acting on the night.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from moderator.domain import (
    GameState,
    IllegalAction,
    PlayerKnockedOut,
    Result,
    ResultsDeclared,
)
from moderator.i18n import _, ngettext
from moderator.i18n.refusals import refusal
from moderator.storage import HistorySummary
from moderator.table.config import TableSettings, save_settings
from moderator.table.cues import (
    Cue,
    KnockoutCue,
)
from moderator.table.outcomes import PlayExport, RenameQuestions, SeatingPlan
from moderator.table.phases import Flags, Phase, phase_for
from moderator.table.playback import Report, Voice
from moderator.table.ports import (
    ACTION_ERRORS,
    GameScoreLike,
    NarratorLike,
    SavedGameLike,
    StoreLike,
)
from moderator.table.voice_ahead import cues_ahead


class TableReading:
    """The store, the narrator, the settings, the open series and game; read-only questions."""

    def __init__(
        self,
        store: StoreLike,
        narrator: NarratorLike,
        settings: TableSettings,
        config_dir: Path,
        data_dir: Path | None = None,
    ) -> None:
        """`data_dir`: where BG Stats play files are written (None: the link only)."""
        self._store = store
        self._data_dir = data_dir
        #: The last BG Stats export of this run.
        self._export: PlayExport | None = None
        self._voice = Voice(narrator)
        self._config_dir = config_dir
        self._settings = settings
        self._series_id: int | None = None
        self._game: SavedGameLike | None = None
        self._flags = Flags()
        #: The roster the setup screen starts from.
        self._plan: SeatingPlan | None = None
        #: Told after every answered action (the phone board publishes its snapshot).
        self._published: Callable[[], None] = lambda: None

    def attach(self, report: Report) -> None:
        """Narration progress goes to `report(playback, event)` (the app makes messages)."""
        self._voice.attach(report)

    def publish_to(self, published: Callable[[], None]) -> None:
        """`published()` runs after each action, once its outcome is settled here."""
        self._published = published

    # --- reading --------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """The phase the table is in now."""
        return phase_for(self.game_state, self._games_played(), self._flags)

    @property
    def series_id(self) -> int | None:
        """The open series' id (None before one is open): the phone remote's token follows it."""
        return self._series_id

    @property
    def game(self) -> SavedGameLike | None:
        """The open game (None between games), read only: act through the methods."""
        return self._game

    @property
    def game_state(self) -> GameState | None:
        """The open game's public state, or None."""
        return self._game.state if self._game is not None else None

    @property
    def state(self) -> GameState:
        """The open game's public state (a game must be open)."""
        if self._game is None:
            raise RuntimeError("No game is open.")
        return self._game.state

    @property
    def game_number(self) -> int | None:
        """The open game's number in its series (1..3)."""
        return self._game.number if self._game is not None else None

    @property
    def settings(self) -> TableSettings:
        """The table's saved settings."""
        return self._settings

    @property
    def languages(self) -> Sequence[Any]:
        """The voice-script languages (code, name, voice), English first."""
        return self._voice.languages

    @property
    def muted(self) -> bool:
        """Whether the mute key silenced the voice (not saved, unlike the settings)."""
        return self._voice.muted

    @property
    def speaking(self) -> bool:
        """Whether a script started here is still running."""
        return self._voice.speaking

    def playback_phase(self, playback: int) -> Phase | None:
        """The phase the latest playback was started for (None for any older one)."""
        return self._voice.playback_phase(playback)

    def unfinished_summary(self) -> tuple[bool, str]:
        """Whether a series can be resumed, and a sentence about it ("" when none)."""
        unfinished = self._store.unfinished()
        if unfinished is None:
            return False, ""
        if unfinished.game is None:
            return True, _("An unfinished series is waiting for its next game.")
        state = unfinished.game.state
        sentence = ngettext(
            "Game {number} is unfinished: {players} player, turn {turn}.",
            "Game {number} is unfinished: {players} players, turn {turn}.",
            len(state.players),
        )
        return True, sentence.format(
            number=unfinished.game.number, players=len(state.players), turn=state.turn
        )

    def known_players(self) -> list[str]:
        """Names seated before, most recent first."""
        return list(self._store.known_players())

    def history(self, newest: int) -> HistorySummary:
        """The newest complete series, their count, each player's record (StorageError)."""
        return self._store.history_summary(newest)  # flat rows: one read, no replay

    def series_games(self) -> list[GameScoreLike]:
        """The finished games of the current series, in order."""
        if self._series_id is None:
            return []
        return list(self._store.series_games(self._series_id))

    def next_plan(self) -> SeatingPlan | None:
        """The roster of the last game, offered for the next one."""
        if self._game is not None:
            state = self._game.state
            return SeatingPlan(state.players, state.first_player, state.said_as)
        games = self.series_games()
        if games:
            last = games[-1]
            state = self._store.load_game(last.game_id).state
            said = dict(zip(state.players, state.said_as, strict=False))
            said_as = tuple(said.get(name, "") for name in last.players)
            return SeatingPlan(tuple(last.players), 0, said_as if any(said_as) else ())
        return None

    def judge(self, event: ResultsDeclared) -> Result | str:
        """The result `event` would give, or the domain's sentence refusing it."""
        if self._game is None:
            return _("No game is open.")
        try:
            result = self._game.timeline.preview(event).result
        except IllegalAction as error:
            return refusal(error)
        assert result is not None  # a declared result is the point of the event
        return result

    def undone_results(self) -> ResultsDeclared | None:
        """The results just taken back by undo (the next redo), so the form shows them again."""
        if self._game is None:
            return None
        timeline = self._game.timeline
        if self._game.state.result is None and timeline.can_redo:
            entry = timeline.redo_stack[-1]
            if isinstance(entry, ResultsDeclared):
                return entry
        return None

    def ending_lines(self) -> list[str]:
        """The knock-out's captions when a knock-out ended the game (else none).

        The finale's voice follows the knock-out line at once, so its caption
        never reaches the table picture: the finale screen shows it instead.
        """
        game = self._game
        if game is None or not game.state.is_over:
            return []
        events = game.timeline.events
        last = events[-1] if events else None
        if not isinstance(last, PlayerKnockedOut):
            return []
        return self._voice.lines(KnockoutCue(self._name(last.player)), self._said_as())

    def watch_faults(self, watcher: Callable[[Any], None]) -> None:
        """Speech faults, wherever they happen, go to `watcher` (any thread)."""
        self._voice.watch_faults(watcher)

    def voice_warnings(self) -> list[str]:
        """What the narrator had to say at start (may build it: call off the UI thread)."""
        return self._voice.warnings

    def lines(self, cue: Cue) -> list[str]:
        """The captions of a cue's script (for showing without playing)."""
        return self._voice.lines(cue, self._said_as())

    def rename_questions(self, players: Sequence[str]) -> RenameQuestions:
        """Names of this roster that are new to the series, and earlier players missing.

        A name fixed between games ("Noah" -> "Noah B") looks like a player leaving
        and another arriving; only the table knows, so the setup asks before starting.
        """
        if self._series_id is None:
            return RenameQuestions((), ())
        try:
            earlier = self._store.series_names(self._series_id)
        except ACTION_ERRORS:
            return RenameQuestions((), ())
        if not earlier:
            return RenameQuestions((), ())
        seated = set(players)
        known = set(earlier)
        return RenameQuestions(
            tuple(name for name in players if name not in known),
            tuple(name for name in earlier if name not in seated),
        )

    def play_export(self) -> PlayExport | None:
        """The BG Stats export of the current series' last game, if it was asked for."""
        if self._export is None:
            return None
        try:
            games = self.series_games()
        except ACTION_ERRORS:
            return None
        if games and games[-1].game_id == self._export.game_id:
            return self._export
        return None

    # --- the voice --------------------------------------------------------------------

    def silence(self) -> None:
        """Stop whatever is being said, at once."""
        self._voice.silence()

    def toggle_mute(self) -> bool:
        """Mute or unmute the voice (a running script keeps its captions); True if muted now."""
        return self._voice.toggle_mute(self._settings)

    def change_settings(self, settings: TableSettings) -> str | None:
        """Save new settings; a sentence when an unreadable earlier file was kept aside.

        Raises:
            ValueError: the settings are refused.
            OSError, OutputError: the disk refused them.
        """
        settings = settings.validated()
        kept = save_settings(self._config_dir, settings)
        self._settings = settings
        self._voice.use(settings)
        self._prepare_voice(self.game_state, self.phase)
        self._published()  # the phone board follows at once (its language, for one)
        return kept

    def _prepare_voice(self, state: GameState | None, phase: Phase) -> None:
        """Seating / the 3rd Meeting started / 3 left in play: build that audio now (issue 17)."""
        seating = phase is Phase.SETUP
        self._voice.prepare(cues_ahead(state, self._settings.reveal_seconds, seating))

    def check_database(self) -> list[str]:
        """The start-up integrity check, left for after the first frame (worker thread).

        Returns the notices: empty when the file is sound; else it was moved aside
        and a fresh database started (then call `database_replaced` on the UI thread).
        """
        return self._store.check_integrity()

    def close(self) -> None:
        """Silence the narrator and close the database."""
        try:
            self._voice.close()
        finally:
            self._store.close()

    # --- inside -----------------------------------------------------------------------

    def _games_played(self) -> int:
        if self._flags.at_start or self._game is not None or self._series_id is None:
            return 0
        try:
            return len(self._store.series_games(self._series_id))
        except ACTION_ERRORS:
            return 0

    def _name(self, seat: int) -> str:
        state = self.game_state
        if state is not None and 0 <= seat < state.count:
            return state.players[seat]
        return _("seat {number}").format(number=seat + 1)

    def _said_as(self) -> dict[str, str]:
        """Written name -> how the table said it is spoken, for the open game's players."""
        state = self.game_state
        if state is None:
            return {}
        return {
            name: said for name, said in zip(state.players, state.said_as, strict=False) if said
        }
