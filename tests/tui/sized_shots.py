"""One app run for a scenario's snapshots at every size: reach the screen once, resize, shoot.

A snapshot test used to start a fresh app per size and drive the whole
scenario again (a three-game series typed key by key, twice), which was most
of the snapshot files' time. `SizedShots` runs the scenario once at the first
size, shoots the screen as `snap_compare` does, then resizes the terminal
and shoots again at each other size. The first size is the largest: the
series screen's table, grown from 80 to 120 columns after it was drawn, kept
its rows' background 80 columns wide, unlike a fresh app at 120x40.
Each size keeps its own test and its own SVG (the names do not change); the
first of a scenario's tests to run takes all the shots and the others compare
the one for their size. The tests of one scenario share an `xdist_group`, so
they run on the worker that took them.

A shot after a resize is what a table sees when it resizes its terminal; the
SVGs a fresh app drew at that size are the ones it is compared against, so a
screen that lays itself out differently after a resize fails here.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Hashable, Mapping, Sequence
from pathlib import Path

import pytest
from no_message_left import settled
from pytest_textual_snapshot import PseudoApp, PseudoConsole, SVGImageExtension, node_to_report_path
from rich.console import Console
from syrupy import SnapshotAssertion
from textual.pilot import Pilot

from tests.tui.app_driver import Scenario, narration_over, still_cursor, tracked_app

Size = tuple[int, int]


async def _shoot(pilot: Pilot[None]) -> str:
    """The screen as `snap_compare` (Textual's `take_svg_screenshot`) exports it."""
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    return pilot.app.export_screenshot(title=pilot.app.title, simplify=True)


async def _still(pilot: Pilot[None]) -> None:
    """As `app_driver.snapshot`: no toast, no blinking cursor, the app's queues empty."""
    pilot.app.clear_notifications()
    still_cursor(pilot)
    await settled(pilot)


def shots(
    folders: Mapping[str, Path], scenario: Scenario, sizes: Sequence[Size]
) -> dict[Size, str]:
    """Run `scenario` once on a fresh app at `sizes[0]`; the screen's SVG at every size."""
    app, narrator = tracked_app(folders)
    taken: dict[Size, str] = {}

    async def auto_pilot(pilot: Pilot[None]) -> None:
        await scenario(pilot, narrator)
        await narration_over(pilot, narrator)
        await _still(pilot)
        for index, (width, height) in enumerate(sizes):
            if index:
                await pilot.resize_terminal(width, height)
                await narration_over(pilot, narrator)
                await _still(pilot)
            taken[(width, height)] = await _shoot(pilot)
        pilot.app.exit()

    app.run(headless=True, auto_pilot=auto_pilot, size=sizes[0])
    assert set(taken) == set(sizes), f"the app ended before every shot: {sorted(taken)}"
    return taken


class SizedShots:
    """The shots of each scenario, taken once per worker (see the module's docstring)."""

    def __init__(self, sizes: Sequence[Size]) -> None:
        self.sizes = tuple(sizes)
        self._taken: dict[Hashable, dict[Size, str]] = {}

    def of(self, key: Hashable, take: Callable[[], dict[Size, str]]) -> dict[Size, str]:
        """The shots of scenario `key`, taken by `take()` the first time they are asked for."""
        if key not in self._taken:
            self._taken[key] = take()
        return self._taken[key]


def matches(snapshot: SnapshotAssertion, request: pytest.FixtureRequest, svg: str) -> bool:
    """Compare `svg` with this test's SVG as `snap_compare` does (and `--snapshot-update`
    rewrites it); a mismatch goes to the plugin's HTML report like one of its own."""
    svg_snapshot = snapshot.use_extension(SVGImageExtension)
    result = bool(svg_snapshot == svg)
    index = (
        svg_snapshot._custom_index
        and svg_snapshot._execution_name_index.get(svg_snapshot._custom_index)
    ) or svg_snapshot.num_executions - 1
    ran = svg_snapshot.executions.get(index)
    exists = bool(ran is not None and ran.final_data is not None)
    console = Console(legacy_windows=False, force_terminal=True)
    node = request.node
    full_path, line_number, name = node.reportinfo()
    data = (
        result,
        str(svg_snapshot),
        svg,
        PseudoApp(PseudoConsole(console.legacy_windows, console.size)),
        full_path,
        line_number,
        name,
        node.function.__doc__ or "",
        "",
        exists,
    )
    node_to_report_path(node).write_bytes(pickle.dumps(data))
    return result
