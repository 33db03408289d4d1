"""The graph in other tools' formats: HTML atlas, JSON-LD, GraphML, CSV of edges, Turtle.

Every export is made from the rdflib graph, optionally narrowed to the neighbourhood of one
name first (:func:`focus_graph`), and returned as text; writing files is the CLI's job.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from rdflib import RDF, Graph, URIRef

from .catalogue import RuleGraph
from .defaults import DEFAULT_OUT, EXPORT_FORMATS
from .graph import new_graph
from .namespaces import RG
from .text import slug

#: Format name → (default file name, what it is for).
FORMATS = EXPORT_FORMATS
CSV_COLUMNS = ("subject", "relation", "object", "game", "sentence", "source", "line", "condition", "method", "edition")
JSONLD_CONTEXT = {
    "rg": str(RG),
    "rgd": "https://w3id.org/rulegraph/data/",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
}
_CONTEXT_CLASSES = (RG.Game, RG.Source, RG.Edition)
_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def export(graph: Graph, format: str, *, focus: str | None = None, depth: int = 2) -> str:
    """The graph (or the neighbourhood of ``focus``) in ``format``, one of :data:`FORMATS`."""
    from .errors import RulegraphError
    from .i18n import _

    if format not in FORMATS:
        raise RulegraphError(_('unknown export format {format!r}; use one of {formats}').format(format=format, formats=', '.join(FORMATS)))
    if format == "html":
        from .views.atlas import render_atlas

        return render_atlas(graph, focus=focus, depth=depth)
    if focus is not None:
        graph = focus_graph(graph, focus, depth)
    return {"jsonld": to_jsonld, "graphml": to_graphml, "csv": to_csv, "ttl": to_turtle}[format](graph)


def default_path(format: str, *, focus: str | None = None, depth: int = 2, out: Path = DEFAULT_OUT) -> Path:
    """``out/graph.html``, ``out/edges.csv``…; a focused export gets the name in its file name."""
    name = FORMATS[format][0]
    if focus is not None:
        stem, _, suffix = name.partition(".")
        name = f"{stem}-{_short_slug(focus)}-{depth}.{suffix}"
    return out / name


#: File systems refuse names over 255 bytes; a focus name can be any length.
_SLUG_CHARACTERS = 80


def _short_slug(name: str) -> str:
    """The focus name's slug, cut to a length every file system accepts; a cut slug ends with a
    hash of the whole name so that two long names do not share a file."""
    import hashlib

    whole = slug(name)
    if len(whole) <= _SLUG_CHARACTERS:
        return whole
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:10]
    return f"{whole[:_SLUG_CHARACTERS].rstrip('-')}-{digest}"


def focus_graph(graph: Graph, name: str, depth: int) -> Graph:
    """The part of the graph within ``depth`` edges of the term(s) named ``name``: those terms
    with their texts, notes and edition texts, the statements between them and their sentences,
    the games, sources and editions they cite, and the vocabulary, so the same queries run on it."""
    from .views.atlas import neighbourhood

    view = RuleGraph(graph).networkx()
    kept = {URIRef(node) for node in neighbourhood(view, name, depth)}
    terms = {URIRef(node) for node in view}
    # Only the two ends matter here: reading each statement's whole record would cost 7× more.
    statements: set[URIRef] = {
        node for node in graph.subjects(RDF.type, RG.Statement)
        if isinstance(node, URIRef) and graph.value(node, RDF.predicate) is not None
        and graph.value(node, RDF.subject) in kept and graph.value(node, RDF.object) in kept
    }
    evidence = {node for statement in statements for node in graph.objects(statement, RG.evidence) if isinstance(node, URIRef)}
    context = {node for cls in _CONTEXT_CLASSES for node in graph.subjects(RDF.type, cls) if isinstance(node, URIRef)}
    described = kept | statements | evidence | context | _parts_of(graph, kept, terms | statements | context)
    focused = new_graph()
    for subject, predicate, obj in graph:
        if subject in described and not (subject in terms and obj in terms and obj not in kept):
            focused.add((subject, predicate, obj))
    return focused


def _parts_of(graph: Graph, owners: set[URIRef], stop: set[URIRef]) -> set[URIRef]:
    """Nodes that only describe the owners (notes, edition texts, conflicting definitions)."""
    parts: set[URIRef] = set()
    frontier = set(owners)
    while frontier:
        found = {
            obj for owner in frontier for obj in graph.objects(owner, None)
            if isinstance(obj, URIRef) and obj not in stop and str(obj).startswith(f"{owner}/")
        }
        frontier = found - parts
        parts |= found
    return parts


def to_turtle(graph: Graph) -> str:
    from .graph import serialize_turtle

    return serialize_turtle(graph)


def to_jsonld(graph: Graph) -> str:
    """JSON-LD with the rg:/rgd: prefixes as an inline context (nothing is fetched), the same
    bytes on every run: nodes in @id order, each property's values sorted (rdflib's serialiser
    walks a set of subjects, so each run wrote them in another order)."""
    import json

    data = json.loads(graph.serialize(format="json-ld", context=JSONLD_CONTEXT, indent=2, auto_compact=True))
    nodes = data.get("@graph") if isinstance(data, dict) else data
    if isinstance(nodes, list):
        for node in nodes:
            for values in node.values():
                if isinstance(values, list):
                    values.sort(key=lambda value: json.dumps(value, sort_keys=True, ensure_ascii=False))
        nodes.sort(key=lambda node: str(node.get("@id", "")))
    return json.dumps(data, indent=2, separators=(",", ": "), sort_keys=True, ensure_ascii=False)


def to_graphml(graph: Graph) -> str:
    """GraphML of the NetworkX view. Nodes carry label, kind, game, category, text, notes and
    uri; edges relation, sentence, source, line, condition, method, edition, amount, and the
    typer's confidence, rule and suggestion. GraphML only holds scalars, so a missing text is an
    empty string (a missing confidence is left out: a key has one type) and notes are joined by
    newlines."""
    import networkx as nx


    view = RuleGraph(graph).networkx()
    flat = nx.MultiDiGraph()
    for node, data in sorted(view.nodes(data=True)):
        flat.add_node(node, uri=node, **{key: _scalar(value) for key, value in data.items() if key != "game_id"})
    ordered = sorted(view.edges(keys=True, data=True), key=lambda e: (e[0], e[1], e[3]["relation"], e[3]["line"], e[2]))
    numbers = {name for *_, data in ordered for name, value in data.items() if isinstance(value, float)}
    for source, target, key, data in ordered:
        flat.add_edge(source, target, key=key, **{name: _scalar(value) for name, value in data.items()
                                                  if not (value is None and name in numbers)})
    return "\n".join(nx.generate_graphml(flat)) + "\n"


def to_csv(graph: Graph) -> str:
    """One row per edge (subject, relation, object by label), with its evidence."""

    view = RuleGraph(graph).networkx()
    rows = [
        {
            "subject": view.nodes[source]["label"],
            "relation": data["relation"],
            "object": view.nodes[target]["label"],
            "game": view.nodes[source]["game"] or "",
            "sentence": data["sentence"],
            "source": data["source"],
            "line": data["line"],
            "condition": data["condition"] or "",
            "method": data["method"],
            "edition": data["edition"] or "",
        }
        for source, target, data in view.edges(data=True)
    ]
    rows.sort(key=lambda row: (row["game"], row["subject"], row["relation"], row["object"], row["source"], row["line"], row["sentence"]))
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows({key: inert_cell(value) for key, value in row.items()} for row in rows)
    return buffer.getvalue()


#: First characters that make a spreadsheet read a cell as a formula (OWASP, CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def inert_cell(value: object) -> object:
    """A text cell a spreadsheet could run as a formula gets a leading apostrophe, which the
    spreadsheet shows as text; numbers are left as they are."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def _scalar(value: object) -> str | int | float | bool:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return _NOT_XML.sub("", "\n".join(map(str, value)))
    if isinstance(value, str):
        return _NOT_XML.sub("", value)
    if isinstance(value, (int, float, bool)):
        return value
    return _NOT_XML.sub("", str(value))
