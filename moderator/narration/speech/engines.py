"""English through the optional neural voice, everything else (and every fallback) through espeak.

`ChoosingSpeaker` is a Speaker that wraps the espeak one. When the table picks
Piper for English and the neural voice is installed, English lines go to a
`NeuralSynthesizer`, created on first need (its child costs ~1 s of CPU, so a
table that never picks Piper never pays for it). A line the neural voice
cannot make is synthesized by espeak instead, so the table always hears it;
the first such failure is told once (SpeechFault part "neural"), later ones
silently, as every other part's faults are. Playback is the espeak speaker's
platform player for both engines: the clips are the same format.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING

from moderator.narration.speech.speaker import Clip, Speaker, SpeechFault

if TYPE_CHECKING:
    from moderator.narration.speech.neural import NeuralSynthesizer

ESPEAK = "espeak"
PIPER = "piper"

FaultSink = Callable[[SpeechFault], object]


def fallback_fault(fault: SpeechFault) -> SpeechFault:
    """The one notice the table gets when the neural voice fails: espeak speaks instead."""
    message = fault.message.rstrip()
    if "espeak" not in message:
        message = f"{message.rstrip('.')}; English is spoken by espeak instead."
    return SpeechFault("neural", message)


class ChoosingSpeaker:
    """A Speaker that sends English to Piper when chosen and installed, else to espeak."""

    def __init__(
        self,
        espeak: Speaker,
        cache_dir: Path,
        neural_factory: Callable[[Path], NeuralSynthesizer] | None = None,
    ) -> None:
        """Wrap `espeak`; `neural_factory` replaces the real synthesizer (tests inject faults)."""
        self.espeak = espeak
        self._cache_dir = Path(cache_dir)
        self._factory = neural_factory
        self._lock = threading.Lock()
        self._engine = ESPEAK
        self._voices: frozenset[str] = frozenset()
        self._neural: NeuralSynthesizer | None = None
        self._sinks: list[FaultSink] = []
        self._told: list[SpeechFault] = []

    # -- choosing ----------------------------------------------------------

    def choose_english_engine(self, engine: str, english_voices: Collection[str]) -> None:
        """Use `engine` ("espeak" or "piper") for lines in one of `english_voices`.

        Choosing Piper when it is not installed tells that once and keeps espeak.
        """
        with self._lock:
            self._engine = engine if engine in (ESPEAK, PIPER) else ESPEAK
            self._voices = frozenset(english_voices)
        if self._engine == PIPER:
            self._neural_or_none()

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

    def _neural_or_none(self) -> NeuralSynthesizer | None:
        """The neural synthesizer, created on first need; None (told once) when it cannot speak."""
        with self._lock:
            neural = self._neural
        if neural is None:
            try:
                neural = self._create()
            except SpeechFault as fault:
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
            self._tell(fallback_fault(problems[0]))
            return None
        return neural

    def _create(self) -> NeuralSynthesizer:
        if self._factory is not None:
            return self._factory(self._cache_dir)
        from moderator.narration.speech.neural import NeuralSynthesizer
        from moderator.narration.speech.neural_voice import find_neural_voice

        return NeuralSynthesizer(self._cache_dir, voice=find_neural_voice())

    # -- Speaker protocol ----------------------------------------------------

    def problems(self) -> list[SpeechFault]:
        """The espeak speaker's missing parts (the neural voice's are told on use)."""
        return self.espeak.problems()

    def synthesize(self, text: str, voice: str, rate: int, volume: float) -> Future[Clip]:
        """Piper for an English line when chosen, espeak otherwise or when Piper fails."""
        if self._engine != PIPER or voice not in self._voices:
            return self.espeak.synthesize(text, voice, rate, volume)
        neural = self._neural_or_none()
        if neural is None:
            return self.espeak.synthesize(text, voice, rate, volume)
        result: Future[Clip] = Future()

        def fall_back(fault: SpeechFault) -> None:
            self._tell(fallback_fault(fault))
            _chain(self.espeak.synthesize(text, voice, rate, volume), result)

        def done(attempt: Future[Clip]) -> None:
            error = attempt.exception()
            if error is None:
                result.set_result(attempt.result())
            elif isinstance(error, SpeechFault):
                fall_back(error)
            else:
                fall_back(SpeechFault("neural", f"The neural voice failed ({error})."))

        try:
            neural.synthesize(text, rate, volume).add_done_callback(done)
        except Exception as error:  # never trust a synthesizer not to raise
            fall_back(SpeechFault("neural", f"The neural voice failed ({error})."))
        return result

    def play(self, clip: Clip, on_start: Callable[[], None]) -> None:
        """Play through the espeak speaker's platform player (same clip format)."""
        self.espeak.play(clip, on_start)

    def stop(self) -> None:
        """Silence at once."""
        self.espeak.stop()

    def close(self) -> None:
        """Stop the neural child (if any) and the espeak speaker (bounded)."""
        with self._lock:
            neural, self._neural = self._neural, None
        if neural is not None:
            neural.close()
        self.espeak.close()


def _chain(source: Future[Clip], target: Future[Clip]) -> None:
    """Complete `target` as `source` completes."""

    def copy(done: Future[Clip]) -> None:
        error = done.exception()
        if error is None:
            target.set_result(done.result())
        else:
            target.set_exception(error)

    source.add_done_callback(copy)
