"""How two rules interact, read off the graph: the edges between them with their sentences, the
short paths that link them, and what they have in common (:func:`interactions`). The edge records
here are also what the resolver and the impact report show as evidence."""

from __future__ import annotations

from collections import defaultdict
from itertools import product
from typing import Any, TypedDict

import networkx as nx
from rdflib import Graph

from .catalogue import ABILITY_KINDS, KIND_ORDER, RuleGraph, common_game, find_term
from .errors import RulegraphError
from .i18n import _
from .namespaces import INTERACTIONS, RELATIONS

#: Kinds a path between two terms may pass through (characteristics and concepts are reported
#: as shared terms instead: going through "CBT" links half the glossary).
PATH_KINDS = frozenset({"ability", "undefined", "state", "action"})


class EdgeEvidence(TypedDict):
    """One edge as every answer shows it: ends and relation by label, sentence, file, line."""

    subject: str
    relation: str
    object: str
    evidence: str
    source: str
    line: int
    condition: str | None
    scope: str | None


#: One step of a path ("from" is a keyword, hence this spelling).
Hop = TypedDict("Hop", {"from": str, "to": str, "relation": str, "direction": str, "evidence": str, "source": str,
                        "line": int, "condition": "str | None", "scope": "str | None", "other_edges": int})


class PathRecord(TypedDict):
    length: int
    through: list[str]
    hops: list[Hop]


class SharedTerm(TypedDict):
    kind: str
    term: str
    a: list[EdgeEvidence]
    b: list[EdgeEvidence]


class Interactions(TypedDict):
    """What :func:`interactions` returns."""

    a: str
    b: str
    relations: list[EdgeEvidence]
    paths: list[PathRecord]
    shared: list[SharedTerm]


# --- evidence ----------------------------------------------------------------------------


def edge_record(view: nx.MultiDiGraph, subject: str, obj: str, data: dict[str, Any]) -> EdgeEvidence:
    """One edge of the view as the record every answer shows: ends, relation, evidence, place."""
    return {
        "subject": view.nodes[subject]["label"],
        "relation": data["relation"],
        "object": view.nodes[obj]["label"],
        "evidence": data["sentence"],
        "source": data["source"],
        "line": data["line"],
        "condition": data["condition"],
        "scope": data.get("scope"),
    }


def _edges_between(view: nx.MultiDiGraph, a: str, b: str) -> list[EdgeEvidence]:
    records = [edge_record(view, a, b, d) for d in view.get_edge_data(a, b, default={}).values()]
    if a != b:
        records += [edge_record(view, b, a, d) for d in view.get_edge_data(b, a, default={}).values()]
    return sorted(records, key=_edge_order)


def _edge_order(record: EdgeEvidence) -> tuple[int, str, int, str, str]:
    """Relation, place, then the sentence: two sentences of one line keep one order on every store."""
    return (RELATIONS.index(record["relation"]), record["source"], record["line"], record["subject"], record["evidence"])


# --- interactions ------------------------------------------------------------------------


def interactions(graph: Graph, a: str, b: str, game: str | None = None, *, max_length: int = 3) -> Interactions:
    """How A and B interact: direct edges both ways, paths of up to ``max_length`` hops through
    other abilities, states or actions, and the terms or abilities both are linked to."""
    game_id = common_game(graph, [a, b], game, KIND_ORDER)
    term_a = find_term(graph, a, game=game_id)
    term_b = find_term(graph, b, game=game_id)
    if term_a.uri == term_b.uri:
        raise RulegraphError(_('{a!r} and {b!r} name the same {kind} ({label}); give two different names').format(a=a, b=b, kind=term_a.kind, label=term_a.label))
    if not 1 <= max_length <= 4:
        raise RulegraphError(_('paths are searched up to 4 hops; max_length {max_length} is out of range').format(max_length=max_length))
    view = RuleGraph(graph).networkx()
    ua, ub = str(term_a.uri), str(term_b.uri)
    return {
        "a": term_a.label,
        "b": term_b.label,
        "relations": _edges_between(view, ua, ub),
        "paths": _paths(view, ua, ub, max_length),
        "shared": _shared(view, ua, ub),
    }


def _paths(view: nx.MultiDiGraph, a: str, b: str, max_length: int) -> list[PathRecord]:
    if a not in view or b not in view:
        return []
    near = _within(view, a, max_length, {a, b}) & _within(view, b, max_length, {a, b})
    undirected = nx.Graph(view.subgraph(near | {a, b}).to_undirected(as_view=True))
    if a == b or a not in undirected or b not in undirected:
        return []
    found: list[PathRecord] = []
    for nodes in nx.all_simple_paths(undirected, a, b, cutoff=max_length):
        if len(nodes) < 3:
            continue
        hops = [_hop(view, u, v) for u, v in zip(nodes, nodes[1:])]
        found.append({"length": len(hops), "through": [view.nodes[n]["label"] for n in nodes[1:-1]], "hops": hops})
    return sorted(found, key=lambda p: (p["length"], p["through"]))


def _within(view: nx.MultiDiGraph, start: str, hops: int, ends: set[str]) -> set[str]:
    """Nodes a path may pass through within ``hops`` steps of ``start``, either way along the
    edges (every node of a simple path of at most that length from a to b is that close to
    both, so the paths are searched in that small part of a large graph only)."""
    seen = {start}
    frontier = [start]
    for _step in range(hops):
        following = []
        for node in frontier:
            for other in (*view.succ[node], *view.pred[node]):
                if other not in seen and (other in ends or view.nodes[other].get("kind") in PATH_KINDS):
                    seen.add(other)
                    following.append(other)
        frontier = following
    return seen


def _hop(view: nx.MultiDiGraph, u: str, v: str) -> Hop:
    """One step of a path; when several edges join the two nodes, the strongest relation (in
    the vocabulary's order) and its first sentence stand for the hop, the others are counted."""
    edges = _edges_between(view, u, v)
    first = edges[0]
    forward = first["subject"] == view.nodes[u]["label"] and first["object"] == view.nodes[v]["label"]
    return {
        "from": view.nodes[u]["label"],
        "to": view.nodes[v]["label"],
        "relation": first["relation"],
        "direction": "forward" if forward else "backward",
        "evidence": first["evidence"],
        "source": first["source"],
        "line": first["line"],
        "condition": first["condition"],
        "scope": first["scope"],
        "other_edges": len(edges) - 1,
    }


def _links(view: nx.MultiDiGraph, node: str) -> dict[tuple[str, str], list[EdgeEvidence]]:
    """(relation, other node) → edge records, for the edges leaving or reaching ``node``."""
    links: dict[tuple[str, str], list[EdgeEvidence]] = defaultdict(list)
    for _from, other, data in view.out_edges(node, data=True):
        links[(data["relation"], other)].append(edge_record(view, node, other, data))
    for other, _to, data in view.in_edges(node, data=True):
        if data["relation"] in INTERACTIONS:
            links[(data["relation"], other)].append(edge_record(view, other, node, data))
    return links


def _shared(view: nx.MultiDiGraph, a: str, b: str) -> list[SharedTerm]:
    """Terms and third abilities both A and B are linked to, and characteristics both modify
    during the same action."""
    links_a, links_b = _links(view, a), _links(view, b)
    by_other_a: dict[str, list[EdgeEvidence]] = defaultdict(list)
    by_other_b: dict[str, list[EdgeEvidence]] = defaultdict(list)
    for (_relation, other), records in links_a.items():
        by_other_a[other] += records
    for (_relation, other), records in links_b.items():
        by_other_b[other] += records
    shared: list[SharedTerm] = []
    for other in sorted(set(by_other_a) & set(by_other_b) - {a, b}, key=lambda n: view.nodes[n]["label"]):
        kind = view.nodes[other]["kind"]
        shared.append({
            "kind": "ability" if kind in ABILITY_KINDS else kind,
            "term": view.nodes[other]["label"],
            "a": sorted(by_other_a[other], key=_edge_order),
            "b": sorted(by_other_b[other], key=_edge_order),
        })
    during_a, during_b = _modified_during(view, links_a), _modified_during(view, links_b)
    for characteristic, action in sorted(set(during_a) & set(during_b)):
        shared.append({
            "kind": "characteristic during action",
            "term": f"{view.nodes[characteristic]['label']} during {view.nodes[action]['label']}",
            "a": during_a[(characteristic, action)],
            "b": during_b[(characteristic, action)],
        })
    return shared


def _modified_during(view: nx.MultiDiGraph, links: dict[tuple[str, str], list[EdgeEvidence]]) -> dict[tuple[str, str], list[EdgeEvidence]]:
    """(characteristic, action) pairs an ability both modifies and applies to, with the edges;
    pairs stated in one sentence come first in the evidence."""
    modifies = {other: records for (relation, other), records in links.items() if relation == "modifies"}
    applies = {other: records for (relation, other), records in links.items() if relation == "appliesTo"}
    pairs = {}
    for characteristic, action in product(modifies, applies):
        records = modifies[characteristic] + applies[action]
        sentences = [r["evidence"] for r in records]
        pairs[(characteristic, action)] = sorted(records, key=lambda r: (sentences.count(r["evidence"]) < 2, _edge_order(r)))
    return pairs
