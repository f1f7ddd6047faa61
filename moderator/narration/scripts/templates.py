"""Placeholder substitution that treats voice scripts and player names as data.

Voice scripts are user-editable files, and player names are arbitrary text, so
`str.format` is not safe here: it allows `{player.__class__}` or `{x[0]}` and a
name containing braces could be formatted twice. A template is parsed once,
with `string.Formatter.parse`, into literal text and plain placeholder names;
anything else is refused. Rendering concatenates values as text and never looks
at them again.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass

from moderator.i18n import _


class TemplateError(ValueError):
    """A template uses something other than plain `{name}` placeholders."""


@dataclass(frozen=True)
class Template:
    """A parsed line: literal text and placeholder names, in order."""

    #: Pairs of (literal text, placeholder name or None).
    parts: tuple[tuple[str, str | None], ...]

    @property
    def names(self) -> frozenset[str]:
        """Every placeholder the template uses."""
        return frozenset(name for _, name in self.parts if name is not None)

    def render(self, values: Mapping[str, object]) -> str:
        """The text with each placeholder replaced by its value as plain text.

        A missing value renders as nothing rather than failing: validation has
        already proved every name is known, and the table must never see a crash
        because a caller forgot one value.
        """
        chunks: list[str] = []
        for literal, name in self.parts:
            chunks.append(literal)
            if name is not None:
                chunks.append(format_value(values.get(name, "")))
        return "".join(chunks)


def format_value(value: object) -> str:
    """How a value is spoken: whole numbers without a trailing `.0`."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def parse_template(text: str) -> Template:
    """Parse `text`, refusing attribute/index access, conversions and format specs.

    Raises:
        TemplateError: with a sentence naming the offending placeholder.
    """
    parts: list[tuple[str, str | None]] = []
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as error:
        raise TemplateError(
            _("bad braces in {text!r} ({error}); write {{{{ and }}}} for literal braces").format(
                text=text, error=error
            )
        ) from error
    for literal, field, spec, conversion in parsed:
        if field is None:
            parts.append((literal, None))
            continue
        if not field.isidentifier():
            raise TemplateError(
                _(
                    "placeholder {{{field}}} is not a plain name (no dots, brackets or numbers)"
                ).format(field=field)
            )
        if conversion is not None or spec:
            raise TemplateError(
                _("placeholder {{{field}}} must not use '!' or ':' formatting").format(field=field)
            )
        parts.append((literal, field))
    return Template(tuple(parts))
