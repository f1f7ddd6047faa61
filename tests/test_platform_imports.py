"""Every module of the app imports as it would on Windows and on macOS.

A fresh interpreter first imports every `moderator` module normally (so the
third-party packages are loaded as on this machine), forgets the app's
modules, then pretends to be the other platform: `sys.platform` is set, the
names that platform lacks are removed (Windows: `os.killpg`, `os.setsid`,
`os.pread`, `signal.SIGKILL`, the `fcntl`/`termios`/`pwd`/`grp`/`resource`
modules; macOS: Linux's `os.sched_getaffinity`, `os.pidfd_open`...), and the
Windows-only stdlib modules the app's Windows branches import (`msvcrt`,
`winsound`) are present as empty stand-ins. Then every app module is imported
again: a platform branch that touches a missing name at import fails here.
What a function calls later is not covered (that is for the platform's CI).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

PROBE = textwrap.dedent(
    """
    import importlib, os, pkgutil, signal, sys, types
    import moderator

    def every_module():
        names = ["moderator"]
        for info in pkgutil.walk_packages(moderator.__path__, "moderator."):
            names.append(info.name)
        return names

    names = every_module()
    for name in names:
        importlib.import_module(name)
    for name in [n for n in sys.modules if n == "moderator" or n.startswith("moderator.")]:
        del sys.modules[name]

    target = sys.argv[1]
    missing = {
        "win32": (
            [(os, n) for n in ("killpg", "setsid", "getpgid", "pread", "pwrite", "fork",
                               "getuid", "sched_getaffinity", "pidfd_open")]
            + [(signal, n) for n in ("SIGKILL", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGCHLD")]
        ),
        "darwin": [(os, n) for n in ("sched_getaffinity", "pidfd_open", "memfd_create")],
    }[target]
    for owner, name in missing:
        if hasattr(owner, name):
            delattr(owner, name)
    if target == "win32":
        for name in ("fcntl", "termios", "pwd", "grp", "resource"):
            sys.modules[name] = None  # `import fcntl` raises ImportError, as on Windows
        for name in ("msvcrt", "winsound"):
            sys.modules.setdefault(name, types.ModuleType(name))
    sys.platform = target

    failed = []
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as error:
            failed.append(f"{name}: {type(error).__name__}: {error}")
    print("\\n".join(failed) or f"imported {len(names)} modules")
    sys.exit(1 if failed else 0)
    """
)


@pytest.mark.slow  # a fresh interpreter imports every module: seconds each
@pytest.mark.parametrize("platform", ["win32", "darwin"])
def test_every_module_imports_on_the_other_platforms(platform: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, platform], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("imported "), result.stdout
