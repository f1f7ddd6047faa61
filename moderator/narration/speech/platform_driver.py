"""What pyttsx3 2.99's Windows (sapi5) and macOS (nsss) drivers need from the synthesis child.

Read against the drivers' code and run over stand-in OS layers (see
tests/narration/test_platform_drivers.py):

- sapi5: `save_to_file` Speaks synchronously into an SpFileStream and closes
  it, but never sends `finished-utterance` (only `say()` sets the flag its
  end-of-stream handler checks). So for sapi5 the end of `runAndWait` *is*
  the end of the line. Its voice list parses a token's Language attribute as
  one hexadecimal number and raises on "409;9" (upstream #429), so the voices
  are read from the tokens here (`voice_choice.sapi_languages`).
- nsss: `startSpeakingString:toURL:` is asynchronous and the driver's
  `save_to_file` runs at once when the engine is idle; the `runAndWait` that
  follows then ends its loop (and `stopSpeaking`s the line) on its first
  pass, so every line after the first would be cut short. Marking the
  engine busy first queues the line until the loop runs, as for the first
  line, and `didFinishSpeaking` ends it. NSSS writes AIFF.
- Both: the file is converted to the app's mono 16-bit WAV
  (`platform_audio`), whatever its layout.

pyttsx3 is pinned (pyproject.toml); the private attributes used here
(`engine.proxy`, the sapi5 driver's `_tts`) are those of 2.99.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from moderator.narration.speech.voice_choice import VoiceOffer, sapi_languages

#: Drivers whose `save_to_file` has finished when `runAndWait` returns.
FINISHES_ON_RETURN = frozenset({"sapi5"})
#: What each driver writes before the app's conversion (espeak writes the app's WAV itself).
_SUFFIX = {"nsss": ".aiff", "sapi5": ".platform.wav"}


def platform_file(path: Path, driver: str) -> Path:
    """Where the driver writes a line that ends up at `path`."""
    suffix = _SUFFIX.get(driver)
    return path if suffix is None else path.with_suffix(suffix)


def before_save(engine: Any, driver: str) -> None:
    """nsss: queue the next line so it starts inside the run loop (see the module notes)."""
    if driver == "nsss":
        engine.proxy.setBusy(True)


def voice_records(engine: Any, driver: str) -> list[dict[str, object]]:
    """Every voice the engine offers: id, name, languages, gender."""
    if driver == "sapi5":
        return [
            {
                "id": str(token.Id),
                "name": _attribute(token, None),
                "languages": list(sapi_languages(_attribute(token, "Language"))),
                "gender": _attribute(token, "Gender").title() or None,
            }
            for token in engine.proxy._driver._tts.GetVoices()
        ]
    return [
        {
            "id": voice.id,
            "name": voice.name,
            "languages": list(voice.languages or []),
            "gender": voice.gender,
        }
        for voice in engine.getProperty("voices")
    ]


def _attribute(token: Any, name: str | None) -> str:
    """A SAPI token's attribute (None: its description); "" when the token cannot say.

    A damaged registry entry raises a COM error here: that voice is listed
    without it rather than taking every voice (and speech) down.
    """
    try:
        value = token.GetDescription() if name is None else token.GetAttribute(name)
    except Exception:
        return ""
    return str(value or "")


def voice_offers(engine: Any, driver: str) -> list[VoiceOffer]:
    """The engine's voices for `voice_choice.choose_voice`."""
    offers = []
    for record in voice_records(engine, driver):
        languages = record["languages"]
        tags = tuple(str(tag) for tag in languages) if isinstance(languages, list) else ()
        offers.append(VoiceOffer(str(record["id"]), str(record["name"]), tags))
    return offers
