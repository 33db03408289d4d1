"""One reader per input format; :data:`FORMATS` is the one explicit list of them.

Each reader module has ``parse(text, *, source, game, options)`` returning a
:class:`~rulegraph.model.Document`; :func:`read` does the file handling for all of them. A
reader of a binary format (``BINARY = True``: Word, OpenDocument, PDF) gets the file's bytes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import RulegraphError
from ..files import MAX_FILE_MB, read_bytes, read_text
from ..i18n import _
from ..model import Document
from ..text import editor_lines
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


def detect_format(path: Path, text: str) -> str:
    """Guess a file's format from its suffix, then from its first lines."""
    if path.suffix.lower() in _SUFFIXES:
        return _SUFFIXES[path.suffix.lower()]
    lines = [line for line in editor_lines(text) if line.strip()]
    if lines and lines[0].count(";") >= 1 and len(lines) > 1 and all(";" in line for line in lines[1:3]):
        return "csv"
    if any(line.startswith("### ") or line.startswith("## ") for line in lines):
        return "markdown"
    capitals, colons = chapter.entry_openers(editor_lines(text))
    if any(chapter.ENTRY_HEADER.match(line) for line in lines) or len(capitals) >= 2 or colons:
        return "chapter"
    raise RulegraphError(
        _('cannot tell the format; give one with --format ({formats})').format(formats=', '.join(FORMATS)), path=path, line=1
    )


def read(path: Path, *, source: str, game: str, format: str | None = None, options: dict[str, Any] | None = None,
         max_mb: float = MAX_FILE_MB) -> Document:
    """Read one glossary file with the reader for its format."""
    fmt = format or _SUFFIXES.get(path.suffix.lower())
    if fmt is not None and fmt not in FORMATS:
        raise RulegraphError(_('unknown format {fmt!r}; use one of: {formats}').format(fmt=fmt, formats=', '.join(FORMATS)), path=path)
    if fmt is not None and getattr(FORMATS[fmt], "BINARY", False):
        return FORMATS[fmt].parse(read_bytes(path, max_mb=max_mb), source=source, game=game, options=options or {})
    text = read_text(path, max_mb=max_mb, windows=True)
    fmt = fmt or detect_format(path, text)
    return FORMATS[fmt].parse(text, source=source, game=game, options=options or {})
