"""Stand-ins for the operating-system layers under pyttsx3's sapi5 and nsss drivers.

A test describes a pretend machine (`sapi.World` or `cocoa.World`), writes it
with `save_world`, and points the synthesis child at `standin_worker.py`
through `worker_command`; the child installs the stand-in and then runs the
app's real synthesis child (`synth_worker.main`) over pyttsx3's real driver.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

from standins import cocoa, sapi

#: The environment variable that names the world file for the child.
WORLD_ENV = "MINDFLAYER_STANDIN_WORLD"
WORKER = Path(__file__).resolve().parent.parent / "standin_worker.py"


def save_world(world: sapi.World | cocoa.World, path: Path) -> Path:
    """Write `world` as JSON for a child process."""
    kind = "sapi" if isinstance(world, sapi.World) else "cocoa"
    data = dataclasses.asdict(world)
    data.pop("spoken")
    path.write_text(json.dumps({"kind": kind, "world": data}), encoding="utf-8")
    return path


def install_world(path: Path) -> sapi.World | cocoa.World | None:
    """Read a world file and install its stand-in modules (kind "none": install nothing)."""
    saved = json.loads(path.read_text(encoding="utf-8"))
    if saved["kind"] == "none":
        return None
    data = saved["world"]
    if saved["kind"] == "sapi":
        voices = [sapi.VoiceSpec(**voice) for voice in data.pop("voices")]
        world: sapi.World | cocoa.World = sapi.World(voices, **data)
        sapi.install(world)  # type: ignore[arg-type]
    else:
        voices_ = [cocoa.VoiceSpec(**voice) for voice in data.pop("voices")]
        world = cocoa.World(voices_, **data)
        cocoa.install(world)  # type: ignore[arg-type]
    return world


def worker_command() -> list[str]:
    """The synthesis child over a stand-in layer (the world comes from WORLD_ENV)."""
    return [sys.executable, str(WORKER)]
