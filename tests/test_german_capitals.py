"""German sentences start with a capital letter (issue 34, item 4).

Read from the German catalogue: a translation of an English message that starts
with a capital starts with one too, and a translation that is a sentence (it
ends in ".", "!" or "?") starts with a capital, a number, a quote or a
placeholder, whatever the English does ("no key is called …" follows a colon in
English; German writes a whole sentence after a colon with a capital). The few
English messages that start with a proper noun and are set inside another
sentence are listed, with where they go; a message that starts with the command's
name (`mindflayer: …`) starts as the command is typed.
"""

from __future__ import annotations

from moderator.i18n.catalogs import catalog_path
from moderator.i18n.po import read_po

#: English messages whose capital is a proper noun's, set mid-sentence in German.
INSIDE_A_SENTENCE = {
    # `{voice}` of "Speech is off: {voice} cannot be reached (…)": "die Windows-Sprachausgabe".
    "Windows speech (SAPI5)",
}


def lowercase_starts() -> list[tuple[str, str]]:
    """(msgid, msgstr) of each German translation that should start with a capital and does not."""
    found = []
    for entry in read_po(catalog_path("de")):
        if not entry.msgid or entry.msgid in INSIDE_A_SENTENCE:
            continue
        for text in entry.msgstr.values():
            if text.startswith("mindflayer"):
                continue  # the command's name, as it is typed, before the sentence
            first = text[:1]
            sentence = text.rstrip().endswith((".", "!", "?"))
            if first.islower() and (entry.msgid[:1].isupper() or sentence):
                found.append((entry.msgid, text))
    return found


def test_german_sentences_start_with_a_capital() -> None:
    assert not lowercase_starts()
