"""The optional neural English voice (Piper in a child process) as cached clips.

`PiperSynthesizer` is a `ClipSynthesizer`: its owner thread keeps one Piper
child (see `neural_voice`) per speech rate and hands out futures, so nothing
waits on it but the narration thread. Each WAV Piper writes is treated like espeak's:
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
import tempfile
from collections.abc import Hashable, Sequence
from pathlib import Path

from moderator.i18n import _
from moderator.narration.audio.wavfile import Pcm, read_pcm, trim_silence
from moderator.narration.speech.neural_voice import (
    ENGINE,
    NATURAL_RATE,
    START_TIMEOUT,
    SYNTH_TIMEOUT,
    NeuralVoice,
    PiperChild,
    find_neural_voice,
    length_scale,
    piper_command,
)
from moderator.narration.speech.speaker import SpeechFault
from moderator.narration.speech.synthesizer import ClipSynthesizer, Request

#: The speech WAVs' format: what the renderer and the mixer expect from every engine.
TARGET_RATE = 22050
#: Bump when the cached audio would differ for the same key (trimming, resampling...).
CACHE_FORMAT = 1
#: Piper normalizes every line to full scale (0 dBFS peak, -18.7 dBFS RMS measured over
#: the English scripts); espeak peaks near -2 dBFS (-20.2 dBFS RMS). This gain matches
#: the two engines' loudness and leaves the ambience mix headroom against clipping.
LOUDNESS_MATCH = 0.8


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


class PiperSynthesizer(ClipSynthesizer[PiperChild]):
    """Lines to cached, trimmed WAV clips through a Piper child; never blocks the caller.

    English only: the `voice` of a line is ignored (the model is the voice).
    """

    thread_name = "mindflayer-neural"

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
        warm = None if warm_up_rate is None else length_scale(warm_up_rate)
        super().__init__(cache_dir, warm_up=None if warm is None else lambda: self.child(warm))
        self.voice: NeuralVoice | None = None
        try:
            self.voice = voice or find_neural_voice()
        except SpeechFault as fault:
            self._broken = fault
        self._command = list(command) if command else None
        self._start_timeout = start_timeout
        self._synth_timeout = synth_timeout
        self._folder = Path(tempfile.mkdtemp(prefix="mindflayer-piper-"))
        self._start()

    def cache_path(self, text: str, voice: str, rate: int, volume: float) -> Path:
        """Where this line's clip is cached: the engine, model and versions are in the key."""
        identity = self.voice.identity if self.voice else [ENGINE]
        key = json.dumps(
            [CACHE_FORMAT, *identity, text, length_scale(rate), round(float(volume), 3)]
        )
        return self._cache / f"{hashlib.sha256(key.encode('utf-8')).hexdigest()}.wav"

    def close(self) -> None:
        """Stop the child and the thread (bounded); remove the private folder."""
        super().close()
        for leftover in self._folder.glob("*"):
            leftover.unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            self._folder.rmdir()

    # -- ClipSynthesizer ---------------------------------------------------------

    def _child_key(self, request: Request) -> Hashable:
        return length_scale(request.rate)

    def _start_child(self, key: Hashable) -> PiperChild:
        assert self.voice is not None and isinstance(key, float)
        command = self._command or piper_command(self.voice, key, self._folder)
        return PiperChild(command, self._folder, self._start_timeout)

    def _render(self, child: PiperChild, request: Request) -> Pcm:
        raw = child.say(request.text, self._synth_timeout)
        try:
            audio = resample(read_pcm(raw), TARGET_RATE)
        finally:
            raw.unlink(missing_ok=True)
        pcm = trim_silence(scale_volume(audio, request.volume * LOUDNESS_MATCH))
        if not pcm.samples:
            raise SpeechFault("neural", _("The neural voice produced no sound for a line."))
        return pcm

    def _hung_fault(self) -> SpeechFault:
        return SpeechFault(
            "neural",
            _(
                "The neural voice keeps hanging; the system voice speaks for the rest of the "
                "session."
            ),
            permanent=True,
            says_fallback=True,
        )
