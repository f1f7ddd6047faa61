"""What the speech benches and the narration tests both ask of the narration.

Why here: a bench runs on its own (`make bench`), so it may not import the
tests; the tests import these from the bench's folder instead, one home each.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import Future

from moderator.narration.narrator import Narrator
from moderator.narration.speech.platforms import LIBRARY_NAMES, engine_setup


def library_present(names: Sequence[str] = LIBRARY_NAMES) -> bool:
    """Whether espeak-ng can be loaded: the system's library, or the espeakng-loader one."""
    return engine_setup(library_names=names).fault is None


class PreparedFutures:
    """The real narrator, keeping the future of each preparation the app asks for."""

    def __init__(self, real: Narrator) -> None:
        self.real = real
        self.futures: list[Future[bool]] = []

    def prepare(self, script: str, context: Mapping[str, object]) -> Future[bool]:
        future = self.real.prepare(script, context)
        self.futures.append(future)
        return future

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)
