"""A game's extracted statements kept on disk, so that rebuilding a game whose texts did not
change skips its extraction (a third of a small build, most of a large one).

An entry is keyed by everything extraction reads: the game's documents as read, its lexicon
file, the cues, the installed rulegraph (every file of the package, by size and modification
time: code, word lists, the shipped typer), the French parser's version and the French word
list's. A change to any of them is another key, so a stale entry is never read; old entries are
pruned, least recently used first. An unwritable cache folder only costs speed.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from functools import cache
from pathlib import Path

from ..corpus import Corpus
from ..model import Statement
from ..text import cache_folder
from .analysis import model_id
from .cues import Cue

#: Entries kept; the least recently used beyond this are removed.
KEEP = 256
_SUFFIX = ".pickle"


class ExtractionCache:
    """Statements per game, in ``folder`` (None: no cache)."""

    def __init__(self, folder: Path | None):
        self.folder = folder

    @classmethod
    def default(cls) -> ExtractionCache:
        return cls(cache_folder() / "extractions")

    def key(self, corpus: Corpus, game: str, cues: list[Cue]) -> str:
        spec = corpus.games[game]
        documents = [document for document in corpus.documents if document.game == game]
        digest = hashlib.sha256(_environment().encode())
        digest.update(pickle.dumps((spec, documents, cues), protocol=pickle.HIGHEST_PROTOCOL))
        if spec.lexicon is not None:
            try:
                digest.update(Path(spec.lexicon).read_bytes())
            except OSError:
                digest.update(b"\0unreadable lexicon")
        return digest.hexdigest()

    def get(self, key: str) -> list[Statement] | None:
        if self.folder is None:
            return None
        path = self.folder / f"{key}{_SUFFIX}"
        try:
            statements = pickle.loads(path.read_bytes())
            os.utime(path)
        except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, TypeError, ValueError):
            return None
        return statements if isinstance(statements, list) else None

    def put(self, key: str, statements: list[Statement]) -> None:
        if self.folder is None:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.folder, prefix=".", suffix=".tmp")
            with os.fdopen(handle, "wb") as stream:
                pickle.dump(statements, stream, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, self.folder / f"{key}{_SUFFIX}")
            self._prune()
        except OSError:
            self.folder = None

    def _prune(self) -> None:
        assert self.folder is not None
        entries = sorted(self.folder.glob(f"*{_SUFFIX}"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for stale in entries[KEEP:]:
            stale.unlink(missing_ok=True)


@cache
def _environment() -> str:
    """What extraction depends on besides its input: the package's files, the parser, the word
    list, the Python that pickles."""
    from importlib.metadata import PackageNotFoundError, version

    root = Path(__file__).resolve().parents[1]
    stamps = []
    for folder, _dirs, names in sorted(os.walk(root)):
        if "__pycache__" in folder:
            continue
        for name in sorted(names):
            stat = os.stat(os.path.join(folder, name))
            stamps.append(f"{os.path.relpath(os.path.join(folder, name), root)}:{stat.st_size}:{stat.st_mtime_ns}")
    try:
        words = version("pyspellchecker")
    except PackageNotFoundError:
        words = "unknown"
    return "\n".join([model_id(), words, f"{sys.version_info[0]}.{sys.version_info[1]}", *stamps])
