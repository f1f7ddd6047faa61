"""The app as a player installs it: the wheel, a fresh venv, `mindflayer` run from there.

The wheel is built offline with the build backend of the test tools (hatchling,
`--no-build-isolation`). Installing it into a fresh venv resolves its
dependencies like any user's install does, so that one test needs the package
index (pip has no offline mode: its cache saves the downloads, not the
answers); CI has network. It runs from a folder outside the checkout, so
nothing of the source tree can stand in for what the wheel is missing.
"""

from __future__ import annotations

import email.parser
import importlib.metadata
import math
import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
import wave
import zipfile
from array import array
from pathlib import Path

import pytest

import moderator
from moderator.cli import main

ROOT = Path(__file__).resolve().parent.parent
DISTRIBUTION = "mindflayer-moderator"


def test_version_flag_prints_the_version_the_installed_metadata_has(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert importlib.metadata.version(DISTRIBUTION) == moderator.__version__
    with pytest.raises(SystemExit) as leaving:
        main(["--version"])
    assert leaving.value.code == 0
    assert capsys.readouterr().out == f"mindflayer {moderator.__version__}\n"


def _dry_make(target: str, folder: Path, stamps: tuple[str, ...] = ()) -> list[str]:
    """The pip commands `make -n TARGET` would run, given a venv with these stamps."""
    for name in ("Makefile", "pyproject.toml", "moderator/__init__.py"):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, folder / name)
        os.utime(folder / name, (1_000_000, 1_000_000))
    for stamp in stamps:
        (folder / ".venv" / stamp).parent.mkdir(exist_ok=True)
        (folder / ".venv" / stamp).touch()
        os.utime(folder / ".venv" / stamp, (2_000_000, 2_000_000))  # newer than the sources
    dry = _run("make", "-n", target, cwd=folder).stdout.splitlines()
    return [line.partition(" -m pip install ")[2] for line in dry if " -m pip install " in line]


@pytest.mark.skipif(shutil.which("make") is None, reason="no make (Windows uses pip directly)")
def test_make_play_installs_only_the_app_and_make_test_adds_the_test_tools(
    tmp_path: Path,
) -> None:
    """`make play` used to install the test tools too (a 221 MB venv instead of 68 MB)."""
    fresh = _dry_make("play", tmp_path / "fresh")
    assert fresh == ["--progress-bar on --upgrade pip", "--progress-bar on -e ."]
    after_play = (".created", ".installed-app")
    assert _dry_make("test", tmp_path / "played", after_play) == ["--progress-bar on -e '.[test]'"]
    assert _dry_make("neural", tmp_path / "neural", after_play) == ["--quiet -e '.[neural]'"]
    everything = (*after_play, ".installed", ".installed-neural")
    assert _dry_make("test", tmp_path / "ready", everything) == []
    assert _dry_make("play-neural", tmp_path / "ready", everything) == []


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel of this checkout, as `pip wheel .` builds it, without the network."""
    out = tmp_path_factory.mktemp("wheel")
    _run(
        sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
        "--disable-pip-version-check", "--quiet", "--wheel-dir", str(out), str(ROOT),
        cwd=out,
    )  # fmt: skip
    (built,) = out.glob("mindflayer_moderator-*.whl")
    return built


def test_the_wheel_holds_the_voice_scripts_the_license_and_the_metadata(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = f"mindflayer_moderator-{moderator.__version__}.dist-info"
        metadata = email.parser.Parser().parsestr(archive.read(f"{info}/METADATA").decode())
        entry_points = archive.read(f"{info}/entry_points.txt").decode()
    shipped = {
        "moderator/voice_scripts/" + path.relative_to(ROOT / "voice_scripts").as_posix()
        for path in (ROOT / "voice_scripts").rglob("*")
        if path.is_file()
    }
    assert shipped, "the checkout has voice scripts"
    assert shipped <= names, sorted(shipped - names)
    assert f"{info}/licenses/LICENSE" in names
    assert metadata["Version"] == moderator.__version__
    assert metadata["License-Expression"] == "MIT"
    classifiers = metadata.get_all("Classifier") or []
    for python in ("3.11", "3.12", "3.13"):
        assert f"Programming Language :: Python :: {python}" in classifiers
    assert "mindflayer = moderator.cli:main" in entry_points


def test_the_wheel_holds_each_catalog_compiled_by_the_build(wheel: Path) -> None:
    """The .mo files are built from the .po files (hatch_build.py), never kept in git."""
    import gettext
    import io

    sources = sorted((ROOT / "moderator" / "locale").glob("*/LC_MESSAGES/moderator.po"))
    assert {path.parent.parent.name for path in sources} == {"de", "es", "fr"}
    assert not list((ROOT / "moderator" / "locale").rglob("*.mo")), "no compiled catalog in git"
    with zipfile.ZipFile(wheel) as archive:
        for source in sources:
            inside = source.relative_to(ROOT).with_suffix(".mo").as_posix()
            catalog = gettext.GNUTranslations(io.BytesIO(archive.read(inside)))
            assert catalog.gettext("Close") != "Close", inside


def test_the_sdist_holds_the_license_and_the_scripts_and_no_tool_cache(tmp_path: Path) -> None:
    """import-linter's cache (made by `make lint`) went into the sdist."""
    _run(sys.executable, "-m", "hatchling", "build", "-t", "sdist", "-d", str(tmp_path), cwd=ROOT)
    (sdist,) = tmp_path.glob("mindflayer_moderator-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.partition("/")[2] for name in archive.getnames()}
    assert {"LICENSE", "pyproject.toml", "voice_scripts/en/reveal.toml"} <= names
    caches = (".import_linter_cache", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".venv")
    assert not [name for name in names if name.startswith(caches)]


@pytest.mark.slow
def test_a_fresh_venv_install_prints_its_version_and_renders_the_reveal(
    wheel: Path, tmp_path: Path
) -> None:
    """What `pipx install` / `uv tool install` do: the wheel alone, in its own venv."""
    venv_dir = tmp_path / "venv"
    # Like pipx (a shared pip) and uv (no pip at all), the venv gets no pip of its own:
    # this venv's pip installs into it (`--python`), sparing the ~4 s of CPU that
    # ensurepip spends putting a pip there that nothing else would use.
    _run(sys.executable, "-m", "venv", "--without-pip", str(venv_dir), cwd=tmp_path)
    scripts = venv_dir / ("Scripts" if os.name == "nt" else "bin")
    python = _command("python", scripts)
    _run(
        sys.executable, "-m", "pip", "--python", python, "install",
        "--disable-pip-version-check", "--quiet", str(wheel),
        cwd=tmp_path,
    )  # fmt: skip
    mindflayer = _command("mindflayer", scripts)

    version = _run(mindflayer, "--version", cwd=tmp_path).stdout
    assert version == f"mindflayer {moderator.__version__}\n"
    where = _run(python, "-c", "import moderator; print(moderator.__file__)", cwd=tmp_path).stdout
    assert Path(where.strip()).resolve().is_relative_to(venv_dir.resolve()), where

    # The screen's catalogs come compiled in the wheel: nothing is compiled at first use.
    french = _run(mindflayer, "--lang", "fr", "--help", cwd=tmp_path).stdout
    assert french.startswith("utilisation : mindflayer"), french
    assert not (Path(os.environ["MINDFLAYER_CACHE_DIR"]) / "locale").exists()

    out_wav = tmp_path / "out.wav"
    spoken = _run(
        mindflayer, "narrate", "reveal", "--players", "6", "--wav", str(out_wav), cwd=tmp_path
    ).stdout
    for line in _english_reveal_lines():
        assert line in spoken, spoken
    with wave.open(str(out_wav), "rb") as render:
        assert render.getnchannels() == 1
        assert render.getsampwidth() == 2
        seconds = render.getnframes() / render.getframerate()
        samples = array("h", render.readframes(render.getnframes()))
    pauses = 3 + 5 + 2  # the script's pauses, with the default 5-second window
    assert seconds > pauses, seconds
    assert math.sqrt(sum(s * s for s in samples) / len(samples)) > 100, "speech, not silence"


def _english_reveal_lines() -> list[str]:
    """The lines the shipped English reveal says (read from the checkout's script)."""
    script = tomllib.loads((ROOT / "voice_scripts/en/reveal.toml").read_text(encoding="utf-8"))
    return [step["say"] for step in script["step"] if "say" in step]


def _command(name: str, folder: Path) -> str:
    found = shutil.which(name, path=str(folder))
    assert found, f"{name} is not in {folder}"
    return found


def _run(*command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run outside the checkout and this test venv; fail with what the command said."""
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    done = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    assert done.returncode == 0, f"{command} failed:\n{done.stdout}\n{done.stderr}"
    return done
