"""A dict that makes each missing value once: what a long report writes again and again.

A history of many evenings repeats a few names, points and dates thousands of
times; quoting, formatting or translating each of them once per report (not
once per cell) is what keeps the export and `mindflayer history` fast
(`make bench`). One helper for all of them, so each use names only what it makes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(dict[K, V]):
    """`memo[key]` is `make(key)`, made the first time it is asked for and kept."""

    def __init__(self, make: Callable[[K], V]) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, key: K) -> V:
        value = self[key] = self._make(key)
        return value
