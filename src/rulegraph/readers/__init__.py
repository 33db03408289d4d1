"""One reader per input format; :data:`FORMATS` is the one explicit list of them.

Each reader module has ``parse(text, *, source, game, options)`` returning a
:class:`~rulegraph.model.Document`; :func:`read` does the file handling for all of them. A
reader of a binary format (``BINARY = True``: Word, OpenDocument, PDF) gets the file's bytes.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Any

from ..errors import RulegraphError
from ..i18n import _
from ..model import Document
from ..text import editor_lines, line_at
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


#: The largest file read unless the user raises it (``--max-size``): glossaries are a few hundred
#: kilobytes, and a larger input only makes a build slow or runs it out of memory.
MAX_FILE_MB = 20


def read_bytes(path: Path, *, what: str = "glossary file", max_mb: float = MAX_FILE_MB) -> bytes:
    """The bytes of a regular file of at most ``max_mb`` megabytes. Devices (``/dev/zero``), pipes
    (a FIFO would block forever) and sockets are refused before anything is read."""
    limit = int(max_mb * 1024 * 1024)
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise RulegraphError(_('file not found; check the path'), path=path) from None
    except PermissionError:
        raise RulegraphError(_('cannot be read (permission denied)'), path=path) from None
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise RulegraphError(_('is a loop of symbolic links; point the path at a real file'), path=path) from None
        raise RulegraphError(_('cannot be read ({strerror})').format(strerror=error.strerror or error), path=path) from None
    mode = os.fstat(handle).st_mode
    if not stat.S_ISREG(mode):
        os.close(handle)
        if stat.S_ISDIR(mode):
            raise RulegraphError(_('is a folder, not a {what}').format(what=what), path=path)
        raise RulegraphError(_('is not a regular file (a device, pipe or socket); give a {what}').format(what=what), path=path)
    with os.fdopen(handle, "rb") as stream:
        try:
            data = stream.read(limit + 1)
        except OSError as error:
            raise RulegraphError(_('cannot be read ({strerror})').format(strerror=error.strerror or error), path=path) from None
    if len(data) > limit:
        raise RulegraphError(_('is larger than {max_mb:g} MB, the limit for a {what}; if it is right, raise the limit with --max-size MB').format(max_mb=max_mb, what=what), path=path)
    return data


def read_text(path: Path, *, what: str = "glossary file", max_mb: float = MAX_FILE_MB) -> str:
    """A UTF-8 text file (a byte-order mark is dropped); a decoding error names its line."""
    data = read_bytes(path, what=what, max_mb=max_mb)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        before = data[: error.start].decode("utf-8", errors="replace")
        line = line_at(before, len(before))
        raise RulegraphError(_('is not UTF-8 text; save it as UTF-8'), path=path, line=line) from None


def detect_format(path: Path, text: str) -> str:
    """Guess a file's format from its suffix, then from its first lines."""
    if path.suffix.lower() in _SUFFIXES:
        return _SUFFIXES[path.suffix.lower()]
    lines = [line for line in editor_lines(text) if line.strip()]
    if lines and lines[0].count(";") >= 1 and len(lines) > 1 and all(";" in line for line in lines[1:3]):
        return "csv"
    if any(line.startswith("### ") or line.startswith("## ") for line in lines):
        return "markdown"
    if any(chapter.ENTRY_HEADER.match(line) for line in lines):
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
    text = read_text(path, max_mb=max_mb)
    fmt = fmt or detect_format(path, text)
    return FORMATS[fmt].parse(text, source=source, game=game, options=options or {})
