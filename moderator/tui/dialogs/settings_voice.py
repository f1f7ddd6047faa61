"""Settings' voice of the table's language: its engine, and installing its natural voice.

One row chooses what speaks the language being set up (espeak-ng, or one of
its installed natural voices; English keeps its own row, "English voice").
When the language has no natural voice yet, the row below offers to install
its recommended one, with its size; the download runs in a thread (never on
the UI's), its progress bar and bytes, rate and time left drawn as it goes, and
any failure is the download's own sentence. Where the `neural` extra is
missing the row says so, with the command that adds it.
"""

from __future__ import annotations

import threading

from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label, ProgressBar, Select, Static

from moderator.i18n import _
from moderator.narration.setting_rules import ESPEAK_ENGINE, format_engines, parse_engines
from moderator.narration.settings import VoiceSettings
from moderator.narration.speech.piper_voices import (
    LICENCES,
    RECOMMENDED,
    neural_missing,
    voices_for,
)
from moderator.narration.speech.voice_catalogue import (
    DownloadError,
    base_url,
    fetch_catalogue,
    pick,
)
from moderator.narration.speech.voice_download import Progress, install
from moderator.narration.speech.voice_engines import ENGLISH, choose_engine
from moderator.narration.voices_cli import megabytes, progress_line
from moderator.tui.text_from_files import literal

#: A medium Piper model and its config (the English one shipped is 63.2 MB): the size
#: the offer shows before the catalogue, which gives the exact one, is fetched.
MEDIUM_VOICE_BYTES = 63_206_088


def voice_options(lang: str) -> list[tuple[str, str]]:
    """espeak-ng and the language's installed natural voices, best first."""
    options = [("espeak-ng", ESPEAK_ENGINE)]
    options += [
        (_("{name} (natural)").format(name=voice.name), voice.name)
        for voice in voices_for(lang)
        if voice.downloaded or lang != ENGLISH
    ]
    return options


def voice_value(settings: VoiceSettings, lang: str) -> str:
    """The option the settings choose for `lang` (espeak when theirs is not offered)."""
    engine = choose_engine(settings, lang).engine
    offered = {value for _label, value in voice_options(lang)}
    return engine if engine in offered else ESPEAK_ENGINE


def engines_with(settings: VoiceSettings, lang: str, value: str) -> str:
    """The settings' `voice_engines` with `lang` speaking with `value`.

    A value that is what the language would speak with anyway (its best
    natural voice, or espeak-ng when it has none) is left unnamed, so a voice
    installed later still becomes the language's voice by itself.
    """
    try:
        table = parse_engines(settings.voice_engines)
    except ValueError:
        table = {}
    if lang == ENGLISH:  # English's engine is its own row's (`english_engine`)
        return format_engines(table)
    table.pop(lang, None)
    unnamed = VoiceSettings(lang=lang, voice_engines=format_engines(table))
    if voice_value(unnamed, lang) != value:
        table[lang] = value
    return format_engines(table)


class TableVoice(Vertical):
    """The row of the table's language's engine and the offer to install its natural voice."""

    DEFAULT_CSS = """
    TableVoice { height: auto; }
    TableVoice #settings-install { height: auto; margin: 0 0 1 0; }
    TableVoice #settings-install-progress { display: none; }
    TableVoice #settings-install-progress.running { display: block; }
    """

    def __init__(self, settings: VoiceSettings, lang: str) -> None:
        super().__init__(id="settings-table-voice")
        self._settings = settings
        self.lang = lang
        self._cancel = threading.Event()
        self.installing = False

    def compose(self) -> ComposeResult:
        """The engine row, then the install offer (shown when it applies)."""
        with Horizontal(classes="settings-row", id="settings-voice-row"):
            yield Label(self._label(), id="settings-voice-label")
            yield Select(
                [(literal(label), value) for label, value in voice_options(self.lang)],
                value=voice_value(self._settings, self.lang),
                allow_blank=False,
                id="settings-voice",
                compact=True,
            )
        with Vertical(id="settings-install"):
            yield Static("", id="settings-install-note", markup=False)
            yield Button("", id="settings-install-button", compact=True)
            yield ProgressBar(id="settings-install-progress", show_eta=False)
            yield Static("", id="settings-install-status", markup=False)

    def on_mount(self) -> None:
        self.show_language(self.lang)

    def on_unmount(self) -> None:
        """The dialog closed: a download under way stops (what it fetched is kept)."""
        self._cancel.set()

    def _label(self) -> str:
        return _("Voice ({code})").format(code=self.lang)

    def show_language(self, lang: str) -> None:
        """Offer `lang`'s engines and, when it has no natural voice, its install."""
        self.lang = lang
        english = lang == ENGLISH
        self.query_one("#settings-voice-row").display = not english
        self.query_one("#settings-voice-label", Label).update(self._label())
        select = self.query_one("#settings-voice", Select)
        select.set_options([(literal(label), value) for label, value in voice_options(lang)])
        select.value = voice_value(self._settings, lang)
        self._show_offer()

    def _show_offer(self) -> None:
        note = self.query_one("#settings-install-note", Static)
        button = self.query_one("#settings-install-button", Button)
        recommended = RECOMMENDED.get(self.lang)
        has_voice = bool(voices_for(self.lang))
        missing = neural_missing()
        offer = (
            recommended is not None
            and self.lang != ENGLISH
            and not has_voice
            and not self.installing
        )
        lines = []
        if offer:
            lines.append(
                _("No natural voice for {code} yet: {name} ({licence}) can be installed.").format(
                    code=self.lang, name=recommended, licence=LICENCES.get(str(recommended), "?")
                )
            )
        if missing and (offer or has_voice or self.lang == ENGLISH):
            lines.append(missing)
        note.update("\n".join(lines))
        note.display = bool(lines)
        button.label = _("Install {name} (about {size})").format(
            name=recommended, size=megabytes(MEDIUM_VOICE_BYTES)
        )
        button.display = offer
        self.query_one("#settings-install").display = bool(lines) or self.installing

    @property
    def value(self) -> str:
        """The engine chosen for the table's language."""
        return str(self.query_one("#settings-voice", Select).value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Install the language's recommended voice, off the UI thread."""
        if event.button.id != "settings-install-button" or self.installing:
            return
        event.stop()
        self.installing = True
        event.button.display = False
        self.query_one("#settings-install-progress", ProgressBar).add_class("running")
        self._status(_("Fetching the voice catalogue…"))
        self._download(self.lang)

    @work(thread=True, exclusive=True, group="voice-install")
    def _download(self, lang: str) -> None:
        """The download itself (a thread): the catalogue, then the voice's files."""
        try:
            base = base_url()
            voice = pick(fetch_catalogue(base), lang)
            installed = install(
                voice,
                base,
                progress=lambda progress: self._from_thread(self._progress, progress),
                cancel=self._cancel,
            )
        except DownloadError as error:
            self._from_thread(self._finished, str(error), None)
        except OSError as error:  # anything the download did not put in words
            self._from_thread(self._finished, str(error), None)
        else:
            self._from_thread(self._finished, "", installed.name)

    def _from_thread(self, callback: object, *args: object) -> None:
        if self._cancel.is_set():
            return
        try:
            self.app.call_from_thread(callback, *args)  # type: ignore[arg-type]
        except RuntimeError:  # the app is closing
            self._cancel.set()

    def _progress(self, progress: Progress) -> None:
        bar = self.query_one("#settings-install-progress", ProgressBar)
        bar.update(total=max(progress.total, 1), progress=progress.done)
        self._status(progress_line(progress))

    def _finished(self, failure: str, name: str | None) -> None:
        self.installing = False
        self.query_one("#settings-install-progress", ProgressBar).remove_class("running")
        if name is None:
            self._status(failure)
            self._show_offer()
            return
        self._status(
            _("Installed {name}: save to speak {code} with it.").format(name=name, code=self.lang)
        )
        select = self.query_one("#settings-voice", Select)
        select.set_options([(literal(label), value) for label, value in voice_options(self.lang)])
        select.value = name
        self._show_offer()
        self.query_one("#settings-install").display = True

    def _status(self, text: str) -> None:
        status = self.query_one("#settings-install-status", Static)
        status.update(text)
        self.query_one("#settings-install").display = True
