"""A NetworkX MultiDiGraph view of the RDF graph, for graph algorithms (paths, cycles, layouts).

Nodes are the terms (abilities, states, actions, characteristics, concepts) keyed by URI; edges
are the typed relations, each carrying its evidence from the rg:Statement node.
"""

from __future__ import annotations

import networkx as nx
from rdflib import RDF, RDFS, Graph, URIRef

from ..namespaces import RELATIONS, RG

_KIND = {
    RG.CharacterAbility: "ability",
    RG.WeaponAbility: "ability",
    RG.UndefinedAbility: "undefined",
    RG.State: "state",
    RG.Action: "action",
    RG.Characteristic: "characteristic",
    RG.Concept: "concept",
    RG.Equipment: "concept",
    RG.RuleSection: "concept",
    RG.Term: "concept",
}


def node_kind(graph: Graph, node: URIRef) -> str | None:
    for rdf_type in graph.objects(node, RDF.type):
        if rdf_type in _KIND:
            return _KIND[rdf_type]
    return None


def to_networkx(graph: Graph) -> nx.MultiDiGraph:
    view = nx.MultiDiGraph()
    for rdf_type, kind in _KIND.items():
        for node in graph.subjects(RDF.type, rdf_type):
            game = graph.value(node, RG.game)
            group = graph.value(node, RG.category)
            view.add_node(
                str(node),
                label=str(graph.value(node, RDFS.label) or node),
                kind=kind,
                category="weapon" if rdf_type == RG.WeaponAbility else ("character" if rdf_type == RG.CharacterAbility else None),
                glossary_category=str(graph.value(group, RDFS.label)) if group is not None else None,
                game=str(graph.value(game, RDFS.label)) if game else None,
                game_id=str(game).rsplit("/", 1)[-1] if game else None,
                text=str(graph.value(node, RG.text) or ""),
                notes=[str(graph.value(n, RG.text)) for n in graph.objects(node, RG.hasNote)],
            )
    for statement in graph.subjects(RDF.type, RG.Statement):
        subject = graph.value(statement, RDF.subject)
        predicate = graph.value(statement, RDF.predicate)
        obj = graph.value(statement, RDF.object)
        relation = str(predicate).rsplit("#", 1)[-1]
        if relation not in RELATIONS:
            continue
        edition = graph.value(statement, RG.edition)
        view.add_edge(
            str(subject),
            str(obj),
            key=str(statement),
            relation=relation,
            sentence=str(graph.value(statement, RG.sentence) or ""),
            source=str(graph.value(graph.value(statement, RG.source), RG.path) or ""),
            line=int(graph.value(statement, RG.line) or 0),
            condition=_optional(graph.value(statement, RG.condition)),
            amount=_optional(graph.value(statement, RG.amount)),
            method=str(graph.value(statement, RG.method) or ""),
            edition=str(graph.value(edition, RDFS.label)) if edition else None,
        )
    return view


def _optional(value: object) -> str | None:
    return str(value) if value is not None else None
