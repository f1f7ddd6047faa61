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
from collections.abc import Callable, Collection, Mapping
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING

from moderator.i18n import _
from moderator.narration.speech.players import Player, platform_player
from moderator.narration.speech.speaker import Clip, SpeechFault
from moderator.narration.speech.synthesizer import Synthesizer

if TYPE_CHECKING:
    from moderator.narration.speech.neural_voice import NeuralVoice

ESPEAK = "espeak"
PIPER = "piper"

FaultSink = Callable[[SpeechFault], object]


def fallback_fault(fault: SpeechFault, english: bool = True) -> SpeechFault:
    """The one notice the table gets when a natural voice fails: the system voice speaks."""
    message = fault.message.rstrip()
    if not fault.says_fallback:
        if english:
            message = _("{fault}; English is spoken by the system voice instead.")
        else:
            message = _("{fault}; the system voice (espeak-ng) speaks instead.")
        message = message.format(fault=fault.message.rstrip().rstrip("."))
    return SpeechFault("neural", message, says_fallback=True)


def _key(voice: NeuralVoice | None) -> str:
    """A natural voice's synthesizer key: its name, "" for English's shipped model."""
    return "" if voice is None else voice.name


def _failed(error: BaseException) -> str:
    return _("The neural voice failed ({error}).").format(error=error)


class ChoosingSpeaker:
    """A Speaker: each language to its natural voice when chosen and installed, else espeak-ng."""

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
        #: The natural voice of each espeak voice id (None: English's shipped model).
        self._routes: dict[str, NeuralVoice | None] = {}
        #: One Piper synthesizer per natural voice, by name ("" for the shipped model).
        self._neural: dict[str, Synthesizer] = {}
        self._sinks: list[FaultSink] = []
        self._told: list[SpeechFault] = []
        #: The natural voices whose failure was told (one notice each).
        self._told_keys: set[str] = set()

    # -- choosing ----------------------------------------------------------

    def choose_english_engine(
        self, engine: str, english_voices: Collection[str], warm: bool = True
    ) -> None:
        """Use `engine` ("espeak" or "piper") for lines in one of `english_voices`.

        With `warm`, Piper's child is started now, so the first English line
        does not wait for it. When Piper cannot speak, that is told once, with
        the first English line: a table speaking French never hears of it.
        """
        routes: dict[str, NeuralVoice | None] = {}
        if engine == PIPER:
            routes = dict.fromkeys(english_voices)
        self.choose_voices(routes, warm=next(iter(routes), None) if warm else None)

    def choose_voices(
        self, routes: Mapping[str, NeuralVoice | None], warm: str | None = None
    ) -> None:
        """Speak lines in each espeak voice id of `routes` with its natural voice.

        A value None is English's shipped model (found when first needed). Other
        voice ids speak with the system voice. With `warm` (a voice id of
        `routes`), its Piper child is started now, so the table's first line
        does not wait for it. Synthesizers of voices no longer routed are closed.
        """
        with self._lock:
            self._routes = dict(routes)
            keep = {_key(voice) for voice in self._routes.values()}
            dropped = [s for key, s in self._neural.items() if key not in keep]
            self._neural = {key: s for key, s in self._neural.items() if key in keep}
        for synthesizer in dropped:
            synthesizer.close()
        if warm is not None and warm in routes:
            self._neural_or_none(routes[warm], tell=False)

    @property
    def english_engine(self) -> str:
        """The engine chosen for English (it may still fall back line by line)."""
        with self._lock:
            return PIPER if None in self._routes.values() else ESPEAK

    def route(self, voice: str) -> str:
        """The engine a line in espeak voice `voice` goes to: "espeak", "piper" or a voice name."""
        with self._lock:
            if voice not in self._routes:
                return ESPEAK
            neural = self._routes[voice]
        return PIPER if neural is None else neural.name

    def watch_faults(self, sink: FaultSink) -> None:
        """Send the natural voices' notices to `sink` (notices already given are sent now)."""
        with self._lock:
            self._sinks.append(sink)
            told = list(self._told)
        for fault in told:
            sink(fault)

    def tell(self, fault: SpeechFault, key: str = "") -> None:
        """Tell the watchers `fault`: once per natural voice (`key`: its name, "" for English's)."""
        with self._lock:
            if key in self._told_keys:
                return
            self._told_keys.add(key)
            self._told.append(fault)
            sinks = list(self._sinks)
        for sink in sinks:
            sink(fault)

    def _neural_or_none(self, voice: NeuralVoice | None, tell: bool = True) -> Synthesizer | None:
        """The voice's synthesizer, created on first need; None (told once) when it cannot speak.

        `tell=False` (a warm-up) keeps the fault for the first line.
        """
        key = _key(voice)
        with self._lock:
            neural = self._neural.get(key)
        if neural is None:
            try:
                neural = self._create(voice)
            except SpeechFault as fault:
                if tell:
                    self.tell(fallback_fault(fault, english=voice is None), key)
                return None
            with self._lock:
                current = self._neural.get(key)
                if current is None:
                    self._neural[key] = neural
                elif current is not neural:
                    neural.close()
                    neural = current
        problems = neural.problems()
        if problems:
            if tell:
                self.tell(fallback_fault(problems[0], english=voice is None), key)
            return None
        return neural

    def _create(self, voice: NeuralVoice | None) -> Synthesizer:
        if self._factory is not None:
            return self._factory(self._cache_dir)
        from moderator.narration.speech.neural_voice import find_neural_voice
        from moderator.narration.speech.piper_synth import PiperSynthesizer

        return PiperSynthesizer(self._cache_dir, voice=voice or find_neural_voice())

    # -- Speaker protocol ----------------------------------------------------

    def problems(self) -> list[SpeechFault]:
        """The system voice's and the player's missing parts (Piper's are told on use)."""
        problems = list(self.system.problems())
        player_fault = self.player.available()
        if player_fault is not None:
            problems.append(player_fault)
        return problems

    def synthesize(self, text: str, voice: str, rate: int, volume: float) -> Future[Clip]:
        """A line's natural voice when chosen, the system voice otherwise or on failure."""
        with self._lock:
            routed = voice in self._routes
            natural = self._routes.get(voice)
        if not routed:
            return self.system.synthesize(text, voice, rate, volume)
        neural = self._neural_or_none(natural)
        if neural is None:
            return self.system.synthesize(text, voice, rate, volume)
        result: Future[Clip] = Future()

        def fall_back(fault: SpeechFault) -> None:
            self.tell(fallback_fault(fault, english=natural is None), _key(natural))
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
            neural, self._neural = list(self._neural.values()), {}
        for synthesizer in neural:
            synthesizer.close()
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
