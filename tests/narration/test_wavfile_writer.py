"""The speech cache's WAV writer goes through the one atomic writer (`safe_output`).

So a cached clip that is a symlink (a cache folder shared through links) keeps
its link and the file it points at gets the new clip, and a failed write says
why in a sentence, as every other file the app writes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from moderator.narration.audio.wavfile import Pcm, read_pcm, silence, write_pcm_atomic


def test_a_linked_clip_keeps_its_link_and_its_target_gets_the_clip(tmp_path: Path) -> None:
    target = tmp_path / "kept" / "line.wav"
    target.parent.mkdir()
    target.write_bytes(b"old")
    link = tmp_path / "line.wav"
    link.symlink_to(target)

    write_pcm_atomic(link, Pcm(16000, silence(16000, 0.1)))

    assert link.is_symlink()
    assert read_pcm(target).rate == 16000


def test_a_clip_into_a_folder_is_refused_with_a_sentence(tmp_path: Path) -> None:
    folder = tmp_path / "line.wav"
    folder.mkdir()
    with pytest.raises(OSError, match=r"line\.wav"):
        write_pcm_atomic(folder, Pcm(16000, silence(16000, 0.1)))
    assert folder.is_dir()
