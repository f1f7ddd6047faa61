"""Choosing a Windows or macOS voice by language and region (pure, no engine)."""

from __future__ import annotations

import pytest

from moderator.narration.speech.voice_choice import (
    VoiceOffer,
    choose_voice,
    home_region,
    sapi_languages,
)


@pytest.mark.parametrize(
    ("attribute", "languages"),
    [
        ("409", ("en-US",)),
        ("409;9", ("en-US", "en")),  # upstream pyttsx3 #429 raises on this one
        ("809;409", ("en-GB", "en-US")),
        ("40C", ("fr-FR",)),
        ("c0a", ("es-ES",)),
        ("", ()),
        (None, ()),
        ("zz;409", ("en-US",)),
    ],
)
def test_sapi_language_attributes(attribute: str | None, languages: tuple[str, ...]) -> None:
    assert sapi_languages(attribute) == languages


def test_a_bare_language_means_its_home_region() -> None:
    assert (home_region("en"), home_region("fr"), home_region("es"), home_region("de")) == (
        "us",
        "fr",
        "es",
        "de",
    )
    assert home_region("zz") == ""


GB = VoiceOffer("gb", "Hazel", ("en-GB",))
US = VoiceOffer("us", "Zira", ("en-US",))
US2 = VoiceOffer("us2", "David", ("en-US",))
NEUTRAL = VoiceOffer("neutral", "Any English", ("en",))
NOVELTY = VoiceOffer("com.apple.speech.synthesis.voice.Zarvox", "Zarvox", ("en_US",))
APPLE = VoiceOffer("com.apple.voice.compact.en-US.Samantha", "Samantha", ("en_US",))
FRENCH = VoiceOffer("fr", "Hortense", ("fr-FR",))


@pytest.mark.parametrize(
    ("wanted", "offers", "default", "chosen"),
    [
        ("en-us", [GB, US], None, "us"),
        ("en", [GB, US], None, "us"),
        ("en", [GB, NEUTRAL], None, "neutral"),  # no region before another region
        ("en-us", [GB], None, "gb"),  # another region before nothing at all
        ("en-gb", [US, GB], None, "gb"),
        ("en-us", [US, US2], "us2", "us2"),  # the user's default among equals
        ("en-us", [US, GB], "gb", "us"),  # ...but not over the region
        ("en-us", [NOVELTY, APPLE], None, APPLE.id),
        ("en-US", [NOVELTY], None, NOVELTY.id),  # a novelty voice still beats silence
        ("fr", [US, FRENCH], None, "fr"),
        ("de", [US, FRENCH], None, None),
    ],
)
def test_the_voice_is_chosen_by_language_then_region_then_default(
    wanted: str, offers: list[VoiceOffer], default: str | None, chosen: str | None
) -> None:
    assert choose_voice(wanted, offers, default) == chosen
