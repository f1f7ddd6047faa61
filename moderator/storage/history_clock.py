"""A history row's times as the report and the exports show them, cut from the text.

A row's times are UTC texts as `time_to_text` writes them (checked by the
query: `history_rows._TIMES_UTC`). The UTC form is cut from the text
(`utc_clock`); the local form is `clock_text(moment, None)`'s text. A long
history shows tens of thousands of times, and working each one out through a
datetime and `time.localtime` was a tenth of the report: `LocalClocks` works
out each UTC hour once, and where the local offset is whole hours for the
whole of that hour (no change of offset in it: most zones, most hours) a
time's minutes and seconds are the UTC text's. Any other hour (a half-hour
zone, a daylight-saving change) is worked out time by time.
"""

from __future__ import annotations

from datetime import datetime
from time import localtime

#: The seconds in an hour: a whole-hour offset, and the hour's last second.
_HOUR = 3600


def utc_clock(text: str) -> str:
    """``YYYY-MM-DD HH:MM:SS`` of a row's time: `clock_text`'s, cut, not parsed."""
    return f"{text[:10]} {text[11:19]}"


def local_clock(text: str, seconds: bool = True) -> str:
    """``YYYY-MM-DD HH:MM[:SS]`` in local time of a row's UTC text.

    `clock_text(moment, None)`'s text: the fields of `time.localtime`, which is how
    `astimezone(None)` finds the local offset, without a zone object.
    """
    moment = localtime(datetime.fromisoformat(text).timestamp())
    if seconds:
        return "%04d-%02d-%02d %02d:%02d:%02d" % moment[:6]  # noqa: UP031  # the fastest form
    return "%04d-%02d-%02d %02d:%02d" % moment[:5]  # noqa: UP031


class LocalClocks(dict[str, str]):
    """A row's UTC text -> `local_clock` of it; each text and each UTC hour worked out once."""

    def __init__(self, seconds: bool = True) -> None:
        super().__init__()
        self._seconds = seconds
        self._end = 19 if seconds else 16  # the UTC text's minutes (and seconds) end here
        #: ``YYYY-MM-DDTHH`` (UTC) -> its local ``YYYY-MM-DD HH``; None: time by time.
        self._hours: dict[str, str | None] = {}

    def __missing__(self, text: str) -> str:
        hour = text[:13]
        if hour in self._hours:
            prefix = self._hours[hour]
        else:
            prefix = self._hours[hour] = _local_hour(hour)
        if prefix is None:
            found = self[text] = local_clock(text, self._seconds)
        else:
            found = self[text] = prefix + text[13 : self._end]
        return found


def _local_hour(hour: str) -> str | None:
    """The local ``YYYY-MM-DD HH`` of every moment of a UTC hour, if one offset of whole
    hours holds from its first second to its last; None otherwise."""
    start = int(datetime.fromisoformat(f"{hour}:00:00+00:00").timestamp())
    first, last = localtime(start), localtime(start + _HOUR - 1)
    if first.tm_gmtoff != last.tm_gmtoff or first.tm_gmtoff % _HOUR:
        return None
    return "%04d-%02d-%02d %02d" % first[:4]  # noqa: UP031
