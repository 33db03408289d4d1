"""A NetworkX MultiDiGraph view of the RDF graph, for graph algorithms (paths, cycles, layouts).

Nodes are the terms (abilities, states, actions, characteristics, concepts) keyed by URI; edges
are the typed relations, each carrying its evidence from the rg:Statement node: sentence, file,
line, condition, and for an extracted interaction the typer's confidence and rule, and on an
edge left unsure ("à vérifier") the suggested relation and the suggested edge as text (reason).
"""

from __future__ import annotations

import weakref
from typing import Any

import networkx as nx
from rdflib import RDF, RDFS, Graph, URIRef

from ..catalogue import iter_statements, local_name, per_graph, text_of
from ..namespaces import RELATIONS, RG
from ..vocabulary import KIND_OF_CLASS

#: Views already built, per graph object: (the graph, its size then, the view). A graph read from
#: the store cannot change; an rdflib graph is seen again as long as its size is the same.
_VIEWS: dict[int, tuple[weakref.ref[Graph], int, Any]] = {}


def to_networkx(graph: Graph) -> nx.MultiDiGraph:
    """The view of ``graph``, built once per graph (and again when its size changes); callers
    read it and never change it."""
    from ..store import oxigraph_of

    store = oxigraph_of(graph)
    view: nx.MultiDiGraph = per_graph(_VIEWS, graph, lambda: _kept_view(store) if store is not None else _from_graph(graph))
    return view


def _from_graph(graph: Graph) -> nx.MultiDiGraph:
    view = nx.MultiDiGraph()
    for rdf_type, kind in KIND_OF_CLASS.items():
        for node in graph.subjects(RDF.type, rdf_type):
            game = graph.value(node, RG.game)
            group = graph.value(node, RG.category)
            view.add_node(
                str(node),
                label=text_of(graph, node, RDFS.label) or str(node),
                kind=kind,
                category="weapon" if rdf_type == RG.WeaponAbility else ("character" if rdf_type == RG.CharacterAbility else None),
                glossary_category=str(graph.value(group, RDFS.label)) if group is not None else None,
                game=str(graph.value(game, RDFS.label)) if game else None,
                game_id=local_name(game) if game else None,
                text=text_of(graph, node, RG.text),
                notes=[str(graph.value(n, RG.text)) for n in graph.objects(node, RG.hasNote)],
            )
    for statement in iter_statements(graph):
        if statement.relation not in RELATIONS:
            continue
        view.add_edge(
            str(statement.subject),
            str(statement.object),
            key=str(statement.node),
            relation=statement.relation,
            sentence=statement.sentence,
            source=statement.source,
            line=statement.line,
            condition=statement.condition,
            scope=statement.scope,
            amount=statement.amount,
            method=statement.method,
            edition=statement.edition or None,
            confidence=statement.confidence,
            rule=statement.rule,
            suggested=statement.suggested,
            reason=statement.reason,
        )
    return view


_STORE_NODES = """PREFIX rg: <https://w3id.org/rulegraph#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
SELECT ?node ?type ?label ?game ?game_label ?group_label ?text ?note ?note_text WHERE {
  VALUES ?type { %s }
  ?node a ?type .
  OPTIONAL { ?node rdfs:label ?label }
  OPTIONAL { ?node rg:game ?game OPTIONAL { ?game rdfs:label ?game_label } }
  OPTIONAL { ?node rg:category/rdfs:label ?group_label }
  OPTIONAL { ?node rg:text ?text }
  OPTIONAL { ?node rg:hasNote ?note OPTIONAL { ?note rg:text ?note_text } }
} ORDER BY ?node ?note"""
def _from_store(store) -> nx.MultiDiGraph:
    """The same view read off an Oxigraph store with two SPARQL queries (the store answers them
    in Rust; walking it triple by triple through rdflib's API would take seconds)."""
    view = nx.MultiDiGraph()
    types = " ".join(f"<{rdf_type}>" for rdf_type in KIND_OF_CLASS)
    rank = {str(rdf_type): index for index, rdf_type in enumerate(KIND_OF_CLASS)}
    chosen: dict[str, str] = {}
    for row in store.query(_STORE_NODES % types):
        node, rdf_type = row["node"].value, row["type"].value
        if node in chosen and rank[chosen[node]] < rank[rdf_type]:
            continue
        if chosen.get(node) != rdf_type:
            chosen[node] = rdf_type
            game = row["game"]
            view.add_node(
                node,
                label=_value(row["label"]) or node,
                kind=KIND_OF_CLASS[URIRef(rdf_type)],
                category="weapon" if rdf_type == str(RG.WeaponAbility) else ("character" if rdf_type == str(RG.CharacterAbility) else None),
                glossary_category=_value(row["group_label"]),
                game=(_value(row["game_label"]) or "None") if game is not None else None,
                game_id=local_name(game.value) if game is not None else None,
                text=_value(row["text"]) or "",
                notes=[],
            )
        if row["note"] is not None and str(_value(row["note_text"])) not in view.nodes[node]["notes"]:
            view.nodes[node]["notes"].append(str(_value(row["note_text"])))
    _edges_from_store(store, view)
    return view


def _edges_from_store(store, view: nx.MultiDiGraph) -> None:
    """The interaction edges, read one property at a time off the store's predicate index (a
    query with one OPTIONAL per property makes Oxigraph join each whole property in turn:
    1.8 s at 22,000 statements against 0.5 s this way), added in the order of the statements'
    IRIs as before."""
    import pyoxigraph as ox

    def values(predicate: URIRef) -> dict[str, Any]:
        return {quad.subject.value: quad.object
                for quad in store.quads_for_pattern(None, ox.NamedNode(str(predicate)), None, ox.DefaultGraph())}

    statements = {quad.subject.value for quad in store.quads_for_pattern(
        None, ox.NamedNode(str(RDF.type)), ox.NamedNode(str(RG.Statement)), ox.DefaultGraph())}
    predicates = {node: term for node, term in values(RDF.predicate).items()
                  if node in statements and term.value.rsplit("#", 1)[-1] in RELATIONS}
    subjects, objects = values(RDF.subject), values(RDF.object)
    chosen = sorted(node for node in predicates if node in subjects and node in objects)
    column = {name: values(RG[name]) for name in ("sentence", "line", "condition", "scope", "amount", "method", "confidence",
                                                  "rule", "suggested", "reason", "source", "edition")}
    paths, labels = values(RG.path), values(RDFS.label)

    def text(name: str, node: str) -> str | None:
        return _value(column[name].get(node))

    def through(name: str, node: str, second: dict[str, object]) -> str | None:
        first = column[name].get(node)
        return _value(second.get(first.value)) if isinstance(first, ox.NamedNode) else None

    for node in chosen:
        view.add_edge(
            subjects[node].value,
            objects[node].value,
            key=node,
            relation=predicates[node].value.rsplit("#", 1)[-1],
            sentence=text("sentence", node) or "",
            source=through("source", node, paths) or "",
            line=int(text("line", node) or 0),
            condition=text("condition", node),
            scope=text("scope", node),
            amount=text("amount", node),
            method=text("method", node) or "",
            edition=through("edition", node, labels),
            confidence=float(confidence) if (confidence := text("confidence", node)) is not None else None,
            rule=text("rule", node),
            suggested=suggested.rsplit("#", 1)[-1] if (suggested := text("suggested", node)) is not None else None,
            reason=text("reason", node),
        )


def view_as_json(view: nx.MultiDiGraph) -> str:
    """The view read off a store, as JSON: nodes in their order, edges in the order of their
    statements' IRIs (the order :func:`_from_store` adds them in), so :func:`view_from_json`
    gives back the same adjacency in the same order."""
    import json

    nodes = [[node, data] for node, data in view.nodes(data=True)]
    edges = sorted(([u, v, key, data] for u, v, key, data in view.edges(keys=True, data=True)), key=lambda edge: edge[2])
    return json.dumps({"nodes": nodes, "edges": edges}, ensure_ascii=False, separators=(",", ":"))


def view_from_json(text: str) -> nx.MultiDiGraph:
    import json

    data = json.loads(text)
    view = nx.MultiDiGraph()
    view.add_nodes_from((node, attributes) for node, attributes in data["nodes"])
    for u, v, key, attributes in data["edges"]:
        view.add_edge(u, v, key=key, **attributes)
    return view


def _kept_view(store) -> nx.MultiDiGraph:
    """The view ``rulegraph build`` kept in the store (reading it back takes a fraction of
    the time the two queries take on a large catalogue), else read off the store."""
    from ..store import kept_view

    kept = kept_view(store)
    return view_from_json(kept) if kept is not None else _from_store(store)


def _value(term) -> str | None:
    return term.value if term is not None else None
