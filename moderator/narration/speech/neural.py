"""The optional neural English voice as cached clips, like espeak's.

`NeuralSynthesizer` owns one Piper child (see `neural_voice`) on its own
thread, one per speech rate, and hands out futures, so nothing waits on it
but the narration thread. Each WAV Piper writes is treated like espeak's:
resampled to the speech WAVs' rate when the model's differs, scaled by the
volume (and to espeak's loudness), trimmed of leading and trailing silence,
and stored atomically in the cache under a key that names the engine, the
model and both package versions (so upgrading either re-synthesizes instead
of replaying stale audio).
"""

from __future__ import annotations

import array
import contextlib
import hashlib
import json
import math
import queue
import tempfile
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

from moderator.narration.audio.wavfile import Pcm, read_pcm, trim_silence, write_pcm_atomic
from moderator.narration.speech.clip_cache import cached_clip, usable_cache
from moderator.narration.speech.neural_voice import (
    ENGINE,
    NATURAL_RATE,
    START_TIMEOUT,
    SYNTH_TIMEOUT,
    NeuralVoice,
    NothingToSay,
    PiperChild,
    find_neural_voice,
    length_scale,
    piper_command,
)
from moderator.narration.speech.speaker import Clip, SpeechFault

#: The speech WAVs' format: what the renderer and the mixer expect from every engine.
TARGET_RATE = 22050
#: Bump when the cached audio would differ for the same key (trimming, resampling...).
CACHE_FORMAT = 1
#: Piper normalizes every line to full scale (0 dBFS peak, -18.7 dBFS RMS measured over
#: the English scripts); espeak peaks near -2 dBFS (-20.2 dBFS RMS). This gain matches
#: the two engines' loudness and leaves the ambience mix headroom against clipping.
LOUDNESS_MATCH = 0.8
#: After this many hung lines in a row, the neural voice is off for the session.
MAX_HUNG_LINES = 2


def resample(pcm: Pcm, rate: int) -> Pcm:
    """The same audio at `rate` Hz, by linear interpolation (fine for speech)."""
    if pcm.rate == rate or not pcm.samples:
        return Pcm(rate, array.array("h", pcm.samples))
    source = pcm.samples
    count = max(1, round(len(source) * rate / pcm.rate))
    step = pcm.rate / rate
    last = len(source) - 1
    out = array.array("h")
    for i in range(count):
        position = i * step
        left = min(int(position), last)
        right = min(left + 1, last)
        fraction = position - left
        out.append(round(source[left] + (source[right] - source[left]) * fraction))
    return Pcm(rate, out)


def scale_volume(pcm: Pcm, volume: float) -> Pcm:
    """The audio scaled by `volume` (0..1), as espeak applies its volume."""
    volume = min(1.0, max(0.0, volume)) if math.isfinite(volume) else 1.0
    if volume == 1.0:
        return pcm
    return Pcm(pcm.rate, array.array("h", (round(s * volume) for s in pcm.samples)))


@dataclass
class _Request:
    text: str
    scale: float
    volume: float
    path: Path
    future: Future[Clip]


class NeuralSynthesizer:
    """Lines to cached, trimmed WAV clips through a Piper child; never blocks the caller.

    The synthesis half of a Speaker: playback stays with the platform player,
    so the speaker can use this for English and espeak for everything else.
    """

    def __init__(
        self,
        cache_dir: Path,
        voice: NeuralVoice | None = None,
        command: Sequence[str] | None = None,
        start_timeout: float = START_TIMEOUT,
        synth_timeout: float = SYNTH_TIMEOUT,
        warm_up_rate: int | None = NATURAL_RATE,
    ) -> None:
        """Find the voice and, unless `warm_up_rate` is None, start its child in the background.

        Args:
            cache_dir: The app's cache folder (clips go to its `speech` folder).
            voice: The model to use (default: the one `find_neural_voice` finds).
            command: Replaces Piper's command line (tests inject faults with it).
            start_timeout: Bound on the child's start-up, warm-up line included.
            synth_timeout: Bound on one line.
            warm_up_rate: Rate whose child is started at once, so the first line is quick.
        """
        self._cache = usable_cache(Path(cache_dir) / "speech")
        self._broken: SpeechFault | None = None
        self.voice: NeuralVoice | None = None
        try:
            self.voice = voice or find_neural_voice()
        except SpeechFault as fault:
            self._broken = fault
        self._command = list(command) if command else None
        self._start_timeout = start_timeout
        self._synth_timeout = synth_timeout
        self._folder = Path(tempfile.mkdtemp(prefix="mindflayer-piper-"))
        self._child: PiperChild | None = None
        self._child_scale: float | None = None
        self._hung_lines = 0
        self._jobs: queue.Queue[_Request | float | None] = queue.Queue()
        if warm_up_rate is not None:
            self._jobs.put(length_scale(warm_up_rate))
        self._thread = threading.Thread(target=self._run, name="mindflayer-neural", daemon=True)
        self._thread.start()

    def problems(self) -> list[SpeechFault]:
        """Why the neural voice cannot speak (empty when it may)."""
        return [self._broken] if self._broken is not None else []

    def cache_path(self, text: str, rate: int, volume: float) -> Path:
        """Where this line's clip is cached: the engine, model and versions are in the key."""
        identity = self.voice.identity if self.voice else [ENGINE]
        key = json.dumps(
            [CACHE_FORMAT, *identity, text, length_scale(rate), round(float(volume), 3)]
        )
        return self._cache / f"{hashlib.sha256(key.encode('utf-8')).hexdigest()}.wav"

    def synthesize(self, text: str, rate: int, volume: float) -> Future[Clip]:
        """A future clip, already done when cached; may hold a SpeechFault (part "neural")."""
        future: Future[Clip] = Future()
        path = self.cache_path(text, rate, volume)
        cached = cached_clip(text, path)
        if cached is not None:
            future.set_result(cached)
        elif self._broken is not None:
            future.set_exception(self._broken)
        else:
            self._jobs.put(_Request(text, length_scale(rate), float(volume), path, future))
        return future

    def close(self) -> None:
        """Stop the child and the thread (bounded); remove the private folder."""
        child = self._child
        if child is not None:
            child.terminate()
        self._jobs.put(None)
        self._thread.join(timeout=2.0)
        child, self._child = self._child, None
        if child is not None and not self._thread.is_alive():
            child.kill()
        for leftover in self._folder.glob("*"):
            leftover.unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            self._folder.rmdir()

    # -- the owner thread ------------------------------------------------------

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            if isinstance(job, float):
                with contextlib.suppress(SpeechFault):
                    self._ensure_child(job)
                continue
            self._handle(job)

    def _ensure_child(self, scale: float) -> PiperChild:
        if self._broken is not None:
            raise self._broken
        if self._child is not None and self._child_scale != scale:
            self._child.kill()
            self._child = None
        if self._child is None:
            assert self.voice is not None
            command = self._command or piper_command(self.voice, scale, self._folder)
            try:
                self._child = PiperChild(command, self._folder, self._start_timeout)
            except SpeechFault as fault:
                self._broken = fault
                raise
            self._child_scale = scale
        return self._child

    def _handle(self, request: _Request) -> None:
        cached = cached_clip(request.text, request.path)
        if cached is not None:
            request.future.set_result(cached)
            return
        raw: Path | None = None
        try:
            child = self._ensure_child(request.scale)
            raw = child.say(request.text, self._synth_timeout)
            self._hung_lines = 0
            audio = resample(read_pcm(raw), TARGET_RATE)
            pcm = trim_silence(scale_volume(audio, request.volume * LOUDNESS_MATCH))
            if not pcm.samples:
                raise SpeechFault("neural", "The neural voice produced no sound for a line.")
            write_pcm_atomic(request.path, pcm)
            request.future.set_result(Clip(request.text, pcm.duration, request.path))
        except NothingToSay as fault:
            request.future.set_exception(fault)
        except SpeechFault as fault:
            if fault.part == "synthesis":
                self._hung_lines += 1
                if self._hung_lines >= MAX_HUNG_LINES:
                    fault = self._broken = SpeechFault(
                        "neural",
                        "The neural voice keeps hanging; using espeak for the rest of the session.",
                        permanent=True,
                    )
            if not fault.permanent or self._broken is fault:
                self._forget_child()
            request.future.set_exception(fault)
        except (OSError, ValueError) as error:
            request.future.set_exception(
                SpeechFault("cache", f"Could not store synthesized speech ({error}).")
            )
        finally:
            if raw is not None:
                raw.unlink(missing_ok=True)

    def _forget_child(self) -> None:
        """After a fault the child may be stuck or dead: end it; the next line starts anew."""
        child, self._child = self._child, None
        if child is not None:
            child.kill()
