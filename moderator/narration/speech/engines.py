"""The real Speaker: a synthesizer per line (Piper or the system voice), one player for all.

`ChoosingSpeaker` is what the director speaks through; it never knows which
engine made a clip. Lines are synthesized by the platform's own voice
(`pyttsx3_synth`, espeak-ng / NSSS / SAPI5). When the table picks Piper for
English and the neural voice is installed, English lines go to a
`PiperSynthesizer` instead, created on first need (its child costs ~1 s of
CPU, so a table that never picks Piper never pays for it). A line the neural
voice cannot make is synthesized by the system voice, so the table always
hears it; the first such failure is told once (SpeechFault part "neural"),
later ones silently, as every other part's faults are. Every clip is played
by the platform's player (`players`): both engines write the same format.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection
from concurrent.futures import Future
from pathlib import Path

from moderator.i18n import _
from moderator.narration.speech.players import Player, platform_player
from moderator.narration.speech.speaker import Clip, SpeechFault
from moderator.narration.speech.synthesizer import Synthesizer

ESPEAK = "espeak"
PIPER = "piper"

FaultSink = Callable[[SpeechFault], object]


def fallback_fault(fault: SpeechFault) -> SpeechFault:
    """The one notice the table gets when the neural voice fails: the system voice speaks."""
    message = fault.message.rstrip()
    if not fault.says_fallback:
        message = _("{fault}; English is spoken by the system voice instead.").format(
            fault=message.rstrip(".")
        )
    return SpeechFault("neural", message, says_fallback=True)


def _failed(error: BaseException) -> str:
    return _("The neural voice failed ({error}).").format(error=error)


class ChoosingSpeaker:
    """A Speaker: English to Piper when chosen and installed, else the system voice; one player."""

    def __init__(
        self,
        system: Synthesizer,
        cache_dir: Path,
        player: Player | None = None,
        neural_factory: Callable[[Path], Synthesizer] | None = None,
    ) -> None:
        """Speak through `system` and `player` (default: the platform's).

        `neural_factory` replaces the real Piper synthesizer (tests inject faults).
        """
        self.system = system
        self.player = player or platform_player()
        self._cache_dir = Path(cache_dir)
        self._factory = neural_factory
        self._lock = threading.Lock()
        self._engine = ESPEAK
        self._voices: frozenset[str] = frozenset()
        self._neural: Synthesizer | None = None
        self._sinks: list[FaultSink] = []
        self._told: list[SpeechFault] = []

    # -- choosing ----------------------------------------------------------

    def choose_english_engine(
        self, engine: str, english_voices: Collection[str], warm: bool = True
    ) -> None:
        """Use `engine` ("espeak" or "piper") for lines in one of `english_voices`.

        With `warm`, Piper's child is started now, so the first English line
        does not wait for it. When Piper cannot speak, that is told once, with
        the first English line: a table speaking French never hears of it.
        """
        with self._lock:
            self._engine = engine if engine in (ESPEAK, PIPER) else ESPEAK
            self._voices = frozenset(english_voices)
        if self._engine == PIPER and warm:
            self._neural_or_none(tell=False)

    @property
    def english_engine(self) -> str:
        """The engine chosen for English (it may still fall back line by line)."""
        return self._engine

    def watch_faults(self, sink: FaultSink) -> None:
        """Send the neural voice's one notice to `sink` (a notice already given is sent now)."""
        with self._lock:
            self._sinks.append(sink)
            told = list(self._told)
        for fault in told:
            sink(fault)

    def _tell(self, fault: SpeechFault) -> None:
        with self._lock:
            if self._told:
                return
            self._told.append(fault)
            sinks = list(self._sinks)
        for sink in sinks:
            sink(fault)

    def _neural_or_none(self, tell: bool = True) -> Synthesizer | None:
        """The neural synthesizer, created on first need; None (told once) when it cannot speak.

        `tell=False` (a warm-up) keeps the fault for the first English line.
        """
        with self._lock:
            neural = self._neural
        if neural is None:
            try:
                neural = self._create()
            except SpeechFault as fault:
                if tell:
                    self._tell(fallback_fault(fault))
                return None
            with self._lock:
                if self._neural is None:
                    self._neural = neural
                elif self._neural is not neural:
                    neural.close()
                    neural = self._neural
        problems = neural.problems()
        if problems:
            if tell:
                self._tell(fallback_fault(problems[0]))
            return None
        return neural

    def _create(self) -> Synthesizer:
        if self._factory is not None:
            return self._factory(self._cache_dir)
        from moderator.narration.speech.neural_voice import find_neural_voice
        from moderator.narration.speech.piper_synth import PiperSynthesizer

        return PiperSynthesizer(self._cache_dir, voice=find_neural_voice())

    # -- Speaker protocol ----------------------------------------------------

    def problems(self) -> list[SpeechFault]:
        """The system voice's and the player's missing parts (Piper's are told on use)."""
        problems = list(self.system.problems())
        player_fault = self.player.available()
        if player_fault is not None:
            problems.append(player_fault)
        return problems

    def synthesize(self, text: str, voice: str, rate: int, volume: float) -> Future[Clip]:
        """Piper for an English line when chosen, the system voice otherwise or on failure."""
        if self._engine != PIPER or voice not in self._voices:
            return self.system.synthesize(text, voice, rate, volume)
        neural = self._neural_or_none()
        if neural is None:
            return self.system.synthesize(text, voice, rate, volume)
        result: Future[Clip] = Future()

        def fall_back(fault: SpeechFault) -> None:
            self._tell(fallback_fault(fault))
            _chain(self.system.synthesize(text, voice, rate, volume), result)

        def done(attempt: Future[Clip]) -> None:
            error = attempt.exception()
            if error is None:
                result.set_result(attempt.result())
            elif isinstance(error, SpeechFault):
                fall_back(error)
            else:
                fall_back(SpeechFault("neural", _failed(error)))

        try:
            neural.synthesize(text, voice, rate, volume).add_done_callback(done)
        except Exception as error:  # never trust a synthesizer not to raise
            fall_back(SpeechFault("neural", _failed(error)))
        return result

    def play(self, clip: Clip, on_start: Callable[[], None]) -> None:
        """Play through the player (bounded); a clip without audio just starts."""
        if clip.path is None:
            on_start()
            return
        self.player.play(clip.path, clip.duration, on_start)

    def stop(self) -> None:
        """Silence at once."""
        self.player.stop()

    def close(self) -> None:
        """Silence, then stop the synthesizers' children (bounded)."""
        self.player.stop()
        with self._lock:
            neural, self._neural = self._neural, None
        if neural is not None:
            neural.close()
        self.system.close()


def _chain(source: Future[Clip], target: Future[Clip]) -> None:
    """Complete `target` as `source` completes."""

    def copy(done: Future[Clip]) -> None:
        error = done.exception()
        if error is None:
            target.set_result(done.result())
        else:
            target.set_exception(error)

    source.add_done_callback(copy)
