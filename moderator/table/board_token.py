"""The phone board's token, kept for the whole series: phones scan once per series.

The board's address holds a random token (the URL's secret). A new token at
every start of the app meant that after a crash and Resume every phone had to
scan the QR code again. The token is kept here, beside the settings, with the
series it belongs to: the board of the same series starts with the same token,
and a new series gets a new one. A file that cannot be read or written costs
only that: the board starts with a new token, as before.
"""

from __future__ import annotations

import base64
import json
import os
import re
from pathlib import Path

from moderator import safe_output
from moderator.safe_input import FileProblem, read_json

KEPT_FILE = "board-token.json"
#: A token as `secrets.token_urlsafe(16)` makes it (22 URL-safe characters).
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{22}")


def new_token() -> str:
    """A random 128-bit token, URL-safe (22 characters), as the board server makes.

    What `secrets.token_urlsafe(16)` returns (the same `os.urandom`, encoded the
    same way), without importing `secrets` (hmac, hashlib) before the first frame.
    """
    return base64.urlsafe_b64encode(os.urandom(16)).rstrip(b"=").decode("ascii")


def token_for_series(folder: Path, series_id: int | None) -> str:
    """The series' board token: the kept one, or a new one kept from now on.

    With no series open (None) the token is new and not kept.
    """
    if series_id is None:
        return new_token()
    path = folder / KEPT_FILE
    kept = _kept(path)
    if kept is not None and kept[0] == series_id:
        return kept[1]
    token = new_token()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        safe_output.write_text(path, json.dumps({"series": series_id, "token": token}) + "\n")
    except (OSError, safe_output.OutputError):
        pass  # the board works; only a restart of the app would change its address
    return token


def _kept(path: Path) -> tuple[int, str] | None:
    """(series id, token) from the file, or None when it is missing or not as written."""
    try:
        data = read_json(path)
    except FileProblem:
        return None
    if not isinstance(data, dict):
        return None
    series, token = data.get("series"), data.get("token")
    if isinstance(series, int) and isinstance(token, str) and TOKEN_SHAPE.fullmatch(token):
        return series, token
    return None
