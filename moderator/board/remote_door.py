"""The remote's door: what a press must show before the table hears of it.

A shared Wi-Fi is not trusted. A press must carry the remote's own token in a
header (a form on another site cannot set a header, and a page of another site
that sets one is stopped by the browser's preflight, which the server refuses),
come from the remote's own page (`Origin`, and `Sec-Fetch-Site` where the browser
sends it), be JSON of at most `MAX_BODY` bytes, and stay within its phone's
presses a second. Each refusal is a status and one sentence, as JSON the page
shows as text; nothing the phone sent is ever repeated back.
"""

from __future__ import annotations

import asyncio
import hmac
import json
from collections.abc import Awaitable, Callable

from aiohttp import web

from moderator.board.presses import MAX_BODY, Press, PressLimit, PressRefused, read_press
from moderator.i18n import N_, _

__all__ = [
    "PHONE_HEADER",
    "REMOTE_HEADER",
    "REMOTE_INVALID",
    "PressHandler",
    "answer",
    "checked_press",
    "refused",
]

#: Acts on a press the door let through: the sentence for the phone on success,
#: or PressRefused with a status and a sentence.
PressHandler = Callable[[Press], Awaitable[str]]
#: The header a remote's press carries its token in (a form cannot set a header).
REMOTE_HEADER = "X-Remote-Token"
#: The header naming the phone (a random id its page keeps), for the per-phone limit.
PHONE_HEADER = "X-Remote-Phone"
#: The sentence for a remote link or header that opens nothing (wrong, old, or turned off).
REMOTE_INVALID = N_(
    "This remote is not open: turn the remote on at the laptop and scan its remote code."
)


async def checked_press(request: web.Request, token: str, limit: PressLimit) -> Press:
    """The press `request` carries, once every check passed; else PressRefused."""
    header = request.headers.get(REMOTE_HEADER, "")
    if not hmac.compare_digest(header.encode(), token.encode()):
        raise PressRefused(403, _(REMOTE_INVALID))
    if not same_origin(request):
        raise PressRefused(403, _("Presses are taken only from the remote's own page."))
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise PressRefused(413, _("The phone's press is too long."))
    if request.content_type != "application/json":
        raise PressRefused(415, _("The phone's press could not be read: reload the page."))
    body = await request.content.read(MAX_BODY + 1)
    if len(body) > MAX_BODY:
        raise PressRefused(413, _("The phone's press is too long."))
    phone = f"{request.remote}/{request.headers.get(PHONE_HEADER, '')[:64]}"
    if not limit.allow(phone, asyncio.get_running_loop().time()):
        raise PressRefused(429, _("Too many presses from this phone: wait a second."))
    return read_press(body)


def same_origin(request: web.Request) -> bool:
    """Whether a press comes from a page of this very server (`Origin` must say so).

    Browsers send `Origin` with every POST a page makes; a request without one, or
    from any other origin (another site, another port), is refused.
    """
    origin = request.headers.get("Origin")
    if origin is None or origin != f"{request.scheme}://{request.host}":
        return False
    return request.headers.get("Sec-Fetch-Site") in (None, "same-origin")


def answer(status: int, sentence: str) -> web.Response:
    """A press's answer: its status and one sentence (the page shows it as text)."""
    body = json.dumps({"ok": status == 200, "sentence": sentence}, ensure_ascii=False)
    return web.Response(status=status, text=body, content_type="application/json")


def refused(status: int, sentence: str, method: str = "") -> web.HTTPException:
    """A refusal at the remote's paths (403 or 405), its body a press's answer."""
    body = json.dumps({"ok": False, "sentence": sentence}, ensure_ascii=False)
    if status == 405:
        return web.HTTPMethodNotAllowed(
            method, ["GET", "POST"], text=body, content_type="application/json"
        )
    return web.HTTPForbidden(text=body, content_type="application/json")
