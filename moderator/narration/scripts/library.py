"""Finding voice scripts: the user's overrides first, then the shipped ones.

Layout, in every voice-script folder::

    <lang>/language.toml     name = "Français", voice = "fr"   (espeak-ng voice)
    <lang>/<script>.toml     one file per script (setup, reveal, meeting, ...)

A user folder may hold only the files it changes. For each (language, script)
the first file that validates wins: the user's folder, then the shipped one,
then the English script (spoken with the English voice, so a partial language
never makes the French voice read English). A file that fails validation adds
one warning naming file and line, and the next candidate is used, so a typo
never stops the app.

The shipped folder is `voice_scripts/` at the repository root in a source
checkout, and `moderator/voice_scripts/` inside an installed wheel (the build
force-includes it there).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from moderator.domain.errors import IllegalAction
from moderator.domain.names import clean_name
from moderator.i18n import _
from moderator.i18n.refusals import refusal
from moderator.narration.scripts.context import pause_seconds, script_values
from moderator.narration.scripts.library_words import english_fallback, missing_folder
from moderator.narration.scripts.spoken_names import spoken_values
from moderator.narration.scripts.steps import Ambience, Pause, Say, Script, ScriptError
from moderator.narration.scripts.validation import (
    SCRIPT_NAMES,
    file_reason,
    key_line,
    load_script,
)
from moderator.narration.settings import VoiceSettings
from moderator.paths import config_dir
from moderator.safe_input import FileProblem, escaped, parse_toml, read_text

BASE_LANGUAGE = "en"
LANGUAGE_FILE = "language.toml"
_PACKAGE_DIR = Path(__file__).resolve().parents[2]
#: An espeak-ng voice name; it starts with a letter or digit, so it can never be read
#: as an option of the speech child's command line ("--help" stopped speech).
_VOICE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9/_+.-]{0,59}$")
_LANG_CODE = re.compile(r"^[a-z]{2,3}([-_][A-Za-z0-9]{2,8})?$")
#: Context key: start the run at this line (0-based), the lines and waits before it
#: left out. A table that skips a line asks for the rest of the script this way.
FROM_LINE = "from_line"


@dataclass(frozen=True)
class Language:
    """A set of voice scripts and the espeak-ng voice that speaks them."""

    code: str
    name: str
    voice: str
    #: The shipped voice of this language, when the user's language.toml names
    #: another one: used if the engine lacks the user's voice.
    fallback_voice: str | None = None


@dataclass(frozen=True)
class Line:
    """A line to speak, with its placeholders filled in."""

    text: str
    #: espeak-ng voice of the language the text is written in.
    voice: str
    #: The voice to use instead when the engine does not have `voice`.
    fallback_voice: str | None = None
    #: What the voice says when it differs from the caption (a name said as the table
    #: typed it, or in letters espeak can say: `spoken_names`); "" means `text`.
    speech: str = ""

    @property
    def said(self) -> str:
        """The words to synthesize (the caption shows `text`)."""
        return self.speech or self.text


@dataclass(frozen=True)
class Wait:
    """A pause of `seconds`, counted from the end of the previous audio."""

    seconds: float


@dataclass(frozen=True)
class Bed:
    """The ambience bed starts (`start`) or stops here: the span between is eyes-closed."""

    start: bool


Action = Line | Wait | Bed


def shipped_scripts_dir(package_dir: Path = _PACKAGE_DIR) -> Path:
    """Where the scripts that ship with the app are (wheel first, then checkout)."""
    for candidate in (package_dir / "voice_scripts", package_dir.parent / "voice_scripts"):
        if (candidate / BASE_LANGUAGE).is_dir():
            return candidate
    return package_dir / "voice_scripts"


@dataclass
class ScriptLibrary:
    """Every script of every language, resolved and validated once at start-up."""

    languages: dict[str, Language] = field(default_factory=dict)
    #: (lang, script) -> (script, language whose voice speaks it)
    scripts: dict[tuple[str, str], tuple[Script, Language]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def load(
        cls,
        user_dir: Path | None,
        shipped_dir: Path | None = None,
        user_dir_required: bool = False,
    ) -> ScriptLibrary:
        """Load and validate; never raises, problems become `warnings`.

        Args:
            user_dir: the user's override folder.
            shipped_dir: the shipped scripts (tests pass their own).
            user_dir_required: the user named `user_dir` (`--voice-scripts`), so
                its absence is reported; the default config folder may be absent.
        """
        shipped = shipped_dir if shipped_dir is not None else shipped_scripts_dir()
        folders = [d for d in (user_dir, shipped) if d is not None]
        library = cls()
        if user_dir is not None and user_dir_required and not user_dir.is_dir():
            library.warnings.append(missing_folder(user_dir))
        if not (shipped / BASE_LANGUAGE).is_dir():
            library.warnings.append(
                _("The shipped voice scripts are missing ({folder}); reinstall mindflayer.").format(
                    folder=shipped
                )
            )
        codes = library._find_languages(folders, user_dir)
        for code in codes:
            in_english = [name for name in SCRIPT_NAMES if library._resolve(code, name, folders)]
            if in_english:
                language = library.languages[code]
                library.warnings.append(english_fallback(language.name, code, in_english))
        for name in SCRIPT_NAMES:
            if (BASE_LANGUAGE, name) not in library.scripts:
                library.warnings.append(
                    _(
                        "No usable {name} script: {path} is missing or broken; that moment "
                        "will be silent."
                    ).format(name=name, path=shipped / BASE_LANGUAGE / (name + ".toml"))
                )
        return library

    def _find_languages(self, folders: Sequence[Path], user_dir: Path | None) -> list[str]:
        for folder in reversed(folders):  # shipped first, so the user's metadata wins
            if not folder.is_dir():
                continue
            for sub in self._entries(folder):
                if sub.name.startswith("."):
                    continue
                if not sub.is_dir():
                    self._tell_if_dangling(sub)
                    continue
                if not _LANG_CODE.match(sub.name):
                    self.warnings.append(
                        _("{path}: not a language code folder (like en, fr); ignored").format(
                            path=escaped(sub)
                        )
                    )
                    continue
                meta = sub / LANGUAGE_FILE
                if meta.is_file():
                    language = self._read_language(sub.name, meta)
                    shipped = self.languages.get(sub.name)
                    if language and shipped and shipped.voice != language.voice:
                        language = replace(language, fallback_voice=shipped.voice)
                    if language is not None:
                        self.languages[sub.name] = language
                elif sub.name not in self.languages:
                    self.warnings.append(
                        _(
                            '{path}:1: missing; write name = "..." and voice = "..." '
                            "(an espeak-ng voice, see `mindflayer voices`)"
                        ).format(path=meta)
                    )
                if folder == user_dir:
                    for file in self._entries(sub):
                        if (
                            file.suffix == ".toml"
                            and file.name != LANGUAGE_FILE
                            and (file.stem not in SCRIPT_NAMES)
                        ):
                            self.warnings.append(
                                _(
                                    "{path}:1: unknown script name {name!r} (known: {known}); "
                                    "ignored"
                                ).format(path=file, name=file.stem, known=", ".join(SCRIPT_NAMES))
                            )
        ordered = sorted(self.languages, key=lambda code: (code != BASE_LANGUAGE, code))
        self.languages = {code: self.languages[code] for code in ordered}
        return ordered

    def _entries(self, folder: Path) -> list[Path]:
        """The folder's entries, sorted; none and a warning when it cannot be listed.

        A folder without read permission (or gone meanwhile) raised from the
        narrator's build: the voice never came up and the next key crashed.
        """
        try:
            return sorted(folder.iterdir())
        except OSError as error:
            self.warnings.append(
                _("{path}: the folder could not be read ({error}); ignored").format(
                    path=folder, error=error.strerror or error
                )
            )
            return []

    def _tell_if_dangling(self, path: Path) -> None:
        """A link that leads nowhere (a loop, a deleted target) is told, not skipped."""
        if path.is_symlink() and not path.exists():
            message = _(
                "{path}:1: a link that leads nowhere (a symlink loop or a missing target); ignored"
            ).format(path=path)
            if message not in self.warnings:
                self.warnings.append(message)

    def _read_language(self, code: str, meta: Path) -> Language | None:
        """The language a `language.toml` describes, or None and a warning with its line.

        The name is shown in Settings and in notices, so it must be a name as a
        player's is (`clean_name`: no control or text-direction characters, short).
        """
        try:
            text = read_text(meta)
            data = parse_toml(text or "", meta)
        except FileProblem as problem:
            self.warnings.append(f"{problem.where}: {file_reason(problem)}")
            return None
        lines = (text or "").splitlines()
        name, voice = data.get("name"), data.get("voice")
        where = f"{meta}:{key_line(lines, 'name', 1, len(lines))}"
        if not isinstance(name, str) or not name.strip():
            self.warnings.append(
                _("{where}: name must be the language's name in quotes").format(where=where)
            )
            return None
        try:
            name = clean_name(name)
        except IllegalAction as error:
            self.warnings.append(
                _("{where}: the language's name is refused: {error}").format(
                    where=where, error=refusal(error)
                )
            )
            return None
        if not isinstance(voice, str) or not _VOICE_NAME.match(voice):
            where = f"{meta}:{key_line(lines, 'voice', 1, len(lines))}"
            self.warnings.append(
                _('{where}: voice must be an espeak-ng voice such as "fr"').format(where=where)
            )
            return None
        return Language(code, name, voice)

    def _resolve(self, code: str, name: str, folders: Sequence[Path]) -> bool:
        """Find the script `name` of `code`; True when the English one stands in for it.

        The caller tells the English stand-ins of a language in one sentence: a
        folder holding only `language.toml` is one fact, not one toast per script.
        """
        language = self.languages[code]
        for folder in folders:
            path = folder / code / f"{name}.toml"
            if not path.is_file():
                self._tell_if_dangling(path)
                continue
            try:
                self.scripts[(code, name)] = (load_script(name, path), language)
                return False
            except ScriptError as error:
                self.warnings.append(
                    _("Voice script refused (falling back): {error}").format(error=error)
                )
        if code != BASE_LANGUAGE and BASE_LANGUAGE in self.languages:
            if (BASE_LANGUAGE, name) not in self.scripts:
                self._resolve(BASE_LANGUAGE, name, folders)
            found = self.scripts.get((BASE_LANGUAGE, name))
            if found is not None:
                self.scripts[(code, name)] = found
                return True
        return False

    def get(self, lang: str, name: str) -> tuple[Script, Language] | None:
        """The script to run for `name` in `lang` (English when `lang` is unknown)."""
        found = self.scripts.get((lang, name))
        if found is None:
            found = self.scripts.get((BASE_LANGUAGE, name))
        return found

    def actions(
        self, name: str, context: Mapping[str, object], settings: VoiceSettings
    ) -> list[Action] | None:
        """The lines, waits and bed marks of one run, or None when there is no such script.

        `settings` comes whole (language, reveal, growl, ambience, passing) so a
        new timing setting is read here, not copied field by field by every caller.
        It is used as given (the narrator and the renderer clamp it first); a value
        the context names (`seconds`, `growl_seconds`, `passing_seconds`) wins.

        With `settings.ambience` False no bed mark is given and `when = "ambience"`
        steps are skipped, so the run is exactly what it was before ambience existed.
        """
        found = self.get(settings.lang, name)
        if found is None:
            return None
        script, language = found
        values = script_values(
            name, context, settings.reveal_seconds, script.conjunction, settings.growl_seconds
        )
        values["ambience"] = settings.ambience
        values.setdefault("passing_seconds", settings.passing_seconds)
        spoken = spoken_values(name, context, values, language.code, script.conjunction)
        actions: list[Action] = []
        for step in script.steps:
            if step.when is not None and not step.when.holds(values):
                continue
            if isinstance(step, Ambience):
                if settings.ambience:
                    actions.append(Bed(step.start))
                continue
            if isinstance(step, Say):
                text = " ".join(step.template.render(values).split())
                speech = " ".join(step.template.render({**values, **spoken}).split())
                if text:
                    said = speech if spoken and speech != text else ""
                    actions.append(Line(text, language.voice, language.fallback_voice, said))
            elif isinstance(step, Pause):
                if step.seconds is not None:
                    seconds = step.seconds
                else:
                    seconds = pause_seconds(values.get(step.placeholder or "", None))
                if seconds > 0:
                    actions.append(Wait(seconds))
        return _from_line(actions, context.get(FROM_LINE))


def _from_line(actions: list[Action], start: object) -> list[Action]:
    """`actions` from its line number `start` on; the bed marks before it are kept.

    The marks stay so an ambience span that began earlier still ends where it did.
    """
    if not isinstance(start, int) or isinstance(start, bool) or start <= 0:
        return actions
    kept: list[Action] = []
    lines = 0
    for action in actions:
        if isinstance(action, Line):
            lines += 1
        if lines > start or isinstance(action, Bed):
            kept.append(action)
    return kept


def user_scripts_dir(explicit: Path | None = None) -> Path:
    """The user's override folder: `--voice-scripts DIR`, else the config folder's."""
    return explicit if explicit is not None else config_dir() / "voice_scripts"


def available_languages(voice_scripts_dir: Path | None = None) -> list[Language]:
    """Languages the voice can speak (shipped plus the user's), English first."""
    library = ScriptLibrary.load(
        user_scripts_dir(voice_scripts_dir), user_dir_required=voice_scripts_dir is not None
    )
    return list(library.languages.values())
