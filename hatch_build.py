"""The wheel's build hook: compiles each `moderator/locale/*/LC_MESSAGES/*.po` to its `.mo`.

The compiled catalogs are built, never kept in git. The compiler is the app's own
(standard library only, `moderator/i18n/po.py`, loaded here by path), so the build
needs nothing beyond hatchling, offline too. An editable install (`make play`) gets
no `.mo`: it runs from the source tree, where `moderator.i18n.catalogs` compiles a
`.po` at first use into the cache folder.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _compiler(root: Path) -> Any:
    spec = importlib.util.spec_from_file_location("_catalog_po", root / "moderator/i18n/po.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


class CatalogsHook(BuildHookInterface):  # type: ignore[type-arg]
    """Adds the compiled catalogs to the wheel."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Compile every catalog into a temporary folder and include the results."""
        if self.target_name != "wheel" or version == "editable":
            return
        root = Path(self.root)
        po = _compiler(root)
        self._folder = Path(tempfile.mkdtemp(prefix="mindflayer-catalogs-"))
        for source in sorted((root / "moderator" / "locale").glob("*/LC_MESSAGES/*.po")):
            inside = source.relative_to(root).with_suffix(".mo")
            compiled = self._folder / inside
            compiled.parent.mkdir(parents=True, exist_ok=True)
            compiled.write_bytes(po.compile_po(source))
            build_data["force_include"][str(compiled)] = inside.as_posix()

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the temporary folder."""
        folder = getattr(self, "_folder", None)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
