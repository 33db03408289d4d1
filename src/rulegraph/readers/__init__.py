"""One reader per input format; :data:`FORMATS` is the one explicit list of them.

Each reader module has ``parse(text, *, source, game, options)`` returning a
:class:`~rulegraph.model.Document`; :func:`read` does the file handling for all of them. A
reader of a binary format (``BINARY = True``: Word, OpenDocument, PDF) gets the file's bytes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import RulegraphError
from ..model import Document
from . import chapter, compendium, csv_table, json_glossary, markdown, odt, pdf, word

FORMATS = {
    "chapter": chapter,
    "csv": csv_table,
    "compendium": compendium,
    "markdown": markdown,
    "json": json_glossary,
    "docx": word,
    "odt": odt,
    "pdf": pdf,
}

_SUFFIXES = {
    ".csv": "csv", ".md": "markdown", ".markdown": "markdown", ".json": "json",
    ".docx": "docx", ".odt": "odt", ".pdf": "pdf",
}


def read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise RulegraphError("file not found; check the path", path=path) from None
    except IsADirectoryError:
        raise RulegraphError("is a folder, not a glossary file", path=path) from None
    except PermissionError:
        raise RulegraphError("cannot be read (permission denied)", path=path) from None


def read_text(path: Path) -> str:
    data = read_bytes(path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
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
    fmt = format or _SUFFIXES.get(path.suffix.lower())
    if fmt is not None and fmt not in FORMATS:
        raise RulegraphError(f"unknown format {fmt!r}; use one of: {', '.join(FORMATS)}", path=path)
    if fmt is not None and getattr(FORMATS[fmt], "BINARY", False):
        return FORMATS[fmt].parse(read_bytes(path), source=source, game=game, options=options or {})
    text = read_text(path)
    fmt = fmt or detect_format(path, text)
    return FORMATS[fmt].parse(text, source=source, game=game, options=options or {})
