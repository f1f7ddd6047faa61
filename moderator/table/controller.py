"""The table controller: the one place the TUI acts on the game night.

Screens post intents; the app calls one typed method here per intent and gets
an `Outcome` back: the state after the action, a notice for the table, and the
narration cues it played. The store and the narrator are private to the
controller, so no screen can write the database or start the voice by another
road. Every action saves before anything is shown (the store commits first); a
refused action changes nothing and its outcome carries the layer's sentence.

One controller per app instance (no module-level singletons), built by
`make_app`, so tests run many apps side by side on temp folders.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from moderator.domain import (
    GameState,
    IllegalAction,
    MeetingResolved,
    MeetingStarted,
    PlayerKnockedOut,
    Redo,
    Result,
    ResultsDeclared,
    RevealFinished,
    SitOutToggled,
    TurnPassed,
    Undo,
    rules,
    setup_for,
)
from moderator.domain.names import clean_roster, clean_said_as
from moderator.domain.timeline import LogEntry
from moderator.i18n import _, ngettext
from moderator.i18n.refusals import refusal
from moderator.narration.scripts.spoken_names import prepare as prepare_names
from moderator.storage import GameScore
from moderator.table.config import TableSettings, save_settings
from moderator.table.describe import describe
from moderator.table.drafts import Drafts, results_key
from moderator.table.outcomes import Outcome, PlayExport, RenameQuestions, SeatingPlan
from moderator.table.phases import Flags, Phase, phase_for
from moderator.table.playback import Report, Voice
from moderator.table.ports import (
    ACTION_ERRORS,
    GameScoreLike,
    NarratorLike,
    SavedGameLike,
    StoreLike,
)
from moderator.table.set_aside import series_words, set_aside_question
from moderator.table.snapshot import TableSnapshot

# The cues (`cues`, `aloud`, `voice_ahead`) are imported by the methods that make one, and
# the BG Stats export (`play_export`, with the history's export rows) by `export_play`:
# the start screen needs neither, and their imports cost the first frame (docs/startup.md).
if TYPE_CHECKING:
    from moderator.storage.history_summary import HistorySummary
    from moderator.table.cues import Cue


class TableController:
    """The store, the narrator, the settings, the open series and game; acts on the night.

    One typed method per intent, each answering an `Outcome`; read-only questions
    the screens ask (which change nothing) beside them.
    """

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
        #: What the table typed but has not saved (`drafts`): offered back on Resume.
        self.drafts = Drafts(data_dir)

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
    def series_id(self) -> int | None:
        """The open series' id (None before one is begun): the drafts and the remote follow it."""
        return self._series_id

    @property
    def config_dir(self) -> Path:
        """The table's config folder (settings, keymap, the board's token)."""
        return self._config_dir

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
        from moderator.table.cues import KnockoutCue

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
        from moderator.table.voice_ahead import cues_ahead

        seating = phase is Phase.SETUP
        self._voice.prepare(cues_ahead(state, self._settings.reveal_seconds, seating))

    def check_database(self) -> list[str]:
        """The start-up integrity check, left for after the first frame (worker thread).

        Returns the notices: empty when the file is sound; else it was moved aside
        and a fresh database started (then call `database_replaced` on the UI thread).
        """
        return self._store.check_integrity()

    def close(self) -> None:
        """Silence the narrator and close the database (the drafts written out first)."""
        try:
            self.drafts.flush(timeout=2.0)
            self._voice.close()
        finally:
            self._store.close()

    # --- the night --------------------------------------------------------------------

    def go_home(self) -> Outcome:
        """Back to the start screen (the game stays saved); the voice stops."""
        self.silence()
        self._flags = Flags()
        return self._outcome()

    def menu(self) -> Outcome:
        """Esc on a game screen: silence first if speaking, else the start screen."""
        if self.speaking:
            self.silence()
            return self._outcome(_("Silenced. Esc again: start screen."))
        return self.go_home()

    def resume(self) -> Outcome:
        """Pick up the unfinished series and game, exactly where they were."""
        try:
            unfinished = self._store.unfinished()
        except ACTION_ERRORS as error:
            return self._refused(refusal(error))
        if unfinished is None:
            return self._outcome(_("There is no unfinished game to resume."))
        same_series = unfinished.series_id == self._series_id
        self._series_id = unfinished.series_id
        self._game = unfinished.game
        if self._game is not None:
            prepare_names(self._game.state.players, (self._settings.lang,))
        try:
            # A series begun this run with no game yet (`s` on a complete board, then
            # Esc) keeps the roster its setup showed.
            self._plan = self.next_plan() or (self._plan if same_series else None)
        except ACTION_ERRORS as error:
            return self._refused(refusal(error))
        notice = None
        if self._game is not None and self._game.state.reveal_pending:
            notice = _("The eyes-closed reveal had not finished: it is offered again.")
        # Ticks typed on the result screen before a crash: back there, not to the finale.
        typed = self._game is not None and self.drafts.results(results_key(self._game.game_id))
        return self._moved(Flags(at_start=False, entering_results=bool(typed)), notice)

    def set_aside_question(self) -> str | None:
        """What to ask before `new_series` sets a started series aside (None: nothing to lose).

        The app asks it (`set_aside.ANSWERS`, keeping the series first) and calls
        `new_series` only on the table's yes. A store error is no reason to skip it.
        """
        try:
            return set_aside_question(self._store)
        except ACTION_ERRORS as error:
            return _("{error} Start a new series anyway?").format(error=refusal(error))

    def new_series(self) -> Outcome:
        """A fresh series (an unfinished one is set aside), starting with setup.

        Call it once the table said yes to `set_aside_question` (if it had one).
        """
        try:
            plan = self.next_plan()
            words = series_words(self._store)
            unfinished = self._store.unfinished()
            if unfinished is not None:
                self._store.abandon_series(unfinished.series_id)
            self._series_id = self._store.new_series()
        except ACTION_ERRORS as error:
            return self._refused(refusal(error))
        self._game = None
        self._plan = plan
        notice = (
            _("Set aside: {words}. A new series starts.").format(words=words) if words else None
        )
        return self._moved(Flags(at_start=False, seating=True), notice)

    def next_game(self) -> Outcome:
        """Same series: seat the table again (same roster, changes allowed)."""
        try:
            complete = rules.series_complete(len(self.series_games()))
            plan = self.next_plan()
        except ACTION_ERRORS as error:
            return self._refused(refusal(error))
        if complete:
            return self._outcome(_("This series is complete: start a new series."))
        self._plan = plan
        self._game = None
        return self._moved(Flags(at_start=False, seating=True))

    def seating_plan(self) -> SeatingPlan | None:
        """The roster the setup screen starts from (the last game's, if any)."""
        return self._plan

    def start_game(
        self,
        players: Sequence[str],
        first_player: int,
        renames: Mapping[str, str] | None = None,
        said_as: Sequence[str] = (),
    ) -> Outcome:
        """Save the new game, then the reveal (6+ players) or the table.

        `renames`: earlier name -> new name, for players the table said are the same.
        `said_as`: how each name is said, by seat ("" as written), saved with the start.
        """
        try:
            setup_for(len(players))
            roster = clean_roster(players)
            said = tuple(clean_said_as(words) for words in said_as)
            if self._series_id is None:
                self._series_id = self._store.new_series()
            self._game = self._store.new_game(
                self._series_id, tuple(roster), first_player, dict(renames or {}), said
            )
        except ACTION_ERRORS as error:
            return self._refused(refusal(error))
        # The roster is saved as the game's start now: its draft is no longer what the
        # table typed (a withdrawn start goes back to setup with the saved roster).
        self.drafts.drop("roster")
        prepare_names(roster, (self._settings.lang,))
        return self._moved(Flags(at_start=False))  # 6+ players: the reveal is pending

    def read_setup(self, players: int) -> Outcome:
        """Speak the setup checklist for this many players (refused outside 4..10)."""
        from moderator.table.cues import SetupCue

        try:
            setup_for(players)
        except IllegalAction as error:
            return self._refused(refusal(error))
        return self._outcome(cues=self._play(SetupCue(players)))

    def how_to_play(self, from_line: int = 0) -> Outcome:
        """Speak the rules in short from line `from_line` on; the line being said stops now."""
        from moderator.table.cues import HowToPlayCue

        self.silence()  # a newer script would wait for the current line's end
        return self._outcome(cues=self._play(HowToPlayCue(max(0, from_line))))

    def play_reveal(self) -> Outcome:
        """Start (or replay) the eyes-closed reveal."""
        from moderator.table.cues import RevealCue

        return self._outcome(cues=self._play(RevealCue(self._settings.reveal_seconds)))

    def stop_voice(self) -> Outcome:
        """Silence at once; the phase stays."""
        self.silence()
        return self._outcome()

    def finish_reveal(self) -> Outcome:
        """The reveal is over (or skipped): saved as `RevealFinished`, then the turns begin.

        Until it is saved, a resume offers the reveal again (the app was closed
        or killed while eyes were closed); undo at the table brings it back.
        """
        self.silence()
        state = self.game_state
        if state is None or not state.reveal_pending:
            return self._outcome()
        return self._act(RevealFinished())

    def pass_turn(self) -> Outcome:
        """The current player gave their Adventure card away: next player."""
        from moderator.table.cues import TurnCue

        outcome = self._act(TurnPassed())
        state = outcome.state
        if outcome.refused or state is None or state.is_over:
            return outcome
        if not self._settings.announce_turns:
            return outcome
        return replace(outcome, cues=self._play(TurnCue(state.players[state.current])))

    def draw_meeting(self) -> Outcome:
        """The current player drew a Meeting card."""
        return self._act(MeetingStarted())

    def knock_out(self, seat: int) -> Outcome:
        """`seat` is knocked out; the voice announces it.

        Knocking out the player whose turn it is passes the turn on: the notice
        says to whom, so the table does not look at a screen that changed silently.
        """
        from moderator.table.cues import KnockoutCue

        name = self._name(seat)
        before = self.game_state
        done = _("{name} is knocked out.").format(name=name)
        outcome = self._act(PlayerKnockedOut(seat), done, KnockoutCue(name))
        after = outcome.state
        if (
            not outcome.refused
            and before is not None
            and after is not None
            and before.current == seat
            and after.current != seat
            and not after.is_over
            and after.meeting is None
        ):
            turn = _("Now it is {name}'s turn (seat {seat}).").format(
                name=after.players[after.current], seat=after.current + 1
            )
            outcome = replace(outcome, notice=f"{done} {turn}")
        return outcome

    def read_table(self) -> Outcome:
        """Speak and show where the game stands (public state only); not while eyes are closed.

        The notice is the sentence spoken, so a table that cannot hear it reads it.
        During the reveal nothing is spoken: the notice says why, and to ask again.
        """
        from moderator.table.aloud import table_state_cue

        state = self.game_state
        points: list[Mapping[str, int]] = []
        if state is None or state.result is not None:  # between games: the series score
            try:
                points = [game.points for game in self.series_games()]
            except ACTION_ERRORS:
                points = []
        cue = table_state_cue(self.phase, state, self.game_number, points)
        if cue is None:
            return self._outcome(
                _("Eyes are closed: the table is read aloud once the reveal is over.")
            )
        sentence = " ".join(self.lines(cue))
        return self._outcome(sentence, cues=self._play(cue))

    def toggle_sit_out(self, seat: int) -> Outcome:
        """A card effect makes a player sit out of the Meeting (or come back)."""
        return self._act(SitOutToggled(seat))

    def resolve_meeting(self) -> Outcome:
        """Everyone received their two cards."""
        self.silence()
        return self._act(MeetingResolved())

    def count_again(self) -> Outcome:
        """Replay the finale's count to 3."""
        from moderator.table.cues import FinaleCue

        return self._outcome(cues=self._play(FinaleCue()))

    def enter_results(self) -> Outcome:
        """The finale is done: enter who growled."""
        self.silence()
        return self._moved(replace(self._flags, entering_results=True))

    def declare(self, event: ResultsDeclared) -> Outcome:
        """Save the results (the domain checks them) and show the series board."""
        outcome = self._act(event)
        if not outcome.refused:
            self.drafts.drop("results")  # saved as an action: the boxes are no draft now
        return outcome

    def export_play(self) -> Outcome:
        """The game just played for BG Stats: its link, and a play file (see `play_export`)."""
        from moderator.table.play_export import export_game

        try:
            games = self.series_games()
        except ACTION_ERRORS as error:
            return self._refused(refusal(error))
        if not games:
            return self._refused(_("No game of this series has results yet."))
        # The store's scores are GameScore records (the port names only what the board reads).
        self._export, notice = export_game(cast(GameScore, games[-1]), self._data_dir)
        return self._outcome(notice)

    def undo(self) -> Outcome:
        """Take back the last action, saying what it was.

        Right after the start (nothing done, nothing undone but the reveal's end:
        `Timeline.just_started`) that is the start itself: the game
        is withdrawn (it counts for nothing) and the table is back at setup with
        the same roster, so an accidental Enter on "Start game" costs nothing.
        """
        game = self._game
        if game is not None and game.timeline.just_started:
            return self._withdraw(game)
        return self._step(Undo())

    def _withdraw(self, game: SavedGameLike) -> Outcome:
        state = game.state
        try:
            self._store.withdraw_game(game.game_id)
        except ACTION_ERRORS as error:
            return self._refused(refusal(error))
        self._game = None
        self._plan = SeatingPlan(state.players, state.first_player, state.said_as)
        return self._moved(
            Flags(at_start=False, seating=True),
            _("Undone: the start of game {number}. Back to setup, same roster.").format(
                number=game.number
            ),
        )

    def redo(self) -> Outcome:
        """Apply again what was just undone."""
        return self._step(Redo())

    # --- the voice and the database ---------------------------------------------------

    def database_replaced(self) -> Outcome:
        """The database was started afresh: nothing of the old one is open any more."""
        self._series_id = None
        self._game = None
        self._plan = None
        return self.go_home()

    def snapshot(self, outcome: Outcome | None = None) -> TableSnapshot:
        """What the phase screens draw: the table now, or just after `outcome`.

        The export is read only on the series board (it asks the store for the
        series' games), so a key of the game pays nothing for it.
        """
        if outcome is not None:
            phase, state = outcome.phase, outcome.state
        else:
            phase, state = self.phase, self.game_state
        export = self.play_export() if phase is Phase.SERIES else None
        return TableSnapshot(phase, state, self.game_number, export)

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

    def _outcome(
        self, notice: str | None = None, cues: tuple[Cue, ...] = (), refused: bool = False
    ) -> Outcome:
        outcome = Outcome(self.game_state, self.phase, notice, cues, refused)
        self._prepare_voice(outcome.state, outcome.phase)
        self._published()
        return outcome

    def _refused(self, sentence: str) -> Outcome:
        return self._outcome(sentence, refused=True)

    def _moved(self, flags: Flags, notice: str | None = None) -> Outcome:
        """Change the UI flags; entering a new phase silences the voice and speaks its cue."""
        before = self.phase
        self._flags = flags
        after = self.phase
        cues: tuple[Cue, ...] = ()
        if after != before:
            self.silence()
            cues = self._play_entry(after)
        return self._outcome(notice, cues)

    def _act(self, entry: LogEntry, done: str | None = None, cue: Cue | None = None) -> Outcome:
        """Save and apply an entry; the phase follows the new state."""
        if self._game is None:
            return self._refused(_("No game is open."))
        before = self.phase
        try:
            state = self._game.record(entry)
        except ACTION_ERRORS as error:
            return self._refused(refusal(error))
        if state.result is None and before is Phase.SERIES:
            # Results taken back from the series board: straight to entering them again.
            self._flags = replace(self._flags, entering_results=True)
        elif not state.is_over or state.result is not None:
            self._flags = replace(self._flags, entering_results=False)
        cues = self._play(cue) if cue is not None else ()
        after = self.phase
        if after != before:
            cues += self._play_entry(after)
        return self._outcome(done, cues)

    def _step(self, entry: Undo | Redo) -> Outcome:
        """Undo or redo, with a notice naming the event it moves."""
        game = self._game
        if game is None:
            return self._refused(_("No game is open."))
        timeline = game.timeline
        undo = isinstance(entry, Undo)
        moved = timeline.events[-1:] if timeline.can_undo else ()
        if not undo:
            moved = timeline.redo_stack[-1:] if timeline.can_redo else ()
        sentence = _("Undone: {what}.") if undo else _("Redone: {what}.")
        notice = sentence.format(what=describe(moved[0], game.state)) if moved else None
        return self._act(entry, notice)

    def _play_entry(self, phase: Phase) -> tuple[Cue, ...]:
        """The cue a phase speaks when the table arrives in it."""
        from moderator.table.cues import FinaleCue, MeetingCue, SeriesWinnerCue

        state = self.game_state
        if phase is Phase.MEETING and state is not None and state.meeting is not None:
            return self._play(MeetingCue(state.meeting.number, len(state.participants())))
        if phase is Phase.FINALE:
            return self._play(FinaleCue())
        if phase is Phase.SERIES:
            try:
                points = [game.points for game in self.series_games()]
            except ACTION_ERRORS:
                return ()
            winners = rules.series_winners(points)
            if winners:
                return self._play(SeriesWinnerCue(tuple(winners)))
        return ()

    def _play(self, cue: Cue) -> tuple[Cue, ...]:
        """Play a cue for the phase the table is in now (cancels what was playing)."""
        self._voice.play(cue, self.phase, self._said_as())
        return (cue,)
