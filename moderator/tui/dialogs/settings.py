"""Settings: voice, language, English engine, rate, volume, timings, ambience, turns, board.

Saved atomically to settings.json in the config folder and handed to the
narrator at once; a value out of range shows a sentence and nothing is saved.
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Label, Select, Static, Switch

from moderator import i18n
from moderator.i18n import N_, _
from moderator.i18n.refusals import refusal
from moderator.narration.speech.neural_voice import neural_problem
from moderator.safe_output import OutputError
from moderator.table.config import TableSettings
from moderator.table.controller import TableController
from moderator.tui.dialogs.dialog import DialogScreen
from moderator.tui.dialogs.settings_voice import TableVoice, engines_with
from moderator.tui.text_from_files import literal

#: What the number fields accept while typing. Textual's own type="number" and
#: type="integer" patterns backtrack catastrophically (about 20 digits followed by
#: another character freezes the UI for seconds), so the fields use this linear one.
DECIMAL = r"\d{0,3}(\.\d{0,2})?"


def on_off(value: bool) -> str:
    """A switch's state in words."""
    return _("on") if value else _("off")


class SettingsScreen(DialogScreen[None]):
    """Edit and save the table's settings."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", N_("Save"), id="settings-save-key", priority=True),
        Binding("escape", "cancel", N_("Cancel"), id="settings-cancel-key"),
    ]

    def __init__(self, controller: TableController) -> None:
        super().__init__()
        self.controller = controller

    def compose(self) -> ComposeResult:
        """One row per setting."""
        current = self.controller.settings
        # Names and codes come from files (language.toml, settings.json): a Select's
        # str options are markup, so each is a literal Text with controls removed.
        codes = [
            (literal(f"{lang.name} ({lang.code})"), lang.code) for lang in self.controller.languages
        ]
        if current.lang not in [code for _label, code in codes]:
            codes.append((literal(current.lang), current.lang))
        with VerticalScroll(id="settings-box"):
            yield Static(_("Settings"), id="settings-title", markup=False)
            # Language first: the first Tab lands on it (Tab then Enter meant for the
            # language once turned the voice off, when the Voice switch came first).
            with Horizontal(classes="settings-row"):
                yield Label(_("Language"))
                yield Select(
                    codes, value=current.lang, allow_blank=False, id="settings-lang", compact=True
                )
            yield _switch_row(_("Voice"), current.enabled, "settings-enabled")
            with Horizontal(classes="settings-row"):
                yield Label(_("English voice"))
                yield Select(
                    _engine_choices(),
                    value=current.english_engine,
                    allow_blank=False,
                    id="settings-engine",
                    compact=True,
                )
            yield TableVoice(current, current.lang)
            yield _number_row(
                _("Rate (words/min)"), str(current.rate), r"\d{0,3}", 3, "settings-rate"
            )
            yield _number_row(_("Volume (0-1)"), str(current.volume), DECIMAL, 5, "settings-volume")
            yield _number_row(
                _("Reveal (seconds)"), str(current.reveal_seconds), DECIMAL, 5, "settings-reveal"
            )
            yield _number_row(
                _("Growling (seconds)"), str(current.growl_seconds), DECIMAL, 5, "settings-growl"
            )
            yield _switch_row(_("Eyes-closed ambience"), current.ambience, "settings-ambience")
            yield _number_row(
                _("Ambience level (0-1)"),
                str(current.ambience_level),
                DECIMAL,
                5,
                "settings-ambience-level",
            )
            yield _number_row(
                _("Silent passing (s)"),
                str(current.passing_seconds),
                DECIMAL,
                5,
                "settings-passing",
            )
            yield _number_row(
                _("Lead-in (seconds)"), str(current.lead_in), DECIMAL, 5, "settings-lead-in"
            )
            yield _switch_row(_("Announce each turn"), current.announce_turns, "settings-announce")
            yield _switch_row(_("Phone board (b)"), current.board, "settings-board")
            yield _switch_row(_("Phone remote (p)"), current.remote, "settings-remote")
            # Docked at the box's foot: always in view, however far the rows scroll.
            with Vertical(id="settings-actions"):
                yield Static("", id="settings-error", markup=False)
                with Horizontal(classes="button-row"):
                    yield Button(_("Save ^S"), id="settings-save", variant="success", compact=True)
                    yield Button(_("Cancel Esc"), id="settings-cancel", compact=True)

    def _read(self) -> TableSettings:
        """The fields as typed, over the saved settings (the board's port and address
        are edited in settings.json only, so they are kept as they are)."""

        def number(widget_id: str, kind: type[float] | type[int]) -> float:
            raw = self.query_one(widget_id, Input).value.strip()
            try:
                return kind(raw)
            except ValueError:
                raise ValueError(_("“{typed}” is not a number.").format(typed=raw)) from None

        lang = self.query_one("#settings-lang", Select).value
        table_voice = self.query_one(TableVoice)
        return replace(
            self.controller.settings,
            enabled=self.query_one("#settings-enabled", Switch).value,
            lang=str(lang),
            rate=int(number("#settings-rate", int)),
            volume=float(number("#settings-volume", float)),
            reveal_seconds=float(number("#settings-reveal", float)),
            growl_seconds=float(number("#settings-growl", float)),
            announce_turns=self.query_one("#settings-announce", Switch).value,
            ambience=self.query_one("#settings-ambience", Switch).value,
            ambience_level=float(number("#settings-ambience-level", float)),
            english_engine=str(self.query_one("#settings-engine", Select).value),
            voice_engines=engines_with(self.controller.settings, str(lang), table_voice.value),
            passing_seconds=float(number("#settings-passing", float)),
            lead_in=float(number("#settings-lead-in", float)),
            board=self.query_one("#settings-board", Switch).value,
            remote=self.query_one("#settings-remote", Switch).value,
        )

    def action_save(self) -> None:
        """Validate, save atomically, hand to the narrator, close."""
        before = self.controller.settings.lang
        try:
            kept = self.controller.change_settings(self._read())
        except ValueError as error:  # a rule's refusal (IllegalAction) or a typed non-number
            self.query_one("#settings-error", Static).update(refusal(error))
            return
        except OutputError as error:
            self.query_one("#settings-error", Static).update(refusal(error))
            return
        except OSError as error:
            self.query_one("#settings-error", Static).update(
                _("The settings could not be saved: {reason}.").format(
                    reason=error.strerror or error
                )
            )
            return
        lang = self.controller.settings.lang
        if lang != before:
            # One language for the table: the next screen drawn speaks it too (or English,
            # said once, for a voice-script language the screen has no translation for).
            # Every screen, dialog, header and footer follows at once (`tables_language`).
            getattr(self.app, "use_language", i18n.use_language)(lang)
            notice = i18n.choose_language(lang, None, None, i18n.screen_languages()).notice
            if notice is not None:
                self.notify(notice, severity="warning", markup=False, timeout=10)
        board = getattr(self.app, "board", None)
        settings = self.controller.settings
        if board is not None and not settings.remote:
            board.close_remote()  # the remote turned off: no phone acts from now on
        if board is not None and not settings.board and not settings.remote:
            self.app.run_worker(board.stop())  # the phone board turned off: its port closes
        if kept is None:
            self.notify(_("Settings saved."), markup=False)
        else:
            self.notify(
                _("Settings saved. {more}").format(more=kept),
                severity="warning",
                markup=False,
                timeout=10,
            )
        self.dismiss(None)

    def on_select_changed(self, event: Select.Changed) -> None:
        """Another language chosen: its voice row and install offer follow."""
        if event.select.id == "settings-lang" and isinstance(event.value, str):
            self.query_one(TableVoice).show_language(event.value)

    def on_switch_changed(self, event: Switch.Changed) -> None:
        """The switch's state in words beside it (a knob's side is not obvious to all)."""
        if event.switch.id:
            self.query_one(f"#{_word_id(event.switch.id)}", Label).update(on_off(event.value))

    def action_cancel(self) -> None:
        """Close without saving."""
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Save or cancel."""
        if event.button.id == "settings-save":
            self.action_save()
        elif event.button.id == "settings-cancel":
            self.action_cancel()


def _engine_choices() -> list[tuple[str, str]]:
    """espeak, and Piper saying whether it is installed (it falls back to espeak if not)."""
    piper = _("Piper, neural") if neural_problem() is None else _("Piper (not installed)")
    return [("espeak-ng", "espeak"), (piper, "piper")]


def _number_row(
    label: str, value: str, restrict: str, max_length: int, widget_id: str
) -> Horizontal:
    """A labelled number field; `restrict` refuses other characters as they are typed."""
    return Horizontal(
        Label(label),
        Input(value, restrict=restrict, max_length=max_length, id=widget_id, compact=True),
        classes="settings-row",
    )


def _word_id(switch_id: str) -> str:
    """The id of the word ("on"/"off") beside the switch `switch_id`."""
    return f"{switch_id}-word"


def _switch_row(label: str, value: bool, switch_id: str) -> Horizontal:
    """A labelled switch and its state in words beside it (kept current by `on_switch_changed`)."""
    return Horizontal(
        Label(label),
        Switch(value, id=switch_id),
        Label(on_off(value), id=_word_id(switch_id), classes="switch-word"),
        classes="settings-row",
    )
