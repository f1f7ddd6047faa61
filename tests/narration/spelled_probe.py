"""Which characters espeak-ng spells as a code point ("letter 1EA3"), measured.

Run `python -m tests.narration.spelled_probe` to print the ranges that
`moderator/narration/scripts/spelled_letters.py` ships (about two minutes on two
cores): every letter, combining mark, digit and symbol of the probed blocks is said
inside a word by each shipped voice, and a character is listed when any voice
spells it by its number. The test `test_spoken_names_real_espeak.py` uses the same
probe on the derived spoken forms.
"""

from __future__ import annotations

import subprocess
import sys
import unicodedata
from collections.abc import Iterable, Sequence

from moderator.narration.scripts.spelled_letters import PROBED_BLOCKS

#: The shipped languages' espeak-ng voices (voice_scripts/*/language.toml).
SHIPPED_VOICES = ("en-us", "de", "fr", "es")
#: What each voice says before the digits of a code point (its word for "letter",
#: "symbol"), as espeak-ng -x prints it: the sign that it spelled a number.
CODE_POINT_WORD = {
    "en-us": "l,Et#3_|",
    "de": "b'u:xStA:b@_|",
    "fr": "l'Etr_|",
    "es": "s'imbolo_|",
}
_BATCH = 400


def phonemes(voice: str, texts: Sequence[str]) -> list[str]:
    """espeak-ng's phonemes (`-q -x`) of each text, one clause per line."""
    result: list[str] = []
    for start in range(0, len(texts), _BATCH):
        batch = texts[start : start + _BATCH]
        body = "".join(f"{' '.join(text.split())}.\n" for text in batch)
        done = subprocess.run(
            ["espeak-ng", "-q", "-x", "-v", voice],
            input=body.encode("utf-8"),
            capture_output=True,
            check=True,
            timeout=300,
        )
        lines = done.stdout.decode("utf-8").split("\n")
        if len(lines) < len(batch):
            raise RuntimeError(f"espeak-ng gave {len(lines)} lines for {len(batch)} texts")
        result.extend(lines[: len(batch)])
    return result


def spelled(voice: str, texts: Sequence[str]) -> list[str]:
    """The texts `voice` says with a code point spelled out in them."""
    word = CODE_POINT_WORD[voice]
    return [text for text, said in zip(texts, phonemes(voice, texts), strict=True) if word in said]


def probed_characters() -> list[str]:
    """Letters, marks, digits and symbols of the probed blocks."""
    return [
        chr(code)
        for low, high in PROBED_BLOCKS
        for code in range(low, high)
        if unicodedata.category(chr(code))[0] in "LMNS"
    ]


def as_ranges(codes: Iterable[int]) -> list[tuple[int, int]]:
    """Sorted code points as inclusive (first, last) runs."""
    runs: list[tuple[int, int]] = []
    for code in sorted(set(codes)):
        if runs and runs[-1][1] == code - 1:
            runs[-1] = (runs[-1][0], code)
        else:
            runs.append((code, code))
    return runs


def main() -> None:
    """Print the union, over the shipped voices, as the data module's ranges."""
    chars = probed_characters()
    words = [f"ka{ch}ta" for ch in chars]
    found: set[int] = set()
    for voice in SHIPPED_VOICES:
        hits = set(spelled(voice, words))
        found |= {ord(ch) for ch, word in zip(chars, words, strict=True) if word in hits}
        print(f"{voice}: {len(hits)}", file=sys.stderr)
    for first, last in as_ranges(found):
        print(f"    (0x{first:04X}, 0x{last:04X}),")


if __name__ == "__main__":
    main()
