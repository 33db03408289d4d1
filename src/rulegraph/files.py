"""Reading one input file safely: a regular file, of bounded size, UTF-8 when it is text. Every
reader, the manifest and the TOML files go through here, so a bad path gets the same one-line
error everywhere."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .errors import RulegraphError
from .i18n import _
from .text import line_at

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


def read_text(path: Path, *, what: str = "glossary file", max_mb: float = MAX_FILE_MB, windows: bool = False) -> str:
    """A UTF-8 text file (a byte-order mark is dropped); with ``windows``, else a Windows-1252
    one, as Excel and older word processors on a French Windows save a user's glossary. A file
    that is neither is an error naming the line where UTF-8 decoding failed."""
    data = read_bytes(path, what=what, max_mb=max_mb)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        if windows:
            try:
                return data.decode("cp1252")
            except UnicodeDecodeError:
                pass
        before = data[: error.start].decode("utf-8", errors="replace")
        line = line_at(before, len(before))
        message = _('is neither UTF-8 nor Windows-1252 text; save it as UTF-8') if windows else _('is not UTF-8 text; save it as UTF-8')
        raise RulegraphError(message, path=path, line=line) from None
