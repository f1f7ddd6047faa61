"""The board's one error type, apart from the server so catching it loads no aiohttp."""

from __future__ import annotations


class BoardError(Exception):
    """The board could not start; `str(error)` is a sentence for the table."""
