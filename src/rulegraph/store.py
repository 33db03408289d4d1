"""The on-disk store written next to graph.ttl: an Oxigraph (RocksDB) database that opens at once.

``rulegraph build`` writes ``graph.ttl`` and, beside it, the folder ``graph.oxigraph``: the same
triples in Oxigraph's default graph, plus one triple in the named graph :data:`STORE_INFO`
recording the SHA-256 of the Turtle it was loaded from. A command given ``--graph graph.ttl``
opens the store read-only when that digest matches the file, so an edited or replaced graph.ttl
is never answered from a stale store; otherwise it parses the Turtle as before.

rdflib stays the tool for building the graph, SHACL (pySHACL needs an in-memory rdflib graph) and
the notebooks; the store answers the named queries, ``interactions``, ``resolve`` and ``serve``.
"""

from __future__ import annotations

import hashlib
import shutil
import sys
import tempfile
from pathlib import Path

import pyoxigraph as ox
from rdflib import Graph, Literal, URIRef
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID
from rdflib.term import Node

from .errors import RulegraphError
from .i18n import _

STORE_SUFFIX = ".oxigraph"
#: The named graph holding what the store knows about itself (kept out of the default graph,
#: so no query over the rules sees it).
STORE_INFO = ox.NamedNode("https://w3id.org/rulegraph/store")
_DIGEST = ox.NamedNode("https://w3id.org/rulegraph#turtleDigest")
#: The NetworkX view of the graph as JSON (:func:`rulegraph.views.networkx_view.view_as_json`),
#: kept beside the digest so that ``interactions`` and ``resolve`` need not rebuild it.
_VIEW = ox.NamedNode("https://w3id.org/rulegraph#networkxView")


#: Turtle of this many bytes or more goes through Oxigraph's bulk loader, which writes sorted
#: files directly: twice as fast at 100 copies (29 MB), but a fixed cost (0.2 s with the flush
#: it needs) that makes a small graph's store slower than one ordinary transaction.
BULK_LOAD_FROM = 4_000_000


def store_path(graph_path: Path) -> Path:
    """``out/graph.ttl`` → ``out/graph.oxigraph``."""
    return Path(graph_path).with_suffix(STORE_SUFFIX)


def digest(turtle: bytes) -> str:
    return hashlib.sha256(turtle).hexdigest()


def write_store(turtle: bytes, path: Path) -> Path:
    """Load Turtle into a new store folder, then swap it in for ``path`` (a failed load leaves
    the previous store as it was)."""
    return swap_store(load_store(turtle, path), path)


def load_store(turtle: bytes, path: Path, turtle_digest: str | None = None) -> Path:
    """Load Turtle into a new staging folder beside ``path``: the slow half of a store's write,
    done outside any lock so that two builds load at once. ``turtle_digest``: the Turtle's
    :func:`digest`, when the caller has it already."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"))
    except OSError as error:
        raise RulegraphError(_('cannot write here ({strerror}); choose another --out').format(strerror=error.strerror or error),
                             path=path.parent) from None
    try:
        from .views.networkx_view import _from_store, view_as_json

        store = ox.Store(str(staging))
        bulk = len(turtle) >= BULK_LOAD_FROM
        if bulk:
            store.bulk_load(turtle, format=ox.RdfFormat.TURTLE)
        else:
            store.load(turtle, format=ox.RdfFormat.TURTLE)
        store.add(ox.Quad(STORE_INFO, _VIEW, ox.Literal(view_as_json(_from_store(store))), STORE_INFO))
        store.add(ox.Quad(STORE_INFO, _DIGEST, ox.Literal(turtle_digest or digest(turtle)), STORE_INFO))
        if bulk:
            store.flush()
        del store
    except BaseException:
        discard_staging(staging)
        raise
    return staging


def swap_store(staging: Path, path: Path) -> Path:
    """Put a loaded staging folder in place of ``path``. Two builds into one folder must call
    this under the folder's lock (``outputs.publish(..., under_lock=…)``): the old store is
    renamed aside first, and two swaps at once would rename each other's folders."""
    path = Path(path)
    try:
        if path.exists():
            retired = path.with_name(f".{path.name}.old")
            shutil.rmtree(retired, ignore_errors=True)
            path.rename(retired)
            staging.rename(path)
            shutil.rmtree(retired, ignore_errors=True)
        else:
            staging.rename(path)
    except OSError as error:
        discard_staging(staging)
        raise RulegraphError(_('cannot write here ({strerror}); choose another --out').format(strerror=error.strerror or error),
                             path=path) from None
    except BaseException:
        discard_staging(staging)
        raise
    return path


def discard_staging(staging: Path) -> None:
    shutil.rmtree(staging, ignore_errors=True)


def open_store(graph_path: Path) -> ox.Store | None:
    """The read-only store beside ``graph_path`` if it holds exactly that file, else None."""
    folder = store_path(graph_path)
    if not folder.is_dir():
        return None
    try:
        turtle = Path(graph_path).read_bytes()
        store = ox.Store.read_only(str(folder))
    except OSError:
        return None
    recorded = next(iter(store.quads_for_pattern(STORE_INFO, _DIGEST, None, STORE_INFO)), None)
    if recorded is None or not isinstance(recorded.object, ox.Literal) or recorded.object.value != digest(turtle):
        return None
    return store


def kept_view(store: ox.Store) -> str | None:
    """The JSON of the NetworkX view the build kept in the store; None in a store without it."""
    kept = next(iter(store.quads_for_pattern(STORE_INFO, _VIEW, None, STORE_INFO)), None)
    return kept.object.value if kept is not None and isinstance(kept.object, ox.Literal) else None


def as_rdflib(store: ox.Store) -> Graph:
    """The store's default graph seen through rdflib's Graph API (oxrdflib), so library code
    written for rdflib reads it without parsing anything; SPARQL goes to Oxigraph."""
    from oxrdflib import OxigraphStore

    graph = Graph(store=OxigraphStore(store=store), identifier=DATASET_DEFAULT_GRAPH_ID)
    return graph


def oxigraph_of(graph: Graph) -> ox.Store | None:
    """The Oxigraph store behind an rdflib graph opened by :func:`as_rdflib`, else None.

    oxrdflib is not imported here: it imports rdflib's SPARQL engine (a tenth of a second), and
    a process that never imported it (a build) cannot hold a graph it backs."""
    backend = sys.modules.get("oxrdflib.store")
    if backend is None:
        return None
    return graph.store._inner if isinstance(graph.store, backend.OxigraphStore) else None


def to_rdflib(term: object) -> Node | None:
    """An Oxigraph term as the rdflib term rdflib itself would have parsed (a plain literal stays
    plain, so rows compare equal whichever engine produced them)."""
    if term is None:
        return None
    if isinstance(term, ox.NamedNode):
        return URIRef(term.value)
    if isinstance(term, ox.Literal):
        if term.language:
            return Literal(term.value, lang=term.language)
        datatype = term.datatype.value
        return Literal(term.value) if datatype == "http://www.w3.org/2001/XMLSchema#string" else Literal(term.value, datatype=URIRef(datatype))
    if isinstance(term, ox.BlankNode):
        from rdflib import BNode

        return BNode(term.value)
    raise ValueError(f"unexpected Oxigraph term: {term!r}")


def write_store_beside(graph_path: Path) -> Path:
    """The store for a graph.ttl already on disk (``rulegraph build`` writes both at once)."""
    return write_store(Path(graph_path).read_bytes(), store_path(graph_path))
