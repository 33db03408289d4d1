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

from ..catalogue import NODE_KINDS, iter_statements, local_name, per_graph, text_of
from ..namespaces import RELATIONS, RG

KIND_OF_CLASS = NODE_KINDS


#: Views already built, per graph object: (the graph, its size then, the view). A graph read from
#: the store cannot change; an rdflib graph is seen again as long as its size is the same.
_VIEWS: dict[int, tuple[weakref.ref[Graph], int, Any]] = {}


def to_networkx(graph: Graph) -> nx.MultiDiGraph:
    """The view of ``graph``, built once per graph (and again when its size changes); callers
    read it and never change it."""
    from ..store import oxigraph_of

    store = oxigraph_of(graph)
    view: nx.MultiDiGraph = per_graph(_VIEWS, graph, lambda: _from_store(store) if store is not None else _from_graph(graph))
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
_STORE_EDGES = """PREFIX rg: <https://w3id.org/rulegraph#>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
SELECT ?statement ?subject ?predicate ?object ?sentence ?path ?line ?condition ?scope ?amount ?method ?edition ?confidence ?rule ?suggested ?reason WHERE {
  ?statement a rg:Statement ; rdf:subject ?subject ; rdf:predicate ?predicate ; rdf:object ?object .
  OPTIONAL { ?statement rg:sentence ?sentence }
  OPTIONAL { ?statement rg:source/rg:path ?path }
  OPTIONAL { ?statement rg:line ?line }
  OPTIONAL { ?statement rg:condition ?condition }
  OPTIONAL { ?statement rg:scope ?scope }
  OPTIONAL { ?statement rg:amount ?amount }
  OPTIONAL { ?statement rg:method ?method }
  OPTIONAL { ?statement rg:edition/rdfs:label ?edition }
  OPTIONAL { ?statement rg:confidence ?confidence }
  OPTIONAL { ?statement rg:rule ?rule }
  OPTIONAL { ?statement rg:suggested ?suggested }
  OPTIONAL { ?statement rg:reason ?reason }
} ORDER BY ?statement"""


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
    for row in store.query(_STORE_EDGES):
        relation = row["predicate"].value.rsplit("#", 1)[-1]
        if relation not in RELATIONS:
            continue
        view.add_edge(
            row["subject"].value,
            row["object"].value,
            key=row["statement"].value,
            relation=relation,
            sentence=_value(row["sentence"]) or "",
            source=_value(row["path"]) or "",
            line=int(_value(row["line"]) or 0),
            condition=_value(row["condition"]),
            scope=_value(row["scope"]),
            amount=_value(row["amount"]),
            method=_value(row["method"]) or "",
            edition=_value(row["edition"]),
            confidence=float(row["confidence"].value) if row["confidence"] is not None else None,
            rule=_value(row["rule"]),
            suggested=row["suggested"].value.rsplit("#", 1)[-1] if row["suggested"] is not None else None,
            reason=_value(row["reason"]),
        )
    return view


def _value(term) -> str | None:
    return term.value if term is not None else None
