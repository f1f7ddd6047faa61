"""`mindflayer narrate`: player counts the rulebook has, and warm renders start no engine."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import moderator
from moderator.cli import main
from moderator.domain.errors import IllegalAction
from moderator.domain.rules import setup_for
from moderator.narration.speech import pyttsx3_synth

PACKAGE_ROOT = Path(moderator.__file__).resolve().parent.parent


def _domain_sentence(players: int) -> str:
    with pytest.raises(IllegalAction) as refused:
        setup_for(players)
    return str(refused.value)


@pytest.mark.parametrize("players", [0, 3, 11, 99, -2])
@pytest.mark.parametrize("script", ["setup", "reveal", "finale"])
def test_narrate_refuses_player_counts_outside_the_rulebook(
    players: int, script: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["narrate", script, "--players", str(players), "--wav", str(tmp_path / "o.wav")])
    out, err = capsys.readouterr()
    assert code == 2
    assert err.strip() == _domain_sentence(players)
    assert out == ""
    assert not (tmp_path / "o.wav").exists()


@pytest.mark.parametrize("players", [4, 5])
def test_narrate_says_the_reveal_is_for_six_or_more(
    players: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["narrate", "reveal", "--players", str(players)]) == 2
    err = capsys.readouterr().err
    assert "only for 6 or more players" in err
    assert f"with {players} there is none" in err


@pytest.mark.speech
def test_a_warm_render_starts_no_synthesis_child(
    speech: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    starts = tmp_path / "starts"
    worker = tmp_path / "counting_worker.py"
    worker.write_text(
        "import sys\n"
        f"open({str(starts)!r}, 'a').write('started\\n')\n"
        f"sys.path.insert(0, {str(PACKAGE_ROOT)!r})\n"
        "from moderator.narration.speech import synth_worker\n"
        "sys.exit(synth_worker.main())\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(
        pyttsx3_synth, "default_worker_command", lambda: [sys.executable, str(worker)]
    )
    out = tmp_path / "finale.wav"
    assert main(["narrate", "finale", "--wav", str(out)]) == 0  # cold: synthesizes
    cold = starts.read_text(encoding="utf-8").count("started")
    assert cold >= 1
    out.unlink()
    assert main(["narrate", "finale", "--wav", str(out)]) == 0  # warm: all cached
    assert starts.read_text(encoding="utf-8").count("started") == cold
    assert out.stat().st_size > 44
    assert "Wrote" in capsys.readouterr().out
