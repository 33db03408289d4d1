"""The build's outputs, replaced as one unit: a reader of ``out/`` never sees a mix of builds.

Layout of an output folder (``out/``)::

    out/graph.ttl    -> .current/graph.ttl     (fixed symbolic links, one per output)
    out/graph.html   -> .current/graph.html
    out/report.*     -> .current/report.*
    out/.current     -> .builds/<id>           (the one link a build switches)
    out/.builds/<id>/graph.ttl …               (one complete build)
    out/.lock                                  (held while a build publishes)

A build writes every file into a new ``.builds/<id>`` folder, syncs it, then renames a new
``.current`` link over the old one: that single rename is the switch, so ``out/graph.ttl`` and
``out/report.md`` always come from the same build. A crash, a full disk or a kill at any step
leaves the previous build in place. Other files in ``out/`` (exports) are left alone.
"""

from __future__ import annotations

import errno
import fcntl
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from .errors import RulegraphError
from .i18n import _

CURRENT = ".current"
BUILDS = ".builds"
LOCK = ".lock"
#: How long a second build waits for the first one to finish publishing before it gives up.
LOCK_WAIT_SECONDS = 60.0


def _fail(error: OSError, path: Path, doing: str) -> RulegraphError:
    if error.errno == errno.ENOSPC:
        reason = "no space left on the disk"
    elif error.errno == errno.EDQUOT:
        reason = "disk quota exceeded"
    else:
        reason = error.strerror or str(error)
    return RulegraphError(_('cannot {doing} ({reason}); out/ was left as it was: free space or choose another --out').format(doing=doing, reason=reason),
                          path=path)


class OutputLock:
    """An exclusive lock on an output folder: a second build waits, then refuses clearly."""

    def __init__(self, folder: Path, wait: float = LOCK_WAIT_SECONDS):
        self.path = folder / LOCK
        self.wait = wait
        self._handle: int | None = None

    def __enter__(self) -> OutputLock:
        try:
            self._handle = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
        except OSError as error:
            raise _fail(error, self.path.parent, "write here") from None
        deadline = time.monotonic() + self.wait
        while True:
            try:
                fcntl.flock(self._handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return self
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(self._handle)
                    self._handle = None
                    raise RulegraphError(
                        _('another rulegraph build has been writing this folder for over {wait:.0f} s; wait for it to finish or choose another --out').format(wait=self.wait), path=self.path.parent) from None
                time.sleep(0.05)

    def __exit__(self, *exc: object) -> None:
        if self._handle is not None:
            fcntl.flock(self._handle, fcntl.LOCK_UN)
            os.close(self._handle)
            self._handle = None


def _is_managed(link: Path, name: str) -> bool:
    return link.is_symlink() and os.readlink(link) == os.path.join(CURRENT, name)


def _replace_link(target: str, link: Path) -> None:
    """Point ``link`` at ``target`` in one rename (a new link beside it, renamed over it)."""
    temporary = link.with_name(f".{link.name}.{os.getpid()}.link")
    temporary.unlink(missing_ok=True)
    os.symlink(target, temporary)
    try:
        os.replace(temporary, link)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _fsync_folder(folder: Path) -> None:
    handle = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def _write_version(builds: Path, files: Mapping[str, bytes]) -> Path:
    """A new complete build folder; removed again if anything fails."""
    version = Path(tempfile.mkdtemp(prefix="build-", dir=builds))
    try:
        for name, data in files.items():
            with open(version / name, "wb") as stream:
                stream.write(data)
                stream.flush()
                os.fsync(stream.fileno())
            os.chmod(version / name, 0o644)
        os.chmod(version, 0o755)
        _fsync_folder(version)
    except BaseException:
        shutil.rmtree(version, ignore_errors=True)
        raise
    return version


def _adopt_previous(folder: Path, builds: Path, names: list[str]) -> None:
    """Bring outputs of an older layout (plain files) under ``.current`` without changing what a
    reader sees: the old files are linked into a build folder first, then each plain file is
    replaced by a link that shows the same bytes. A kill in between leaves the old contents."""
    current = folder / CURRENT
    old = Path(tempfile.mkdtemp(prefix="build-", dir=builds))
    try:
        for name in names:
            path = folder / name
            shown = path if not _is_managed(path, name) else current / name
            if shown.is_file():
                try:
                    os.link(shown, old / name, follow_symlinks=True)
                except OSError:
                    shutil.copy2(shown, old / name)
        _fsync_folder(old)
    except BaseException:
        shutil.rmtree(old, ignore_errors=True)
        raise
    _replace_link(os.path.join(BUILDS, old.name), current)
    for name in names:
        if not _is_managed(folder / name, name):
            _replace_link(os.path.join(CURRENT, name), folder / name)


def publish(folder: Path, files: Mapping[str, str | bytes], *, lock_wait: float = LOCK_WAIT_SECONDS,
            under_lock: Callable[[], object] | None = None) -> list[Path]:
    """Write ``files`` (name → content) into ``folder`` as one unit, under the folder's lock;
    ``under_lock`` runs after the switch, still holding it (the build swaps its store there)."""
    data = {name: content.encode("utf-8") if isinstance(content, str) else content for name, content in files.items()}
    names = sorted(data)
    for name in names:
        path = folder / name
        if path.is_dir() and not path.is_symlink():
            raise RulegraphError(_('is a folder where the build writes a file; move it away or choose another --out'),
                                 path=path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise RulegraphError(_('cannot write here ({strerror}); choose another --out').format(strerror=error.strerror or error), path=folder) from None
    with OutputLock(folder, wait=lock_wait):
        builds = folder / BUILDS
        try:
            builds.mkdir(exist_ok=True)
            _remove_stale(folder, builds, keep=None)
            if not all(_is_managed(folder / name, name) for name in names) or not (folder / CURRENT).is_symlink():
                _adopt_previous(folder, builds, names)
            version = _write_version(builds, data)
            _replace_link(os.path.join(BUILDS, version.name), folder / CURRENT)
            _fsync_folder(folder)
        except OSError as error:
            raise _fail(error, folder, "write the outputs") from None
        _remove_stale(folder, builds, keep=version.name)
        if under_lock is not None:
            under_lock()
    return [folder / name for name in names]


def _remove_stale(folder: Path, builds: Path, keep: str | None) -> None:
    """Build folders no link points at: older builds and leftovers of an interrupted one."""
    current = folder / CURRENT
    shown = os.path.basename(os.readlink(current)) if current.is_symlink() else None
    for child in builds.iterdir():
        if child.name not in (shown, keep):
            shutil.rmtree(child, ignore_errors=True)
    for leftover in folder.glob(".*.link"):
        leftover.unlink(missing_ok=True)
