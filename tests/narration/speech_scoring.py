"""Intelligibility of rendered narration, scored by an offline recognizer (pocketsphinx).

A stand-in for a listener with eyes closed: the app's real pipeline renders a
script to a WAV (pyttsx3 + espeak-ng, trimmed, pauses as silence), and
pocketsphinx's US-English model transcribes it. Two measures:

* open decoding (the model's general language model) of the whole render,
  scored as word error rate against the script's text;
* a grammar decode per line: the grammar holds every line of the English
  scripts, and a line counts as recognized when the recognizer picks exactly
  that line out of all of them from its audio.

Shared by `bench/bench_intelligibility.py` (which prints the figures) and the
speech tests (which assert the targets).
"""

from __future__ import annotations

import array
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from narration_helpers import library_present

from moderator.narration.audio.wavfile import Pcm, read_pcm
from moderator.narration.render import render_script
from moderator.narration.scripts.library import Line, ScriptLibrary
from moderator.narration.settings import VoiceSettings
from moderator.narration.speech.piper_synth import resample as to_rate
from moderator.narration.speech.synthesizer import Synthesizer

#: The acoustic model's sample rate.
MODEL_RATE = 16000
#: Peak of the faint background noise added before recognition (of 32767).
DITHER = 20
#: The context every script is rendered with (7 players: setup with a reveal).
CONTEXT: dict[str, object] = {"players": 7, "player": "Eleven", "meeting": 2}
SERIES_CONTEXT: dict[str, object] = {"players": ["Eleven", "Mike"]}
#: Words the recognizer's dictionary lacks, with their pronunciation (CMU phones).
EXTRA_WORDS = {"flayer": "F L EY ER"}
_NUMBERS = {
    "1": "one",
    "2": "two",
    "3": "three",
    "4": "four",
    "5": "five",
    "6": "six",
    "7": "seven",
    "8": "eight",
    "9": "nine",
    "10": "ten",
}


def scoring_problem() -> str | None:
    """Why narration cannot be scored here (no speech engine, no recognizer), or None.

    For the benches, which print it and skip; the tests skip through their
    `speech` fixture and `pytest.importorskip` instead.
    """
    if not library_present():
        return "the espeak-ng library is missing (apt-get install libespeak-ng1)"
    try:
        import pocketsphinx  # noqa: F401
    except ImportError:
        return "pocketsphinx is missing (pip install -e '.[test]')"
    return None


def context_for(script: str) -> dict[str, object]:
    """The sample context a script is scored with."""
    return dict(SERIES_CONTEXT) if script == "series_winner" else dict(CONTEXT)


def words_of(text: str) -> list[str]:
    """Lower-case words as a listener would write them ("9+" -> "nine plus")."""
    text = text.lower().replace("+", " plus ")
    text = re.sub(r"\d+", lambda m: f" {_NUMBERS.get(m.group(0), m.group(0))} ", text)
    return re.findall(r"[a-z']+", text)


def word_error_rate(reference: Sequence[str], hypothesis: Sequence[str]) -> float:
    """(substitutions + deletions + insertions) / reference words (Levenshtein)."""
    previous = list(range(len(hypothesis) + 1))
    for i, ref in enumerate(reference, 1):
        current = [i]
        for j, hyp in enumerate(hypothesis, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ref != hyp)))
        previous = current
    return previous[-1] / max(1, len(reference))


def resample(pcm: Pcm, rate: int = MODEL_RATE, pad: float = 0.3, noise: int = DITHER) -> bytes:
    """Mono 16-bit samples at `rate` (the app's own resampler) with room noise, as raw bytes.

    `pad` seconds of silence go before and after, and a faint deterministic
    noise (`noise`, in sample units) is added throughout: the recognizer
    needs some background to tell speech from silence, and the trimmed,
    perfectly silent clips otherwise lose their last words (measured: 16 of
    28 lines recognized without the noise, 28 of 28 with it, same audio).
    """
    padding = array.array("h", bytes(2 * int(rate * pad)))
    out = padding + to_rate(pcm, rate).samples + padding
    noise_source = random.Random(len(pcm.samples))
    for i, value in enumerate(out):
        out[i] = max(-32768, min(32767, value + noise_source.randint(-noise, noise)))
    return out.tobytes()


class Recognizer:
    """pocketsphinx with its shipped en-us model, quiet."""

    def __init__(self) -> None:
        self._decoder = self._new_decoder()
        self._grammar: str | None = None
        #: The model's initial cepstral mean: restored before each decode, so a
        #: score does not depend on what was decoded before it.
        self._initial_cmn = self._decoder.get_cmn()

    @staticmethod
    def _new_decoder() -> Any:
        from pocketsphinx import Decoder

        decoder = Decoder(loglevel="FATAL")
        for word, phones in EXTRA_WORDS.items():
            if decoder.lookup_word(word) is None:
                decoder.add_word(word, phones, True)
        return decoder

    def transcribe(self, raw: bytes) -> list[str]:
        """Open decoding (general language model) of 16 kHz mono audio.

        Long audio with pauses is cut into utterances by pocketsphinx's own
        endpointer (voice activity detection), as its live decoder does;
        each utterance is decoded on its own and the words are joined. One
        utterance spanning the script's long silences skews the recognizer's
        normalization, which a listener's ear does not suffer from.
        """
        from pocketsphinx import Endpointer

        # A fresh decoder: its normalization and noise estimates adapt to what it
        # heard, so a reused one scores a script differently after another one.
        decoder = self._new_decoder()
        endpointer = Endpointer(sample_rate=MODEL_RATE)
        size = endpointer.frame_bytes
        words: list[str] = []
        speech = bytearray()
        for start in range(0, len(raw) - size + 1, size):
            was_in_speech = endpointer.in_speech
            frame = endpointer.process(raw[start : start + size])
            if frame is not None:
                speech += frame
            if was_in_speech and not endpointer.in_speech:
                words += self._decode(bytes(speech), decoder)
                speech.clear()
        tail = endpointer.end_stream(raw[len(raw) - len(raw) % size :])
        if tail is not None:
            speech += tail
        if speech:
            words += self._decode(bytes(speech), decoder)
        return words

    def use_grammar(self, sentences: Iterable[str]) -> None:
        """Restrict recognition to exactly one of `sentences`."""
        choices = sorted({" ".join(words_of(s)) for s in sentences if words_of(s)})
        body = " | ".join(f"( {choice} )" for choice in choices)
        grammar = f"#JSGF V1.0;\ngrammar lines;\npublic <line> = {body};\n"
        self._decoder.add_jsgf_string("lines", grammar)
        self._grammar = "lines"

    def pick(self, raw: bytes) -> list[str]:
        """The grammar sentence the audio sounds most like."""
        assert self._grammar is not None, "call use_grammar first"
        self._decoder.activate_search(self._grammar)
        self._decoder.set_cmn(self._initial_cmn)
        return self._decode(raw)

    def _decode(self, raw: bytes, decoder: Any = None) -> list[str]:
        decoder = decoder if decoder is not None else self._decoder
        decoder.start_utt()
        decoder.process_raw(raw, full_utt=True)
        decoder.end_utt()
        hyp = decoder.hyp()
        return words_of(hyp.hypstr) if hyp is not None else []


@dataclass(frozen=True)
class ScriptScore:
    """One script's open-decoding score."""

    script: str
    wer: float
    heard: str


@dataclass(frozen=True)
class LineScore:
    """One line's grammar-decode result."""

    script: str
    text: str
    recognized: bool
    heard: str


def script_lines(library: ScriptLibrary, lang: str, script: str) -> list[Line]:
    """The lines one run of `script` speaks with the sample context."""
    settings = VoiceSettings(lang=lang, ambience=False)
    actions = library.actions(script, context_for(script), settings) or []
    return [action for action in actions if isinstance(action, Line)]


def score_script(
    library: ScriptLibrary,
    speaker: Synthesizer,
    recognizer: Recognizer,
    script: str,
    settings: VoiceSettings,
    workdir: Path,
) -> ScriptScore:
    """Render `script` through the app's pipeline and score the whole render."""
    out = workdir / f"{settings.lang}-{script}-{settings.rate}.wav"
    rendered = render_script(library, speaker, script, context_for(script), settings, out)
    reference = words_of(" ".join(rendered.lines))
    heard = recognizer.transcribe(resample(read_pcm(out)))
    return ScriptScore(script, word_error_rate(reference, heard), " ".join(heard))


def score_lines(
    library: ScriptLibrary,
    speaker: Synthesizer,
    recognizer: Recognizer,
    scripts: Sequence[str],
    settings: VoiceSettings,
) -> list[LineScore]:
    """Grammar-decode every line of `scripts`, each against all of them."""
    settings = settings.clamped()
    lines = [
        (name, line) for name in scripts for line in script_lines(library, settings.lang, name)
    ]
    recognizer.use_grammar(line.text for _, line in lines)
    scores: list[LineScore] = []
    for name, line in lines:
        clip = speaker.synthesize(line.text, line.voice, settings.rate, settings.volume).result(
            timeout=30
        )
        assert clip.path is not None, "scoring needs real audio"
        heard = recognizer.pick(resample(read_pcm(clip.path)))
        scores.append(LineScore(name, line.text, heard == words_of(line.text), " ".join(heard)))
    return scores
