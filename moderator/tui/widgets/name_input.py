"""The name field and the roster beside it: every key of a fast typist lands in order.

Textual runs a key's *binding* only after the key has bubbled from the focused
widget up to the app, while a printable key is handled by the focused widget at
once. So a letter typed right behind a bound key overtakes it: "Fix name" (e)
moved the focus after the letters typed behind it had reached the roster, and
End (a binding of `Input`) moved the cursor after the letters typed behind it
had replaced the text that select-on-focus had selected ("Noah" + End + " B"
became "B", issue 15 item 10). Both widgets here run their own bindings in their
key handler, in order with the letters, and the field is focused at once (not
on the next loop turn) with the cursor at the end of the name, nothing selected.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.widgets import Input, OptionList

from moderator.tui.textual_fixes.private import forward_key


async def run_own_binding(widget: Input | OptionList, event: events.Key) -> bool:
    """Run the widget's own binding of `event`'s key now (keymap honoured); False if none.

    The binding is the one the app would run later for this key with the focus
    here (`Screen.active_bindings`), so only where it would land on this widget.
    """
    active = widget.screen.active_bindings.get(event.key)
    if active is None or active.node is not widget or not active.enabled:
        return False
    event.stop()
    event.prevent_default()
    await widget.app.run_action(active.binding.action, widget)
    return True


class NameInput(Input):
    """The name field; Enter hands the name over and empties the field at once.

    Enter is handled in the field's own key handler, in order with the letters
    around it (a binding's action would run later, after letters typed behind
    it): letters typed right after Enter start the next name instead of joining
    or being wiped. The field's editing keys (End, Home, arrows, Backspace...)
    run the same way. Nothing is selected when the field gets the focus, so a
    letter typed into a name given back to fix never wipes it.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(select_on_focus=False, **kwargs)

    async def on_key(self, event: events.Key) -> None:
        """Enter submits what is typed now; an editing key acts now, before later letters."""
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            value = self.value
            self.value = ""
            self.post_message(self.Submitted(self, value, None))
            return
        if not event.is_printable:  # a letter is the field's own, handled in order already
            await run_own_binding(self, event)

    def edit(self, value: str, placeholder: str) -> None:
        """Put `value` in the field to fix, the cursor after it, and take the focus now.

        The focus moves before the next key is routed (`Screen.set_focus`, not
        `focus()`, which waits for the next turn of the app's loop), so a key
        typed right behind the one that asked for the fix lands here.
        """
        self.value = value
        self.cursor_position = len(value)
        self.placeholder = placeholder
        self.screen.set_focus(self)


class FixingList(OptionList):
    """A list whose entries are fixed in a `NameInput` (the setup's roster subclasses it).

    Its bindings run in its own key handler, in order (see the module): "Fix
    name" moves the focus to the name field before the next key is routed, and
    a key that was already on its way here when the focus left is passed on to
    the name field, where it was typed. Enter runs the screen's `edit` action.
    """

    async def on_key(self, event: events.Key) -> None:
        """A key typed after the focus moved to the name field goes there; bindings act now."""
        focused = self.screen.focused
        if focused is not self and isinstance(focused, NameInput):
            event.stop()
            event.prevent_default()
            forward_key(focused, event)
            return
        if event.key == "enter" and self.highlighted is not None:
            # Enter on an entry fixes it; OptionList's own Enter ("select") is a binding
            # too, and its message would reach the screen later still.
            event.stop()
            event.prevent_default()
            await self.run_action("screen.edit")
            return
        await run_own_binding(self, event)
