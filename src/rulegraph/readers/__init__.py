"""One reader per input format; :data:`FORMATS` is the one explicit list of them.

Each reader module has ``parse(text, *, source, game, options)`` returning a
:class:`~rulegraph.model.Document`; :func:`read` does the file handling for all of them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import RulegraphError
from ..model import Document
from . import chapter, compendium, csv_table, json_glossary, markdown

FORMATS = {
    "chapter": chapter,
    "csv": csv_table,
    "compendium": compendium,
    "markdown": markdown,
    "json": json_glossary,
}

_SUFFIXES = {".csv": "csv", ".md": "markdown", ".markdown": "markdown", ".json": "json"}


def read_text(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        raise RulegraphError("file not found; check the path", path=path) from None
    except IsADirectoryError:
        raise RulegraphError("is a folder, not a glossary file", path=path) from None
    except PermissionError:
        raise RulegraphError("cannot be read (permission denied)", path=path) from None
    except UnicodeDecodeError as error:
        line = path.read_bytes()[: error.start].count(b"\n") + 1
        raise RulegraphError("is not UTF-8 text; save it as UTF-8", path=path, line=line) from None


def detect_format(path: Path, text: str) -> str:
    """Guess a file's format from its suffix, then from its first lines."""
    if path.suffix.lower() in _SUFFIXES:
        return _SUFFIXES[path.suffix.lower()]
    lines = [line for line in text.splitlines() if line.strip()]
    if lines and lines[0].count(";") >= 1 and len(lines) > 1 and all(";" in line for line in lines[1:3]):
        return "csv"
    if any(line.startswith("### ") or line.startswith("## ") for line in lines):
        return "markdown"
    if any(chapter.ENTRY_HEADER.match(line) for line in lines):
        return "chapter"
    raise RulegraphError(
        f"cannot tell the format; give one with --format ({', '.join(FORMATS)})", path=path, line=1
    )


def read(path: Path, *, source: str, game: str, format: str | None = None, options: dict[str, Any] | None = None) -> Document:
    """Read one glossary file with the reader for its format."""
    text = read_text(path)
    fmt = format or detect_format(path, text)
    if fmt not in FORMATS:
        raise RulegraphError(f"unknown format {fmt!r}; use one of: {', '.join(FORMATS)}", path=path)
    return FORMATS[fmt].parse(text, source=source, game=game, options=options or {})
