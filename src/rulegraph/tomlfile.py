"""TOML files a designer writes (manifest, lexicons, curation, cues): read them, and point every
problem at a line, since a TOML parser alone only locates syntax errors."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import RulegraphError
from .i18n import _
from .text import editor_lines

#: Value kinds a key may require: what to write in the error message, and the check.
KINDS = {
    "text": ("a quoted text", lambda v: isinstance(v, str)),
    "char": ("one character in quotes", lambda v: isinstance(v, str) and len(v) == 1),
    "texts": ("a list of quoted texts", lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v)),
    "table": ("a table of quoted texts", lambda v: isinstance(v, dict) and all(isinstance(x, str) for x in v.values())),
    "aliases": ("a table of lists of quoted texts", lambda v: isinstance(v, dict) and all(
        isinstance(x, list) and all(isinstance(y, str) for y in x) for x in v.values())),
    "number": ("a number", lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)),
    "flag": ("true or false", lambda v: isinstance(v, bool)),
}


@dataclass(frozen=True, slots=True)
class TomlFile:
    path: Path
    text: str
    data: dict[str, Any]

    def table_lines(self, name: str) -> list[int]:
        """The line of each ``name`` table, in order: its ``[[name]]`` header, or for the inline
        form ``name = [{…}, {…}]`` the line of the key, for every table it holds."""
        pattern = re.compile(rf"^\s*\[\[\s*{re.escape(name)}\s*\]\]")
        lines = [n for n, line in enumerate(editor_lines(self.text), 1) if pattern.match(line)]
        items = self.data.get(name)
        if isinstance(items, list) and len(lines) < len(items):
            lines += [self.key_line(name)] * (len(items) - len(lines))
        return lines

    def key_line(self, key: str, start: int = 0) -> int:
        """The line of ``key = …`` (or ``[….key]``) after ``start`` and before the next ``[[`` table."""
        lines = editor_lines(self.text)
        for number in range(start + 1, len(lines) + 1):
            line = lines[number - 1].strip()
            if number > start + 1 and line.startswith("[[") and start:
                break
            if re.match(rf"^\"?{re.escape(key)}\"?\s*=", line) or re.match(rf"^\[[\w.]*\b{re.escape(key)}\]$", line):
                return number
        return start or 1

    def error(self, message: str, *, key: str | None = None, start: int = 0) -> RulegraphError:
        return RulegraphError(message, path=self.path, line=self.key_line(key, start) if key else (start or 1))

    def check(self, raw: dict[str, Any], schema: dict[str, str], *, start: int = 0, where: str = "") -> None:
        """Unknown keys and values of the wrong kind are errors at their line."""
        for key, value in raw.items():
            if key not in schema:
                allowed = ", ".join(sorted(schema))
                raise self.error(f"unknown key {key!r}{where}; allowed: {allowed}", key=key, start=start)
            description, valid = KINDS[schema[key]]
            if not valid(value):
                raise self.error(f"{key} must be {description}{where}", key=key, start=start)


def parse_toml(text: str, path: Path) -> TomlFile:
    """Parse TOML text read from ``path``; a syntax error names its line."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = re.search(r"line (\d+)", str(error))
        number = int(line.group(1)) if line else max(1, len(editor_lines(text)))  # "at end of document"
        raise RulegraphError(_('invalid TOML: {error}').format(error=error), path=path, line=number) from None
    return TomlFile(Path(path), text, data)


def load_toml(path: Path, *, what: str = "TOML file") -> TomlFile:
    """Read a UTF-8 TOML file; an unreadable file or a syntax error names the file and line."""
    from .files import read_text

    return parse_toml(read_text(path, what=what), path)
