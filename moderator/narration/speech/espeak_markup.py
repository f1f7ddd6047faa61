"""How espeak-ng is told to say the words that decide who acts, so a listener hears them.

Why: measured with an open-vocabulary listener (Whisper base, `make bench`),
espeak-ng's own reading of the role words is the one part of the narration a
table does not hear: English "Possessed" (espeak /p@z'Est/, its first vowel
swallowed) comes back as "the next" or "penest", German "Besessene" as
"Bessischen", Spanish "poseídos" as "poseímos". Each language's role words get
a spelling in espeak's phonemes, a short pause before them and, where it
measured better, a slower rate (the figures are in `ROLE_WORDS`' comments and
bench/bench_listener.py).

The caption keeps the written word: only the engine's input changes. The
input is SSML, so everything else in the line (a player's name above all) is
escaped and can never be read as markup: `<`, `>` and `&` as entities, and
`[[`, which espeak would read as phonemes, split apart. A line without a role
word is sent as plain text, exactly as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from xml.sax.saxutils import escape


@dataclass(frozen=True)
class SayAs:
    """How one word is said: espeak phonemes, a pause before it, its rate."""

    #: espeak's phoneme spelling (Kirshenbaum-like, as `espeak-ng -x` prints).
    phonemes: str
    #: Milliseconds of silence before the word (0: none).
    pause_ms: int = 0
    #: The word's rate in percent of the line's (100: unchanged).
    rate_percent: int = 100


#: Per language (the espeak voice's language: "en-us" -> "en"), the role words in
#: lower case as written in the shipped scripts, and how espeak says them.
ROLE_WORDS: dict[str, dict[str, SayAs]] = {
    # espeak reads /p@z'Est/: its weak voiced z is heard as n ("the next", "penest",
    # reveal 0/2). A plain s, and 120 ms before the word (finale: "the past" without
    # it), is heard as "Possessed" (reveal 2/2, bed on). "Sane" is heard as "Same"
    # whatever its phonemes ("s'eI:n", "s'eInd", a pause: 0/3 each, Whisper's prior
    # for "same players"): the scripts say "who is Sane" instead (heard 2/2).
    "en": {"possessed": SayAs("p@s'Est", pause_ms=120)},
}

#: What a phoneme spelling may hold: nothing that could end the block or start an element.
_PHONEMES = re.compile(r"[A-Za-z0-9@'\",:;.!?%*=^_|~\-#/() ]+")


def language_of(voice: str) -> str:
    """The language an espeak voice speaks ("en-us" -> "en", "es-419" -> "es")."""
    return voice.split("-", 1)[0].split("+", 1)[0].casefold()


def _say(word: str, how: SayAs) -> str:
    """The SSML for one role word (the phonemes were checked when the table was made)."""
    spoken = f"[[{how.phonemes}]]"
    if how.rate_percent != 100:
        spoken = f'<prosody rate="{how.rate_percent}%">{spoken}</prosody>'
    if how.pause_ms > 0:
        spoken = f'<break time="{how.pause_ms}ms"/>{spoken}'
    return spoken


def _literal(text: str) -> str:
    """Plain text made inert inside SSML with phoneme input: no element, entity or [[."""
    return escape(text).replace("[[", "[ [")


def marked_up(
    text: str, voice: str, table: dict[str, dict[str, SayAs]] | None = None
) -> str | None:
    """The SSML espeak should read for `text`, or None when the line has no role word.

    Raises:
        ValueError: an entry's phonemes hold characters that could end the
            phoneme block (a shipped-table mistake, caught by the tests).
    """
    words = (ROLE_WORDS if table is None else table).get(language_of(voice), {})
    if not words:
        return None
    for how in words.values():
        if not _PHONEMES.fullmatch(how.phonemes) or "]]" in how.phonemes:
            raise ValueError(f"bad espeak phonemes {how.phonemes!r}")
    pattern = re.compile(
        r"(?<!\w)("
        + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
        + r")(?!\w)",
        re.IGNORECASE,
    )
    pieces: list[str] = []
    last = 0
    for match in pattern.finditer(text):
        pieces.append(_literal(text[last : match.start()]))
        pieces.append(_say(match.group(0), words[match.group(0).casefold()]))
        last = match.end()
    if not pieces:
        return None
    pieces.append(_literal(text[last:]))
    return "<speak>" + "".join(pieces) + "</speak>"
