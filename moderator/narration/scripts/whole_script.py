"""Checks of a voice script as a whole, once every step of it is valid on its own.

A file can be right line by line and still wrong as a script: a bed stopped before
it starts, a reveal whose Possessed never get their eyes-open window (no
`pause = "{seconds}"`: a 0 s window) or get two, or sixty pauses of sixty seconds
that keep the table's eyes closed for an hour. Each is refused at load, with its
line, like a typo, so the shipped script is used instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from moderator.i18n import _
from moderator.narration.scripts.steps import Ambience, Pause, Problem, Step
from moderator.narration.settings import MAX_PAUSE_SECONDS, MAX_REVEAL_SECONDS, MIN_REVEAL_SECONDS

#: The fixed pauses of one script add up to at most this (the shipped ones: 5 s or less).
MAX_FIXED_PAUSES_SECONDS = MAX_PAUSE_SECONDS


def check_whole(steps: Sequence[Step], window: str | None, path: Path) -> list[Problem]:
    """Every problem of `steps` taken together (none when the script is sound).

    Args:
        steps: the script's valid steps, in order.
        window: the placeholder of the eyes-open window the script must hold
            exactly once (`seconds` for the reveal), or None.
        path: the file, for the messages.
    """
    problems = _ambience_order(steps, path)
    if window is not None:
        problems += _one_window(steps, window, path)
    problems += _fixed_pauses(steps, path)
    return problems


def _ambience_order(steps: Sequence[Step], path: Path) -> list[Problem]:
    """A bed starts before it stops, and is not started twice (unconditional steps)."""
    problems: list[Problem] = []
    playing = False
    for step in steps:
        if not isinstance(step, Ambience) or step.when is not None:
            continue
        if step.start and playing:
            problems.append(
                Problem(path, step.line, _('ambience = "start" while it already plays'))
            )
        elif not step.start and not playing:
            problems.append(Problem(path, step.line, _('ambience = "stop" before any "start"')))
        playing = step.start
    return problems


def _one_window(steps: Sequence[Step], window: str, path: Path) -> list[Problem]:
    """Exactly one `pause = "{window}"`, run every time (no `when`)."""
    pause = f'pause = "{{{window}}}"'
    found = [step for step in steps if isinstance(step, Pause) and step.placeholder == window]
    if not found:
        return [
            Problem(
                path,
                1,
                _(
                    "no eyes-open window: add one step {pause} (the reveal time of the "
                    "settings, {least:g} to {most:g} seconds)"
                ).format(pause=pause, least=MIN_REVEAL_SECONDS, most=MAX_REVEAL_SECONDS),
            )
        ]
    problems = [
        Problem(
            path,
            step.line,
            _("a second eyes-open window ({pause}): the script needs one").format(pause=pause),
        )
        for step in found[1:]
    ]
    problems += [
        Problem(
            path,
            step.line,
            _("the eyes-open window ({pause}) cannot depend on a when").format(pause=pause),
        )
        for step in found
        if step.when is not None
    ]
    return problems


def _fixed_pauses(steps: Sequence[Step], path: Path) -> list[Problem]:
    """The fixed pauses (`pause = 3`) add up to at most `MAX_FIXED_PAUSES_SECONDS`."""
    total = 0.0
    for step in steps:
        if isinstance(step, Pause) and step.seconds is not None:
            total += step.seconds
            if total > MAX_FIXED_PAUSES_SECONDS:
                return [
                    Problem(
                        path,
                        step.line,
                        _(
                            "the pauses add up to more than {most:g} seconds here; a "
                            "script's fixed pauses may add up to at most that"
                        ).format(most=MAX_FIXED_PAUSES_SECONDS),
                    )
                ]
    return []
