"""The phone board page's words, in the table's language, from the screen's own catalogues.

The page (`static/board.js`) holds no sentence of its own: it asks the server for
`words/<lang>.json` whenever the snapshot's language changes, and fills the
`{name}` placeholders itself. Each word is an English msgid marked here, so
`make catalogs` extracts it with the screen's and the translators see one list;
many are the very msgids the laptop's screens already show. Plural sentences
are sent once per count the page can meet (the language's own plural rule
picks each), so the page needs no plural rule of its own.
"""

from __future__ import annotations

import gettext

from moderator.domain import rules
from moderator.i18n import N_, SOURCE_LANGUAGE
from moderator.i18n.catalogs import load, translated_languages

__all__ = ["PAGE_WORDS", "page_languages", "page_words"]

#: key -> English msgid (placeholders in braces, filled on the page).
PAGE_WORDS: dict[str, str] = {
    "title": N_("Mind Flayer board"),
    "live": N_("Live"),
    "lost": N_("Connection lost: reconnecting…"),
    "gameOf": N_("Game {game} of {games}"),
    "turn": N_("Turn"),
    "yourTurn": N_("Whose turn"),
    "meetings": N_("Meetings done: {done} of {meetings}"),
    "eyesClosed": N_("Eyes closed!"),
    "knockedOut": N_("knocked out"),
    "sitsOut": N_("sits out"),
    "meeting": N_("Meeting {number}"),
    "sittingOut": N_("Sitting out: {names}"),
    "nobodySitsOut": N_("Nobody sits out by a card."),
    "giver": N_("Gives"),
    "left": N_("Left to"),
    "right": N_("Right to"),
    "overFew": N_("Only 1 or 2 players are still in play: the game ends. Count to 3!"),
    "overThird": N_("The third Meeting is resolved: the game ends. Count to 3!"),
    "results": N_("The table enters who growled…"),
    "saneWin": N_("The sane win"),
    "possessedWin": N_("The possessed win"),
    "seriesWon": N_("Series won by {names}"),
    "player": N_("Player"),
    "game": N_("Game {number}"),
    "total": N_("Total"),
    "bgstats": N_("Open in BG Stats"),
    "vibrateOn": N_("Vibrate at the reveal: on"),
    "vibrateOff": N_("Vibrate at the reveal: off"),
    "waiting": N_("Waiting for the next game…"),
    "announceTurn": N_("Turn {turn}: {name}"),
    "announceMeeting": N_("Meeting {number} starts"),
    "announceEyes": N_("Eyes closed"),
    "announceOver": N_("The game is over"),
    "announceOut": N_("{name} is knocked out"),
    # The remote's buttons (shown only under the remote's own link).
    "remote": N_("Phone remote"),
    "nextTurn": N_("Next turn"),
    "meetingCard": N_("Meeting card"),
    "knockOut": N_("Knock out"),
    "whoKnockedOut": N_("Who is knocked out?"),
    "cancel": N_("Cancel"),
    "resolved": N_("Meeting resolved"),
    "sitOutHint": N_("Tap who sits out this Meeting (tap again: comes back)."),
    "undo": N_("Undo"),
    "laptopOnly": N_("The laptop runs this part of the game: look at the laptop."),
}


def _series_played(words: gettext.NullTranslations, played: int) -> str:
    return words.ngettext(
        "Series: {played} of {games} games played",
        "Series: {played} of {games} games played",
        played,
    )


def page_languages() -> tuple[str, ...]:
    """The languages the page can speak: English and each catalogue's."""
    return tuple(sorted({SOURCE_LANGUAGE, *translated_languages()}))


def page_words(lang: str) -> dict[str, object]:
    """The page's words in `lang` (English for a language without a catalogue).

    `lang` is what the page is shown in (it sets the page's `lang` attribute);
    `words` maps each key to its sentence; `series` lists "Series: … games
    played" for 0 to GAMES_PER_SERIES games, each in the language's plural form.
    """
    catalog = load(lang) if lang in translated_languages() else None
    words: gettext.NullTranslations = catalog if catalog is not None else gettext.NullTranslations()
    shown = lang if catalog is not None else SOURCE_LANGUAGE
    return {
        "lang": shown,
        "words": {key: words.gettext(msgid) for key, msgid in PAGE_WORDS.items()},
        "series": [_series_played(words, n) for n in range(rules.GAMES_PER_SERIES + 1)],
    }
