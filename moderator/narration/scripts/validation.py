"""Turning one voice-script file into checked data, or a message with file and line.

Voice scripts are edited by players in a text editor, so every mistake must be
reported where it is (`reveal.toml:12: ...`) and must never reach the speech
code: a file either validates completely or is refused as a whole (the loader
then falls back to the shipped script). The file is read and parsed by
`moderator.safe_input` (any content is a problem with its line, never an
exception); the stdlib TOML parser does not report where values are, so step
lines are found by scanning for the `[[step]]` headers, which is exact for the
documented format.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from moderator.domain.names import BIDI_CONTROLS
from moderator.domain.setup_checklist import COUNT_FIELDS, SYMBOLS_FIELD
from moderator.i18n import _
from moderator.narration.scripts.context import (
    TABLE_STATE_CONDITIONS,
    TABLE_STATE_FIELDS,
    TAKING_PART_CONDITIONS,
)
from moderator.narration.scripts.rule_counts import check_rule_counts
from moderator.narration.scripts.steps import (
    Ambience,
    Condition,
    Pause,
    Problem,
    Say,
    Script,
    ScriptError,
    Step,
)
from moderator.narration.scripts.templates import TemplateError, parse_template
from moderator.narration.scripts.whole_script import check_whole
from moderator.narration.settings import MAX_PAUSE_SECONDS
from moderator.safe_input import FileProblem, parse_toml, read_text

#: Longest line a script may speak; longer is surely pasted by mistake.
MAX_LINE_CHARS = 600
MAX_STEPS = 200
STEP_KINDS = ("say", "pause", "ambience")
STEP_KEYS = frozenset({"say", "pause", "ambience", "when"})
#: Values of an `ambience = "..."` step: the bed starts or stops there.
AMBIENCE_VALUES = ("start", "stop")
TOP_LEVEL_KEYS = frozenset({"step", "and"})


@dataclass(frozen=True)
class ScriptSpec:
    """What a script may use: its placeholders, pause placeholders and conditions."""

    name: str
    placeholders: frozenset[str]
    #: Placeholders holding a number of seconds, usable as `pause = "{seconds}"`.
    numeric: frozenset[str] = frozenset()
    #: Flags usable in `when = "flag"` or `when = "not flag"`.
    conditions: frozenset[str] = frozenset()
    #: The numeric placeholder of the one eyes-open window the script must pause for.
    window: str | None = None


SPECS: Mapping[str, ScriptSpec] = {
    spec.name: spec
    for spec in (
        ScriptSpec(
            "setup",
            frozenset({*COUNT_FIELDS, SYMBOLS_FIELD}),
            conditions=frozenset({"reveal", "cards_back_in_box"}),
        ),
        ScriptSpec(
            "reveal",
            frozenset({"seconds"}),
            numeric=frozenset({"seconds"}),
            conditions=frozenset({"ambience"}),
            window="seconds",
        ),
        ScriptSpec(
            "meeting",
            frozenset({"meeting", "meetings", "passing_seconds", "taking_part"}),
            numeric=frozenset({"passing_seconds"}),
            conditions=frozenset({"last_meeting", "ambience", *TAKING_PART_CONDITIONS}),
        ),
        ScriptSpec("knockout", frozenset({"player"})),
        ScriptSpec("finale", frozenset({"growl_seconds"}), numeric=frozenset({"growl_seconds"})),
        ScriptSpec("series_winner", frozenset({"players"})),
        ScriptSpec("turn", frozenset({"player"})),
        # The rules in short, from the setup screen (no placeholders, no conditions).
        ScriptSpec("how_to_play", frozenset()),
        # Where the game stands, on demand (the table's public state, never a role).
        ScriptSpec(
            "table_state",
            frozenset(TABLE_STATE_FIELDS),
            conditions=frozenset(TABLE_STATE_CONDITIONS),
        ),
    )
}
SCRIPT_NAMES: tuple[str, ...] = tuple(SPECS)


_STEP_HEADER = re.compile(r"^\s*\[\[\s*step\s*\]\]")


def load_script(name: str, path: Path) -> Script:
    """Read and validate `path` as the script `name`.

    Raises:
        ScriptError: unreadable file, bad TOML, or any invalid step.
    """
    try:
        text = read_text(path)
    except FileProblem as problem:
        raise _refused(problem) from problem
    if text is None:
        raise ScriptError([Problem(path, 1, _("the file is missing"))])
    return parse_script(name, text, path)


def _refused(problem: FileProblem) -> ScriptError:
    """A file that could not be read or parsed, at its line (the first when unknown)."""
    return ScriptError([Problem(problem.path, problem.line or 1, file_reason(problem))])


def parse_script(name: str, text: str, path: Path) -> Script:
    """Validate the TOML `text` of script `name`; `path` is only used in messages."""
    spec = SPECS.get(name)
    if spec is None:
        known = ", ".join(SCRIPT_NAMES)
        raise ScriptError(
            [
                Problem(
                    path,
                    1,
                    _("unknown script {name!r} (known: {known})").format(name=name, known=known),
                )
            ]
        )
    try:
        document = parse_toml(text, path)
    except FileProblem as problem:
        raise _refused(problem) from problem

    problems: list[Problem] = []
    source_lines = text.splitlines()
    headers = [i + 1 for i, line in enumerate(source_lines) if _STEP_HEADER.match(line)]

    for key in document:
        if key not in TOP_LEVEL_KEYS:
            problems.append(
                Problem(
                    path,
                    key_line(source_lines, key, 1, len(source_lines)),
                    _(
                        "unknown key {key!r}; a script has [[step]] tables (and optionally 'and')"
                    ).format(key=key),
                )
            )
    conjunction = document.get("and", "and")
    if not isinstance(conjunction, str) or not conjunction.strip() or _control_in(conjunction):
        problems.append(
            Problem(
                path,
                key_line(source_lines, "and", 1, len(source_lines)),
                _("'and' must be a word, e.g. and = \"et\""),
            )
        )
        conjunction = "and"

    raw_steps = document.get("step")
    steps: list[Step] = []
    if not isinstance(raw_steps, list) or not raw_steps:
        problems.append(
            Problem(path, 1, _("no steps: add [[step]] tables with say = ... or pause = ..."))
        )
    elif len(raw_steps) > MAX_STEPS:
        too_many = _("too many steps ({count}, at most {most})")
        problems.append(Problem(path, 1, too_many.format(count=len(raw_steps), most=MAX_STEPS)))
    else:
        for index, raw in enumerate(raw_steps):
            start = headers[index] if index < len(headers) else 1
            end = headers[index + 1] - 1 if index + 1 < len(headers) else len(source_lines)
            step = _parse_step(spec, raw, path, source_lines, start, end, problems)
            if step is not None:
                steps.append(step)
        if not problems:  # each step is valid: check them together
            problems += check_whole(steps, spec.window, path)
            problems += check_rule_counts(name, steps, path)
    if problems:
        raise ScriptError(problems)
    return Script(name, tuple(steps), path, conjunction.strip())


def _parse_step(
    spec: ScriptSpec,
    raw: object,
    path: Path,
    source_lines: Sequence[str],
    start: int,
    end: int,
    problems: list[Problem],
) -> Step | None:
    if not isinstance(raw, dict):
        problems.append(Problem(path, start, _("a step must be a table")))
        return None
    before = len(problems)
    unknown = sorted(set(raw) - STEP_KEYS)
    for key in unknown:
        problems.append(
            Problem(
                path,
                key_line(source_lines, key, start, end),
                _(
                    'unknown step kind {key!r}; a step is say = "text", pause = seconds '
                    'or ambience = "start"/"stop"'
                ).format(key=key),
            )
        )
    kinds = [kind for kind in STEP_KINDS if kind in raw]
    if len(kinds) != 1:
        if not unknown:
            problems.append(
                Problem(
                    path,
                    start,
                    _(
                        'a step needs exactly one of say = "text", pause = seconds '
                        'or ambience = "start"/"stop"'
                    ),
                )
            )
        return None

    when = _parse_when(
        spec, raw.get("when"), path, key_line(source_lines, "when", start, end), problems
    )
    kind = kinds[0]
    line = key_line(source_lines, kind, start, end)
    value = raw[kind]
    step: Step | None
    if kind == "say":
        step = _parse_say(spec, value, when, path, line, problems)
    elif kind == "ambience":
        step = None
        if value in AMBIENCE_VALUES:
            step = Ambience(value == "start", when, line)
        else:
            problems.append(
                Problem(
                    path,
                    line,
                    _('ambience must be "start" or "stop", not {value!r}').format(value=value),
                )
            )
    else:
        step = _parse_pause(spec, value, when, path, line, problems)
    return step if len(problems) == before else None


def _parse_say(
    spec: ScriptSpec,
    value: object,
    when: Condition | None,
    path: Path,
    line: int,
    problems: list[Problem],
) -> Say | None:
    if not isinstance(value, str) or not value.strip():
        problems.append(Problem(path, line, _("say must be some text in quotes")))
        return None
    if len(value) > MAX_LINE_CHARS:
        too_long = _("line too long ({length} > {most})")
        problems.append(
            Problem(path, line, too_long.format(length=len(value), most=MAX_LINE_CHARS))
        )
        return None
    hidden = _control_in(value)
    if hidden is not None:
        hides = _("say holds a control character ({hidden}); remove it")
        problems.append(Problem(path, line, hides.format(hidden=hidden)))
        return None
    try:
        template = parse_template(value)
    except TemplateError as error:
        problems.append(Problem(path, line, str(error)))
        return None
    for unknown in sorted(template.names - spec.placeholders):
        problems.append(Problem(path, line, _unknown_placeholder(spec, unknown)))
    return Say(template, when, line)


def _parse_pause(
    spec: ScriptSpec,
    value: object,
    when: Condition | None,
    path: Path,
    line: int,
    problems: list[Problem],
) -> Pause | None:
    if isinstance(value, bool):
        problems.append(Problem(path, line, _("pause must be a number of seconds")))
        return None
    if isinstance(value, int | float):
        # Compared before any arithmetic: `float()` of a 400-digit integer raises
        # OverflowError, and printing one of 5,000 digits raises ValueError.
        if (isinstance(value, float) and math.isnan(value)) or value <= 0:
            not_positive = _("pause must be more than 0 seconds, not {value}")
            problems.append(Problem(path, line, not_positive.format(value=_shown(value))))
            return None
        if value > MAX_PAUSE_SECONDS:
            problems.append(
                Problem(
                    path,
                    line,
                    _("pause of {value} s is absurd (at most {most:g})").format(
                        value=_shown(value), most=MAX_PAUSE_SECONDS
                    ),
                )
            )
            return None
        return Pause(float(value), None, when, line)
    if isinstance(value, str):
        try:
            template = parse_template(value)
        except TemplateError as error:
            problems.append(Problem(path, line, str(error)))
            return None
        names = [name for _, name in template.parts if name is not None]
        literal = "".join(text for text, _ in template.parts).strip()
        if len(names) == 1 and not literal:
            name = names[0]
            if name in spec.numeric:
                return Pause(None, name, when, line)
            if name not in spec.placeholders:
                problems.append(Problem(path, line, _unknown_placeholder(spec, name)))
                return None
        allowed = ", ".join(f'"{{{n}}}"' for n in sorted(spec.numeric)) or _("none in this script")
        one_of = _("pause must be a number of seconds or one of: {allowed}")
        problems.append(Problem(path, line, one_of.format(allowed=allowed)))
        return None
    problems.append(Problem(path, line, _("pause must be a number of seconds")))
    return None


def _shown(value: int | float) -> str:
    """A number as a message quotes it: a huge integer as its order of magnitude.

    `str()` of an integer of more than 4,300 digits raises ValueError.
    """
    if isinstance(value, float) or abs(value) < 10**15:
        return str(value)
    digits = int(abs(value).bit_length() * math.log10(2))
    return f"{'-' if value < 0 else ''}~1e{digits}"


def _parse_when(
    spec: ScriptSpec, value: object, path: Path, line: int, problems: list[Problem]
) -> Condition | None:
    if value is None:
        return None
    if isinstance(value, str):
        words = value.split()
        negated = len(words) == 2 and words[0] == "not"
        flag = words[-1] if words and (len(words) == 1 or negated) else ""
        if flag in spec.conditions:
            return Condition(flag, negated)
    allowed = ", ".join(sorted(spec.conditions)) or _("none in this script")
    problems.append(
        Problem(
            path,
            line,
            _(
                "when = {value!r} is not a known condition (known: {allowed}; "
                "prefix with 'not ' to invert)"
            ).format(value=value, allowed=allowed),
        )
    )
    return None


def _control_in(text: str) -> str | None:
    """The first control or text-direction character of `text` (as U+ and four hex digits), or None.

    A line is shown as a caption: TOML escapes such as `\\u001b` would reach the
    terminal (ESC) or turn the text around (a right-to-left override). Breaks and
    tabs are only spacing (the caption joins the words).
    """
    for ch in text:
        if ch in BIDI_CONTROLS or (unicodedata.category(ch) == "Cc" and ch not in "\t\n\r"):
            return f"U+{ord(ch):04X}"
    return None


def _unknown_placeholder(spec: ScriptSpec, name: str) -> str:
    known = ", ".join(f"{{{n}}}" for n in sorted(spec.placeholders)) or _("none")
    return _("unknown placeholder {{{name}}} in the {script} script (known: {known})").format(
        name=name, script=spec.name, known=known
    )


def file_reason(problem: FileProblem) -> str:
    """ "the file …" and why, in the screen's language (the path is the Problem's)."""
    return _("the file {reason}").format(reason=problem.reason_in(_))


def key_line(source_lines: Sequence[str], key: str, start: int, end: int) -> int:
    """The line of `key = ...` between lines `start` and `end` (1-based), else `start`."""
    pattern = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=")
    for number in range(max(start, 1), min(end, len(source_lines)) + 1):
        if pattern.match(source_lines[number - 1]):
            return number
    return max(start, 1)
