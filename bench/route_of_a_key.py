"""The route of one knock-out through the project's files, counted by a profiler.

Why: issue 32 asked how many files a knock-out crosses from its key to the
database and the spoken cue, before and after the app shell was reshaped. This
seats five players on the real app (headless, voice off, a small time scale),
then records every call into a file of `moderator/` on every thread
(`sys.setprofile`, `threading.setprofile`) from "k" (the seat question) and "3"
(the answer) until the tile shows the knock-out and the cue has played. It
prints the distinct files, those of the TUI, and the route from the key to the
journal's write (consecutive calls in one file folded; the key bar's drawing,
i18n and the domain left out).

Run: `.venv/bin/python bench/route_of_a_key.py [checkout]` (default: this one;
a checkout of an older commit counts that commit's route).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import threading
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent.parent).resolve()
sys.path.insert(0, str(ROOT))

FIVE = ["Ann", "Bob", "Cy", "Dee", "Eve"]
#: Left out of the route: drawing the footer, translations, the rules.
NOT_ROUTE = ("moderator/tui/widgets/key_bar", "moderator/i18n", "moderator/domain")


async def main() -> None:
    from textual.widgets import Input, OptionList

    from moderator.narration import VoiceSettings, make_narrator
    from moderator.tui.run import make_app
    from moderator.tui.screens.table import TableScreen

    base = Path(tempfile.mkdtemp(prefix="route-"))
    dirs = {name: base / name for name in ("data", "config", "cache")}
    for folder in dirs.values():
        folder.mkdir()
    narrator = make_narrator(VoiceSettings(enabled=False), None, dirs["cache"], time_scale=0.01)
    app = make_app(dirs["data"], dirs["config"], dirs["cache"], None, narrator=narrator)
    order: list[str] = []
    package = str(ROOT / "moderator")

    def note(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code.co_filename.startswith(package):
            name = frame.f_code.co_filename[len(str(ROOT)) + 1 :]
            if not order or order[-1] != name:
                order.append(name)

    async with app.run_test(size=(100, 32)) as pilot:
        app.simulate_key("n")
        await pilot.pause()
        field = app.screen.query_one("#setup-name", Input)
        for name in FIVE:
            field.focus()
            field.value = name
            app.simulate_key("enter")
            await pilot.pause()
        app.screen.query_one("#setup-roster", OptionList).focus()
        app.simulate_key("ctrl+s")
        await pilot.pause()
        app.simulate_key("t")
        await pilot.pause(0.5)
        assert isinstance(app.screen, TableScreen), app.screen
        threading.setprofile(note)
        sys.setprofile(note)
        app.simulate_key("k")
        await pilot.pause()
        app.simulate_key("3")
        for _ in range(200):
            await pilot.pause(0.01)
            if 2 in app.controller.state.knocked_out and not app.screen.asking:
                break
        await pilot.pause(0.5)  # the cue played (time-scaled) on the narration thread
        sys.setprofile(None)
        threading.setprofile(None)
    files = list(dict.fromkeys(order))
    tui = [name for name in files if name.startswith("moderator/tui/")]
    print(f"files crossed, key to the settled tile and the cue: {len(files)} (TUI: {len(tui)})")
    journal = "moderator/storage/journal.py"
    upto = order.index(journal) + 1 if journal in order else len(order)
    route = [name for name in order[:upto] if not name.startswith(NOT_ROUTE)]
    route = [name for i, name in enumerate(route) if i == 0 or route[i - 1] != name]
    print(f"key to the database: {len(set(route))} files")
    print(" -> ".join(name.removeprefix("moderator/") for name in route))


asyncio.run(main())
