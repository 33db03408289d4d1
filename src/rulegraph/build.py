"""The build pipeline: manifest → readers → extractor → curation → graph, and its outputs.

The build's outputs are published together by :mod:`rulegraph.outputs`; a single exported file is
written to a temporary file in the target folder and renamed into place, so an interrupted or
failed write never leaves a half-written file behind.
"""

from __future__ import annotations

import os
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict

from rdflib import Graph

from .corpus import Corpus, corpus_from_files, load_corpus
from .defaults import DEFAULT_MANIFEST
from .errors import RulegraphError
from .extract.analysis import Analyser
from .extract.curation import curate
from .extract.extractor import extract_corpus
from .files import MAX_FILE_MB
from .graph import build_graph
from .i18n import _
from .model import Statement
from .stored import ExtractionCache

Progress = Callable[[str], None]


@dataclass(slots=True)
class BuildResult:
    """What a build made: the corpus as read, the statements extracted (curation applied) and
    the graph. ``build`` writes no file (``rulegraph build`` publishes the outputs), so
    ``outputs`` stays empty unless a caller records there what it wrote."""

    corpus: Corpus
    statements: list[Statement]
    graph: Graph
    outputs: list[Path] = field(default_factory=list)


def build(manifest: Path | None = None, *, files: list[Path] | None = None, game: str | None = None,
          format: str | None = None, options: dict[str, object] | None = None,
          progress: Progress | None = None, substitutes: dict[str, Path] | None = None,
          allow_outside: bool = False, max_mb: float = MAX_FILE_MB) -> BuildResult:
    """Read, extract and assemble; from a manifest, or from files of one game (``options``:
    reader options for those files, as a manifest's [[source]] gives them). ``substitutes``
    reads an edited copy in place of a manifest source (``{"000_….txt": Path("copy.txt")}``).
    ``allow_outside`` lets the manifest name files outside its folder; ``max_mb`` is the largest
    input file read."""
    step = progress or (lambda message: None)
    step(_("reading sources"))
    if files:
        corpus = corpus_from_files(files, game=game or "jeu", format=format, options=options, max_mb=max_mb)
    else:
        manifest = manifest or DEFAULT_MANIFEST
        corpus = load_corpus(manifest, substitutes=substitutes, allow_outside=allow_outside, max_mb=max_mb)
    step(_("extracting relations"))
    analyser = Analyser(progress=lambda done, total: step(_("analysing sentences with spaCy ({done}/{total}, cached after this run)").format(done=done, total=total)))
    statements = extract_corpus(corpus, analyser=analyser, cache=ExtractionCache.default())
    if not files and manifest is not None:
        statements = curate(statements, corpus, manifest)
    step(_("building graph"))
    graph = build_graph(corpus, statements)
    return BuildResult(corpus, statements, graph)


def write_atomic(path: Path, content: str | bytes) -> Path:
    """Write through a temporary file in the same folder, then rename over the target."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    if path.is_dir():
        raise RulegraphError(_('is a folder; give a file name to write to'), path=path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:
        raise RulegraphError(_('cannot write here ({strerror}); choose another --out or a shorter name').format(strerror=error.strerror or error),
                             path=path) from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise RulegraphError(_('cannot write ({strerror}); the previous file was left as it was').format(strerror=error.strerror or error),
                             path=path) from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


class GameSummary(TypedDict):
    """What ``rulegraph build`` prints for one game."""

    abilities: int
    by_category: dict[str, int]
    glossary_categories: dict[str, int]
    undefined: list[str]
    notes: int
    edges: dict[str, int]
    lexicon: bool


def summary(result: BuildResult) -> dict[str, GameSummary]:
    """Per game: abilities by category, undefined names, notes, edges by type, and whether a
    lexicon file names its states, actions and characteristics."""
    from rdflib import RDF, RDFS

    from .namespaces import RELATIONS, RG, game_uri

    per_game: dict[str, GameSummary] = {}
    graph = result.graph
    for game, spec in result.corpus.games.items():
        entries = result.corpus.entries(game)
        edges = Counter(s.relation for s in result.statements if s.subject.game == game)
        undefined = sorted(
            str(graph.value(node, RDFS.label))
            for node in graph.subjects(RDF.type, RG.UndefinedAbility)
            if (node, RG.game, game_uri(game)) in graph
        )
        per_game[spec.name] = {
            "abilities": len(entries),
            "by_category": dict(sorted(Counter(e.category for e in entries).items())),
            "glossary_categories": dict(Counter(e.glossary_category for e in entries if e.glossary_category)),
            "undefined": undefined,
            "notes": sum(len(e.notes) for e in entries),
            "edges": {r: edges[r] for r in RELATIONS if edges[r]},
            "lexicon": spec.lexicon is not None,
        }
    return per_game


#: Rendered pages kept in the cache folder: a few recent builds (the atlas of a studio's catalogue
#: weighs tens of MB).
PAGES_KEPT = 4


def render_pages(graph: Graph, content: str, progress: Progress | None = None) -> dict[str, str]:
    """The atlas (graph.html) and the consistency report (report.html, report.md) of ``graph``,
    whose Turtle has the SHA-256 ``content``. They depend on nothing else but the installed
    package and the user's language, so a rebuild of unchanged content reads them back from the
    cache folder instead of running every check and laying the atlas out again."""
    from .checks import stop_checks
    from .i18n import language
    from .render.report import report_pages
    from .stored import PickleCache
    from .text import cache_folder
    from .views.atlas import render_atlas

    cache = PickleCache(cache_folder() / "pages", keep=PAGES_KEPT)
    key = PickleCache.key(content, language())
    kept = cache.get(key)
    if isinstance(kept, dict):
        if progress is not None:
            progress(_("reading back the atlas and the report of this content"))
        stop_checks(graph)
        return kept
    if progress is not None:
        progress(_("rendering the atlas"))
    pages = {"graph.html": render_atlas(graph)}
    pages.update(report_pages(graph, progress=progress))
    cache.put(key, pages)
    return pages
