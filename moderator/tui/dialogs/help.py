"""Help: the keys, and the rulebook's reference panels quoted word for word.

The keys are read from the bindings (description, keys, tooltip) of the
screen the help was opened over, of the app, and of every screen, with the
table's keymap applied: nothing here is typed twice, so the help cannot drift
from what the keys do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from moderator.i18n import N_, _
from moderator.tui import key_reference
from moderator.tui.dialogs.dialog import DialogScreen
from moderator.tui.key_reference import KeySection

#: Quoted from the rulebook's reference panels (page 8); msgids, shown translated.
DURING_A_MEETING = N_(
    "• Sane players can never give away a Mind Flayer card from their hand.\n"
    "• Knocked out players don't participate in Meetings. "
    "Skip over them and give your card to the next player.\n"
    "• Shuffle the cards you receive before looking at them."
)

EFFECTS_OF_ADVENTURE_CARDS = N_(
    "• 3 uncanceled Mind Flayer cards and you become Possessed.\n"
    "• 3 uncanceled Hard Hit cards and you become knocked out.\n"
    "• Cancel 1 Mind Flayer card.\n"
    "• Cancel 1 Hard Hit card."
)


class HelpScreen(DialogScreen[None]):
    """Keys and reference panels; its own keys (Esc, F1, ? or q by default) close it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,question_mark,q", "close", N_("Close"), id="help-close"),
    ]

    def compose(self) -> ComposeResult:
        """Keys first (this screen, everywhere, every screen), then the two panels."""
        with Vertical(id="help-box"), VerticalScroll(id="help-scroll"):
            for section, section_id in self.key_sections():
                yield Static(_(section.title), classes="help-heading", markup=False)
                yield Static(
                    key_reference.format_section(section),
                    id=section_id,
                    classes="help-keys",
                    markup=False,
                )
            yield Static(_("During a Meeting (rulebook)"), classes="help-heading", markup=False)
            yield Static(_(DURING_A_MEETING), id="help-meeting", markup=False)
            yield Static(
                _("Effects of Adventure Cards (rulebook)"), classes="help-heading", markup=False
            )
            yield Static(_(EFFECTS_OF_ADVENTURE_CARDS), id="help-effects", markup=False)
            yield Static(self.closing_hint(), id="help-close-hint", markup=False)

    def key_sections(self) -> list[tuple[KeySection, str]]:
        """The sections of keys to show, each with its widget id."""
        keymap: Mapping[str, str] = getattr(self.app, "keymap", {})
        sections: list[tuple[KeySection, str]] = []
        below = self.screen_below()
        shown_below = ""
        if below is not None:
            current = key_reference.current_section(below)
            if current.rows:
                sections.append((current, "help-current"))
                shown_below = key_reference.title_of(type(below).__module__)
        sections.append((key_reference.app_section(self.app, keymap), "help-everywhere"))
        for section in key_reference.screen_sections(self.app, keymap):
            if section.title != shown_below:
                slug = section.title.lower().replace(" ", "-")
                sections.append((section, f"help-screen-{slug}"))
        return sections

    def closing_hint(self) -> str:
        """Which keys close the help (as the keymap has them)."""
        keymap: Mapping[str, str] = getattr(self.app, "keymap", {})
        rows = key_reference.rows_of(key_reference.declared_bindings(HelpScreen), keymap, self.app)
        if not rows:
            return ""
        return _("{keys}: close this help.").format(keys=key_reference.keys_text(rows[0].keys))

    def screen_below(self) -> Screen[object] | None:
        """The screen the help was opened over (None if the help is not shown)."""
        stack = self.app.screen_stack
        if self not in stack:
            return stack[-1] if stack else None
        index = stack.index(self)
        return stack[index - 1] if index > 0 else None

    def action_close(self) -> None:
        """Back to where the table was."""
        self.dismiss(None)
