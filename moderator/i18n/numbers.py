"""Numbers and dates written as the screen's language writes them.

Python's `locale` module would need the system to have each locale installed
(and changes the whole process); the four languages' conventions are small
enough to keep here, from CLDR: the digit-group separator, and whether a
four-digit number is grouped at all (Spanish writes 5001 but 10.000), and the
decimal mark (English 0.5, the others 0,5).
"""

from __future__ import annotations

from datetime import datetime

from moderator import i18n

#: Language -> (group separator, fewest digits before grouping starts).
GROUPING: dict[str, tuple[str, int]] = {
    "en": (",", 4),
    "fr": ("\u202f", 4),  # a narrow no-break space, as CLDR has it
    "de": (".", 4),
    "es": (".", 5),
}

#: Language -> decimal mark (CLDR); a language not listed writes English's.
DECIMAL_MARK: dict[str, str] = {"en": ".", "fr": ",", "de": ",", "es": ","}


def number(value: int) -> str:
    """A whole number with the screen's language's digit groups ("5,001", "5 001", "5.001")."""
    separator, fewest = GROUPING.get(i18n.active_language(), GROUPING["en"])
    digits = str(abs(value))
    if len(digits) >= fewest:
        groups: list[str] = []
        while digits:
            groups.insert(0, digits[-3:])
            digits = digits[:-3]
        digits = separator.join(groups)
    return ("-" if value < 0 else "") + digits


def decimal(value: float, places: int = 1) -> str:
    """`value` to `places` decimals with the screen's language's decimal mark ("0.5", "0,5")."""
    mark = DECIMAL_MARK.get(i18n.active_language(), ".")
    return f"{value:.{places}f}".replace(".", mark)


def date_and_time(moment: datetime) -> str:
    """A date and time the way the screen's language writes it (always 16 characters)."""
    return moment.strftime(i18n.pgettext("date and time", "%Y-%m-%d %H:%M"))
