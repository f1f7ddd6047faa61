"""Finds a language's compiled catalog, compiling its `.po` on first use if needed.

A wheel holds each `.mo` beside its `.po` (the build compiles them:
`hatch_build.py`). A source checkout (`make play`, an editable install) has only
the `.po` files: hatchling's editable wheel points into the source tree, so a
build hook has nothing to write into there without leaving build output in the
checkout. There the `.po` is compiled at first use into the cache folder, named
after its content's hash: an edited catalog is compiled again at the next start,
and a start with an unchanged one only reads the cached file. A cache that cannot
be written costs only the compile (the catalog is then compiled in memory).
"""

from __future__ import annotations

import contextlib
import gettext
import io
from pathlib import Path

from moderator import paths, safe_output

DOMAIN = "moderator"
#: The compiler's version (`moderator.i18n.po`), part of a cached `.mo` file's name: a
#: changed compiler never reads what an earlier one wrote. Raise it when po.py changes.
COMPILER_VERSION = 1
#: moderator/locale/<lang>/LC_MESSAGES/moderator.po
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def catalog_path(code: str, suffix: str = ".po") -> Path:
    """Where a language's catalog is (`.po`, or `.mo` in a wheel)."""
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


def translated_languages() -> tuple[str, ...]:
    """The languages with a screen translation (a catalog), sorted."""
    if not LOCALE_DIR.is_dir():
        return ()
    return tuple(
        sorted(
            folder.name
            for folder in LOCALE_DIR.iterdir()
            if catalog_path(folder.name).is_file() or catalog_path(folder.name, ".mo").is_file()
        )
    )


def load(code: str, cache: Path | None = None) -> gettext.GNUTranslations | None:
    """The compiled catalog of `code`, or None (no catalog, or one that cannot be read).

    Args:
        code: a language with a catalog.
        cache: the folder compiled catalogs are kept in (default: the app's cache folder).
    """
    compiled = catalog_path(code, ".mo")
    source = catalog_path(code)
    try:
        if compiled.is_file():
            data = compiled.read_bytes()
        elif source.is_file():
            data = _compiled_in_cache(source, cache or paths.cache_dir())
        else:
            return None
        return gettext.GNUTranslations(io.BytesIO(data))
    except (OSError, ValueError):  # ValueError: a bad .mo, or the .po's CatalogError
        return None


def _compiled_in_cache(source: Path, cache: Path) -> bytes:
    """The `.po` compiled, read from the cache if this very text was compiled before."""
    # Imported only here: a start in English, or from a wheel, pays for neither.
    import hashlib

    from moderator.i18n.po import compile_po

    text = source.read_bytes()
    digest = hashlib.sha256(text).hexdigest()[:16]
    kept = cache / "locale" / f"{source.parent.parent.name}-{digest}-v{COMPILER_VERSION}.mo"
    try:
        return kept.read_bytes()
    except OSError:
        pass
    data = compile_po(source)
    # A cache that cannot be written costs only this: compiled again next time.
    with contextlib.suppress(OSError, safe_output.OutputError):
        kept.parent.mkdir(parents=True, exist_ok=True)
        safe_output.write_bytes(kept, data)
    return data
