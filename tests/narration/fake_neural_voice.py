"""A neural voice whose model files do not exist: for the tests whose stand-in Piper child
dies, hangs or answers before it would read a model."""

from __future__ import annotations

from pathlib import Path

from moderator.narration.speech.neural_voice import NeuralVoice


def fake_voice(folder: Path) -> NeuralVoice:
    """A voice named "fake" whose model and config would be in `folder` (they are not)."""
    return NeuralVoice("fake", folder / "fake.onnx", folder / "fake.onnx.json", 22050, "0", "0")
