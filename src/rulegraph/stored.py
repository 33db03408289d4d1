"""What is slow to compute and the same on every run, kept on disk in the cache folder and read
back when nothing it depends on has changed: a game's extracted statements (a third of a small
build, most of a large one) and the SHACL validation of a graph (on a second core, but the core
the store and the outputs could use).

Every entry is keyed by what it depends on, always including the installed rulegraph (every
file of the package, by size and modification time: code, word lists, shapes, the shipped typer)
and the versions of the French parser and word list: a change to any of them is another key, so
a stale entry is never read. Old entries are pruned, least recently used first. An unwritable
cache folder only costs speed.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .text import cache_folder

if TYPE_CHECKING:
    from .corpus import Corpus
    from .extract.cues import Cue
    from .model import Statement

#: Entries kept; the least recently used beyond this are removed.
KEEP = 256
_SUFFIX = ".pickle"


class PickleCache:
    """Values by key, in ``folder`` (None: no cache); the ``keep`` most recently used stay."""

    def __init__(self, folder: Path | None, keep: int = KEEP):
        self.folder = folder
        self.keep = keep

    @staticmethod
    def key(*parts: object) -> str:
        """A key for ``parts`` (bytes or picklable values) and the installed rulegraph."""
        digest = hashlib.sha256(_environment().encode())
        for part in parts:
            digest.update(part if isinstance(part, bytes) else pickle.dumps(part, protocol=pickle.HIGHEST_PROTOCOL))
        return digest.hexdigest()

    def get(self, key: str) -> Any:
        """The value kept under ``key``; None when there is none or it cannot be read."""
        if self.folder is None:
            return None
        path = self.folder / f"{key}{_SUFFIX}"
        try:
            value = pickle.loads(path.read_bytes())
        except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, TypeError, ValueError):
            return None
        try:
            os.utime(path)  # recently used: pruned last
        except OSError:
            pass  # a read-only cache still answers
        return value

    def put(self, key: str, value: object) -> None:
        if self.folder is None:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.folder, prefix=".", suffix=".tmp")
        except OSError:
            self.folder = None
            return
        try:
            with os.fdopen(handle, "wb") as stream:
                pickle.dump(value, stream, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, self.folder / f"{key}{_SUFFIX}")
            self._prune()
        except OSError:
            Path(temporary).unlink(missing_ok=True)
            self.folder = None
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def _prune(self) -> None:
        assert self.folder is not None
        entries = sorted(self.folder.glob(f"*{_SUFFIX}"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for stale in entries[self.keep:]:
            stale.unlink(missing_ok=True)


class ExtractionCache(PickleCache):
    """Statements per game."""

    @classmethod
    def default(cls) -> ExtractionCache:
        return cls(cache_folder() / "extractions")

    def game_key(self, corpus: Corpus, game: str, cues: list[Cue] | None) -> str:
        """Everything extraction reads of one game: its documents as read, its lexicon file, the
        cues (None: the shipped ones, package files that every key covers)."""
        spec = corpus.games[game]
        documents = [document for document in corpus.documents if document.game == game]
        try:
            lexicon = Path(spec.lexicon).read_bytes() if spec.lexicon is not None else b""
        except OSError:
            lexicon = b"\0unreadable lexicon"
        return self.key(spec, documents, cues, lexicon)

    def statements(self, key: str) -> list[Statement] | None:
        kept = self.get(key)
        return kept if isinstance(kept, list) else None


@cache
def _environment() -> str:
    """What a kept value depends on besides its input: the package's files, the parser (model and
    library), the word list, the libraries that validate, render and hold the graph (pySHACL,
    pyvis, rdflib, NetworkX), the Python that pickles."""
    from importlib.metadata import PackageNotFoundError, version

    from .extract.analysis import model_id

    root = Path(__file__).resolve().parent
    stamps = []
    for folder, _dirs, names in sorted(os.walk(root)):
        if "__pycache__" in folder:
            continue
        for name in sorted(names):
            stat = os.stat(os.path.join(folder, name))
            stamps.append(f"{os.path.relpath(os.path.join(folder, name), root)}:{stat.st_size}:{stat.st_mtime_ns}")
    versions = []
    for package in ("spacy", "pyspellchecker", "pyshacl", "pyvis", "rdflib", "networkx"):
        try:
            versions.append(f"{package} {version(package)}")
        except PackageNotFoundError:
            versions.append(f"{package} unknown")
    return "\n".join([model_id(), *versions, f"{sys.version_info[0]}.{sys.version_info[1]}", *stamps])
