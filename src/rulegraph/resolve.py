"""How two rules interact, and what is in effect when two sides meet, read off the graph.

:func:`interactions` answers "how do A and B interact": the edges between them with their
sentences, the short paths that link them, and what they have in common. :func:`resolve` answers
"what happens when these sides meet": grants are added, parameters stacked by the game's own rule,
and cancels/negates/mutuallyCancels are treated as attacks between abilities of opposite sides,
decided by grounded semantics (Dung, 1995), so that every verdict comes with its chain of edges.
"""

from __future__ import annotations

import re
import weakref
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import product

import networkx as nx
from rdflib import RDF, RDFS, Graph, URIRef

from .errors import RulegraphError
from .extract.lexicon import Lexicon
from .lang import words as lang_words
from .names import parse_heading
from .namespaces import INTERACTIONS, RG, TERM_RELATIONS
from .text import closest, fold, split_sentences
from .views.networkx_view import node_kind, to_networkx
from .vocabulary import KIND_OF_CLASS, LEXICON_KIND, NODE_KINDS

#: Kinds of node a name may resolve to, in the order that wins when one game has several.
KIND_ORDER = tuple(NODE_KINDS)
ABILITY_KINDS = ("ability", "undefined")
#: Kinds a path between two terms may pass through (characteristics and concepts are reported
#: as shared terms instead: going through "CBT" links half the glossary).
PATH_KINDS = frozenset({"ability", "undefined", "state", "action"})
#: Relations that act as attacks in the resolver; mutuallyCancels switches both sides off.
ATTACKS = ("cancels", "negates")
MUTUAL = "mutuallyCancels"
_SIDE_SEPARATORS = re.compile(r"[,;]")


# --- names -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Term:
    """A named node of the graph: ability, state, action, characteristic or concept."""

    uri: URIRef
    label: str
    kind: str
    game_id: str
    game: str


_STORE_TERMS = """PREFIX rg: <https://w3id.org/rulegraph#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
SELECT ?node ?label ?type ?game ?game_label WHERE {
  VALUES ?type { %s }
  ?node a ?type ; rdfs:label ?label .
  OPTIONAL { ?node rg:game ?game OPTIONAL { ?game rdfs:label ?game_label } }
}"""


#: Term lists already read, per graph object: (the graph, its size then, the terms).
_TERMS_CACHE: dict[int, tuple[weakref.ref, int, list[Term]]] = {}


def graph_terms(graph: Graph) -> list[Term]:
    """Every labelled term of the graph with its kind and game (read once per graph and size)."""
    from .store import oxigraph_of, to_rdflib

    store = oxigraph_of(graph)
    size = -1 if store is not None else len(graph)
    cached = _TERMS_CACHE.get(id(graph))
    if cached is not None and cached[0]() is graph and cached[1] == size:
        return list(cached[2])
    terms = _store_terms(store, to_rdflib) if store is not None else _read_terms(graph)
    _TERMS_CACHE[id(graph)] = (weakref.ref(graph, lambda _, key=id(graph): _TERMS_CACHE.pop(key, None)), size, terms)
    return list(terms)


def _read_terms(graph: Graph) -> list[Term]:
    found: list[Term] = []
    games: dict[URIRef, str] = {}
    for node, label in graph.subject_objects(RDFS.label):
        kind = node_kind(graph, node) if isinstance(node, URIRef) else None
        if kind is None:
            continue
        game = graph.value(node, RG.game)
        if game not in games:
            games[game] = str(graph.value(game, RDFS.label) or game)
        found.append(Term(node, str(label), kind, str(game).rsplit("/", 1)[-1], games[game]))
    return found


def _store_terms(store, to_rdflib) -> list[Term]:
    """:func:`graph_terms` in one query on an Oxigraph store (a node of several kinds keeps the
    first in the view's order of kinds)."""
    rank = {str(rdf_type): index for index, rdf_type in enumerate(KIND_OF_CLASS)}
    best: dict[tuple[str, str], tuple[int, Term]] = {}
    for row in store.query(_STORE_TERMS % " ".join(f"<{t}>" for t in KIND_OF_CLASS)):
        node, label, rdf_type, game = row["node"], row["label"], row["type"].value, row["game"]
        game_name = row["game_label"].value if row["game_label"] is not None else str(game.value if game else None)
        term = Term(URIRef(node.value), label.value, KIND_OF_CLASS[URIRef(rdf_type)],
                    str(game.value if game else None).rsplit("/", 1)[-1], game_name)
        key = (node.value, label.value)
        if key not in best or rank[rdf_type] < best[key][0]:
            best[key] = (rank[rdf_type], term)
    return [term for _, term in best.values()]


#: Lexicons built from a graph's labels, per graph and per set of kinds; rebuilt when the graph
#: changes size. Building them is most of the cost of a lookup.
_LEXICON_CACHE: dict[int, tuple[weakref.ref, dict]] = {}


def _graph_lexicons(graph: Graph, kinds: tuple[str, ...]) -> list[tuple[Lexicon, dict[tuple[str, str], Term]]]:
    from .store import oxigraph_of

    entry = _LEXICON_CACHE.get(id(graph))
    if entry is None or entry[0]() is not graph:
        entry = (weakref.ref(graph, lambda _, key=id(graph): _LEXICON_CACHE.pop(key, None)), {})
        _LEXICON_CACHE[id(graph)] = entry
    cached = entry[1]
    key = (kinds, -1 if oxigraph_of(graph) is not None else len(graph))
    if key not in cached:
        by_game: dict[str, list[Term]] = defaultdict(list)
        for term in sorted(graph_terms(graph), key=lambda t: (KIND_ORDER.index(t.kind), t.label, str(t.uri))):
            if term.kind in kinds:
                by_game[term.game_id].append(term)
        lexicons = []
        for game_id, terms in sorted(by_game.items()):
            lexicon = Lexicon(game_id)
            index: dict[tuple[str, str], Term] = {}
            for term in terms:
                kind = LEXICON_KIND[term.kind]
                index.setdefault((kind, term.label), term)
                lexicon.add(kind, term.label)
            lexicons.append((lexicon, index))
        for stale in [k for k in cached if k[1] != key[1]]:
            del cached[stale]
        cached[key] = lexicons
    return cached[key]


#: Longer names are only compared whole: the word matcher's cost grows with the name's length.
_LOOKUP_CHARACTERS = 500


def match_name(graph: Graph, name: str, *, kinds: tuple[str, ...] = KIND_ORDER) -> list[Term]:
    """The term ``name`` means in each game, matched exactly as the extractor matches names
    (the game's :class:`~rulegraph.extract.lexicon.Lexicon` built from the graph's labels: case,
    accents, apostrophes, elisions, plural, hyphens, one typo in a long name)."""
    found = []
    key = fold(name)
    for lexicon, index in _graph_lexicons(graph, kinds):
        hit = lexicon.lookup(name) if len(name) <= _LOOKUP_CHARACTERS else None
        if hit is not None:
            found.append(index[(hit.kind, hit.label)])
            continue
        # A label the word matcher cannot read (brackets, markup, only punctuation) is still
        # found when written out whole.
        same = [term for (_, label), term in index.items() if fold(label) == key]
        if same:
            found.append(min(same, key=lambda t: (KIND_ORDER.index(t.kind), t.label)))
    return found


def find_game(graph: Graph, name: str) -> str:
    """A game's id from its id or its name, whatever the case and accents."""
    games = {str(g).rsplit("/", 1)[-1]: str(graph.value(g, RDFS.label) or g) for g in graph.subjects(RDF.type, RG.Game)}
    for game_id, label in games.items():
        if fold(name) in (fold(game_id), fold(label)):
            return game_id
    hint = ", ".join(sorted(games.values())) or "none"
    raise RulegraphError(f"unknown game {name!r}; the graph has: {hint}")


def find_term(graph: Graph, name: str, *, game: str | None = None, kinds: tuple[str, ...] = KIND_ORDER) -> Term:
    """The one term a name means; a clear error when it is unknown or found in several games."""
    candidates = match_name(graph, name, kinds=kinds)
    if game is not None:
        game_id = find_game(graph, game)
        candidates = [t for t in candidates if t.game_id == game_id]
    if not candidates:
        _raise_unknown(graph, name, game, kinds)
    games = sorted({t.game for t in candidates})
    if len(games) > 1:
        raise RulegraphError(f"{name!r} exists in several games ({', '.join(games)}); choose the game (--game, or --param game=… for a query)")
    return min(candidates, key=lambda t: (KIND_ORDER.index(t.kind), t.label))


def _raise_unknown(graph: Graph, name: str, game: str | None, kinds: tuple[str, ...]) -> None:
    game_id = find_game(graph, game) if game else None
    elsewhere = [t for t in match_name(graph, name, kinds=KIND_ORDER)
                 if t.kind not in kinds and (game_id is None or t.game_id == game_id)]
    if elsewhere:
        # "Blessé" is a known state: say so rather than "unknown".
        found = min(elsewhere, key=lambda t: KIND_ORDER.index(t.kind))
        wanted = " or ".join(sorted({"ability" if k == "undefined" else k for k in kinds}, key=KIND_ORDER.index))
        raise RulegraphError(f"{found.label!r} is a {found.kind} of {found.game}, not a{'n' if wanted[0] in 'aeiou' else ''} "
                             f"{wanted}; this command takes {wanted.split(' or ')[0]} names")
    labels = sorted({t.label for t in graph_terms(graph) if t.kind in kinds and (game_id is None or t.game_id == game_id)})
    near = closest(name, labels)
    hint = f"; did you mean {', '.join(near)}?" if near else "; check the spelling against the glossary"
    where = f" in {game}" if game else ""
    raise RulegraphError(f"unknown name {name!r}{where}{hint}")


def _common_game(graph: Graph, names: list[str], game: str | None, kinds: tuple[str, ...]) -> str:
    """The one game all names belong to, or an error that says which games are possible."""
    if game is not None:
        return find_game(graph, game)
    common: set[str] | None = None
    labels: dict[str, str] = {}
    for name in names:
        candidates = match_name(graph, name, kinds=kinds)
        if not candidates:
            _raise_unknown(graph, name, None, kinds)
        labels.update({t.game_id: t.game for t in candidates})
        games = {t.game_id for t in candidates}
        common = games if common is None else common & games
    if not common:
        raise RulegraphError(f"{', '.join(map(repr, names))} do not all belong to one game; nothing links them")
    if len(common) > 1:
        listed = ", ".join(sorted(labels[g] for g in common))
        raise RulegraphError(f"{', '.join(map(repr, names))} exist in several games ({listed}); choose the game (--game, or --param game=… for a query)")
    return next(iter(common))


# --- evidence ----------------------------------------------------------------------------


def edge_record(view: nx.MultiDiGraph, subject: str, obj: str, data: dict) -> dict[str, object]:
    """One edge of the view as the record every answer shows: ends, relation, evidence, place."""
    return {
        "subject": view.nodes[subject]["label"],
        "relation": data["relation"],
        "object": view.nodes[obj]["label"],
        "evidence": data["sentence"],
        "source": data["source"],
        "line": data["line"],
        "condition": data["condition"],
    }


def _edges_between(view: nx.MultiDiGraph, a: str, b: str) -> list[dict[str, object]]:
    records = [edge_record(view, a, b, d) for d in view.get_edge_data(a, b, default={}).values()]
    if a != b:
        records += [edge_record(view, b, a, d) for d in view.get_edge_data(b, a, default={}).values()]
    return sorted(records, key=_edge_order)


def _edge_order(record: dict[str, object]) -> tuple:
    relations = INTERACTIONS + tuple(TERM_RELATIONS)
    return (relations.index(record["relation"]), record["source"], record["line"], record["subject"])


# --- interactions ------------------------------------------------------------------------


def interactions(graph: Graph, a: str, b: str, game: str | None = None, *, max_length: int = 3) -> dict[str, object]:
    """How A and B interact: direct edges both ways, paths of up to ``max_length`` hops through
    other abilities, states or actions, and the terms or abilities both are linked to."""
    game_id = _common_game(graph, [a, b], game, KIND_ORDER)
    term_a = find_term(graph, a, game=game_id)
    term_b = find_term(graph, b, game=game_id)
    if term_a.uri == term_b.uri:
        raise RulegraphError(f"{a!r} and {b!r} name the same {term_a.kind} ({term_a.label}); give two different names")
    if not 1 <= max_length <= 4:
        raise RulegraphError(f"paths are searched up to 4 hops; max_length {max_length} is out of range")
    view = to_networkx(graph)
    ua, ub = str(term_a.uri), str(term_b.uri)
    return {
        "a": term_a.label,
        "b": term_b.label,
        "relations": _edges_between(view, ua, ub),
        "paths": _paths(view, ua, ub, max_length),
        "shared": _shared(view, ua, ub),
    }


def _paths(view: nx.MultiDiGraph, a: str, b: str, max_length: int) -> list[dict[str, object]]:
    if a not in view or b not in view:
        return []
    near = _within(view, a, max_length, {a, b}) & _within(view, b, max_length, {a, b})
    undirected = nx.Graph(view.subgraph(near | {a, b}).to_undirected(as_view=True))
    if a == b or a not in undirected or b not in undirected:
        return []
    found = []
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
    for _ in range(hops):
        following = []
        for node in frontier:
            for other in (*view.succ[node], *view.pred[node]):
                if other not in seen and (other in ends or view.nodes[other].get("kind") in PATH_KINDS):
                    seen.add(other)
                    following.append(other)
        frontier = following
    return seen


def _hop(view: nx.MultiDiGraph, u: str, v: str) -> dict[str, object]:
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
        "other_edges": len(edges) - 1,
    }


def _links(view: nx.MultiDiGraph, node: str) -> dict[tuple[str, str], list[dict[str, object]]]:
    """(relation, other node) → edge records, for the edges leaving or reaching ``node``."""
    links: dict[tuple[str, str], list[dict[str, object]]] = defaultdict(list)
    for _, other, data in view.out_edges(node, data=True):
        links[(data["relation"], other)].append(edge_record(view, node, other, data))
    for other, _, data in view.in_edges(node, data=True):
        if data["relation"] in INTERACTIONS:
            links[(data["relation"], other)].append(edge_record(view, other, node, data))
    return links


def _shared(view: nx.MultiDiGraph, a: str, b: str) -> list[dict[str, object]]:
    """Terms and third abilities both A and B are linked to, and characteristics both modify
    during the same action."""
    links_a, links_b = _links(view, a), _links(view, b)
    by_other_a: dict[str, list] = defaultdict(list)
    by_other_b: dict[str, list] = defaultdict(list)
    for (_relation, other), records in links_a.items():
        by_other_a[other] += records
    for (_relation, other), records in links_b.items():
        by_other_b[other] += records
    shared = []
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


def _modified_during(view: nx.MultiDiGraph, links: dict) -> dict[tuple[str, str], list[dict[str, object]]]:
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


# --- stacking ----------------------------------------------------------------------------

#: Words (folded) by which a game's general rules say how an acquired ability stacks.
HIGHEST_CUES = tuple(lang_words("stacking")["highest"])
#: Words for what is compared when copies stack: "le paramètre le plus élevé", "la valeur la plus haute".
QUANTITY_WORDS = tuple(lang_words("stacking")["quantity"])
ADDS_CUES = tuple(lang_words("stacking")["adds"])


@dataclass(frozen=True, slots=True)
class StackingRule:
    """How a second copy of an ability combines with the first, as the game's rules say."""

    highest_wins: bool
    plus_adds: bool
    sentences: tuple[str, ...] = ()

    def describe(self) -> str:
        if not (self.highest_wins or self.plus_adds):
            return "the game's general rules state no stacking rule: a second copy changes nothing"
        parts = []
        if self.highest_wins:
            parts.append("without + the highest parameter wins")
        if self.plus_adds:
            parts.append("a parameter written +X adds to the one held (and counts as X when none is held)")
        return "; ".join(parts)


def stacking_rule(graph: Graph, game_id: str) -> StackingRule:
    """Read the stacking rule off the game's preamble (rg:generalRules)."""
    game = next((g for g in graph.subjects(RDF.type, RG.Game) if str(g).rsplit("/", 1)[-1] == game_id), None)
    highest, adds, sentences = False, False, []
    for rules in graph.objects(game, RG.generalRules) if game is not None else ():
        for _, sentence in split_sentences(str(rules)):
            folded = fold(sentence)
            says_highest = any(w in folded for w in QUANTITY_WORDS) and any(c in folded for c in HIGHEST_CUES)
            says_adds = "+" in folded and any(c in folded for c in ADDS_CUES)
            if says_highest or says_adds:
                sentences.append(sentence)
            highest, adds = highest or says_highest, adds or says_adds
    return StackingRule(highest, adds, tuple(sentences))


def _number(value: str) -> int | None:
    digits = value.lstrip("+")
    return int(digits) if digits.isdigit() else None


def stack_parameters(rule: StackingRule, held: tuple[str, ...] | None, incoming: tuple[str, ...]) -> tuple[str, ...]:
    """The parameters after acquiring ``incoming`` when ``held`` is already there (None: not held)."""
    if held is None:
        return tuple("/".join(part.lstrip("+") for part in p.split("/")) for p in incoming)
    if not incoming or not held:
        return held or tuple(p.lstrip("+") for p in incoming)
    combined = []
    for old, new in zip(held, incoming):
        parts = []
        for old_part, new_part in zip(old.split("/"), new.split("/")):
            old_value, new_value = _number(old_part), _number(new_part)
            if old_value is None or new_value is None:
                parts.append(old_part)
            elif new_part.startswith("+") and rule.plus_adds:
                parts.append(str(old_value + new_value))
            elif rule.highest_wins:
                parts.append(str(max(old_value, new_value)))
            else:
                parts.append(old_part)
        combined.append("/".join(parts))
    return tuple(combined) + held[len(combined):]


# --- the resolver ------------------------------------------------------------------------

Argument = tuple[int, str]


@dataclass(slots=True)
class _Held:
    term: Term
    parameters: tuple[str, ...]
    given: bool
    granters: list[tuple[Argument, dict]] = field(default_factory=list)

    @property
    def display(self) -> str:
        return " ".join((self.term.label, *self.parameters))


@dataclass(slots=True)
class _Attack:
    attacker: Argument
    target: Argument
    relation: str
    edges: list[dict[str, object]]


def parse_side(side: str | list[str]) -> list[str]:
    """A side written "Fouisseur, Régénération 2" (commas or semicolons) or as a list."""
    names = _SIDE_SEPARATORS.split(side) if isinstance(side, str) else list(side)
    return [n.strip() for n in names if n and n.strip()]


def resolve(graph: Graph, sides: list[str | list[str]], game: str | None = None) -> dict[str, object]:
    """Which abilities of each side are in effect when the sides meet, with the chain of edges
    and sentences behind every verdict. Conditions on edges are shown, never evaluated."""
    parsed = [[parse_heading(n) for n in parse_side(side)] for side in sides]
    if len(parsed) < 2 or any(not side for side in parsed):
        raise RulegraphError("resolve needs at least two sides, each with one ability or more")
    game_id = _common_game(graph, [p.name for side in parsed for p in side], game, ABILITY_KINDS)
    rule = stacking_rule(graph, game_id)
    view = to_networkx(graph)
    explanation: list[dict[str, object]] = []
    held: list[dict[str, _Held]] = []
    for index, side in enumerate(parsed):
        abilities: dict[str, _Held] = {}
        for parts in side:
            term = find_term(graph, parts.name, game=game_id, kinds=ABILITY_KINDS)
            _acquire(abilities, term, parts.parameters, rule, index, explanation, given=True)
        held.append(abilities)
    _add_grants(view, graph, held, rule, game_id, explanation)
    attacks = _attacks(view, held)
    labels, reasons = _grounded_labelling(held, attacks)
    return {
        "sides": [_side_report(view, held, index, labels, reasons, attacks) for index in range(len(held))],
        "explanation": explanation + _verdicts(held, labels, reasons, attacks),
    }


def _acquire(abilities: dict[str, _Held], term: Term, parameters: tuple[str, ...], rule: StackingRule,
             side: int, explanation: list, *, given: bool, granter: tuple[Argument, dict] | None = None) -> bool:
    """Add an ability to a side, stacking its parameters; True when it is new to the side."""
    key = str(term.uri)
    current = abilities.get(key)
    if current is None:
        abilities[key] = _Held(term, stack_parameters(rule, None, parameters), given, [granter] if granter else [])
        return True
    before = current.parameters
    current.parameters = stack_parameters(rule, before, parameters)
    if granter:
        current.granters.append(granter)
    if parameters and before:
        explanation.append({
            "side": side + 1, "ability": term.label, "verdict": "stacked",
            "text": f"{term.label} {' '.join(before)} + {' '.join(parameters)} → {current.display} ({rule.describe()})",
            "chain": [{"evidence": s} for s in rule.sentences],
        })
    return False


def _grant_edges(view: nx.MultiDiGraph, graph: Graph, node: str) -> list[tuple[str, dict, str, tuple[str, ...]]]:
    """(granted node, edge, recipient, parameters) for each rg:grants statement of ``node``."""
    found = []
    for _, target, key, data in view.out_edges(node, keys=True, data=True):
        if data["relation"] != "grants":
            continue
        recipient = str(graph.value(URIRef(key), RG.recipient) or "bearer")
        amount = data.get("amount")
        found.append((target, data, recipient, (amount,) if amount else ()))
    return sorted(found, key=lambda f: (f[1]["line"], f[0]))


def _add_grants(view, graph, held: list[dict[str, _Held]], rule: StackingRule, game_id: str, explanation: list) -> None:
    """Closure over rg:grants; a grant to the "opponent" goes to every other side."""
    queue: list[Argument] = [(index, node) for index, side in enumerate(held) for node in side]
    terms = {str(t.uri): t for t in graph_terms(graph) if t.game_id == game_id}
    while queue:
        side, node = queue.pop(0)
        for target, data, recipient, parameters in _grant_edges(view, graph, node):
            receivers = [i for i in range(len(held)) if i != side] if recipient == "opponent" else [side]
            edge = edge_record(view, node, target, data)
            for receiver in receivers:
                if _acquire(held[receiver], terms[target], parameters, rule, receiver, explanation,
                            given=False, granter=((side, node), edge)):
                    queue.append((receiver, target))


def _attacks(view: nx.MultiDiGraph, held: list[dict[str, _Held]]) -> list[_Attack]:
    """cancels and negates from an ability on one side to an ability on another; one
    mutuallyCancels attack per pair, in both directions, with all its sentences."""
    attacks: dict[tuple[Argument, Argument, str], _Attack] = {}
    for side, abilities in enumerate(held):
        for node in abilities:
            for _, target, data in view.out_edges(node, data=True):
                relation = data["relation"]
                if relation not in ATTACKS and relation != MUTUAL:
                    continue
                for other, other_abilities in enumerate(held):
                    if other == side or target not in other_abilities:
                        continue
                    edge = edge_record(view, node, target, data)
                    pairs = [((side, node), (other, target))]
                    if relation == MUTUAL:
                        pairs.append(((other, target), (side, node)))
                    for attacker, victim in pairs:
                        attack = attacks.setdefault((attacker, victim, relation), _Attack(attacker, victim, relation, []))
                        if edge not in attack.edges:
                            attack.edges.append(edge)
    return list(attacks.values())


def _grounded_labelling(held: list[dict[str, _Held]], attacks: list[_Attack]):
    """The grounded labelling (least fixed point): an ability is in when every attacker is out
    and, if it was only granted, one of its granters is in; it is out when an attacker is in or
    every granter is out; the rest is undecided. A mutuallyCancels pair is one "clash" that
    defeats both members and is itself defeated by whatever defeats either member."""
    arguments = [(side, node) for side, abilities in enumerate(held) for node in abilities]
    plain = defaultdict(list)
    mutual_pairs = set()
    for attack in attacks:
        if attack.relation == MUTUAL:
            mutual_pairs.add(tuple(sorted((attack.attacker, attack.target))))
        else:
            plain[attack.target].append(attack)
    needs = {arg: [] if held[arg[0]][arg[1]].given else [[g for g, _ in held[arg[0]][arg[1]].granters]] for arg in arguments}
    attackers = {arg: [a.attacker for a in plain[arg]] for arg in arguments}
    clashes = {}
    for first, second in mutual_pairs:
        clash = ("clash", first, second)
        clashes[clash] = (first, second)
        attackers[clash] = attackers[first] + attackers[second]
        needs[clash] = needs[first] + needs[second]
        attackers[first].append(clash)
        attackers[second].append(clash)
    labels: dict = {}
    reasons: dict = {}
    changed = True
    while changed:
        changed = False
        for arg in list(attackers):
            if arg in labels:
                continue
            winning = [a for a in attackers[arg] if labels.get(a) == "in"]
            unsupported = [group for group in needs[arg] if all(labels.get(g) == "out" for g in group)]
            if winning or unsupported:
                labels[arg], reasons[arg] = "out", (winning, unsupported)
                changed = True
            elif all(labels.get(a) == "out" for a in attackers[arg]) and all(
                    any(labels.get(g) == "in" for g in group) for group in needs[arg]):
                labels[arg] = "in"
                changed = True
    for arg in attackers:
        labels.setdefault(arg, "undecided")
    return labels, reasons


def _who(held, arg) -> str:
    if arg[0] == "clash":
        first, second = arg[1], arg[2]
        return f"{held[first[0]][first[1]].term.label} and {held[second[0]][second[1]].term.label} cancelling each other"
    return f"{held[arg[0]][arg[1]].term.label} (side {arg[0] + 1})"


def _attack_edges(attacks: list[_Attack], target: Argument, attacker) -> list[dict[str, object]]:
    if attacker[0] == "clash":
        return [e for a in attacks if a.relation == MUTUAL and a.target == target for e in a.edges if a.attacker in attacker[1:]]
    return [e for a in attacks if a.target == target and a.attacker == attacker for e in a.edges]


def _defeat(held, arg, reasons, attacks) -> dict[str, object]:
    winning, unsupported = reasons[arg]
    by = [_who(held, a) if a[0] != "clash" else _who(held, a[2] if a[1] == arg else a[1]) + ", cancelling each other"
          for a in winning]
    evidence = [e for a in winning for e in _attack_edges(attacks, arg, a)]
    if unsupported:
        granters = held[arg[0]][arg[1]].granters
        by += [f"no granter left: {_who(held, g)} is defeated" for g, _ in granters]
        evidence += [edge for _, edge in granters]
    return {"ability": held[arg[0]][arg[1]].display, "by": by, "evidence": evidence}


def _side_report(view, held, index, labels, reasons, attacks) -> dict[str, object]:
    abilities = held[index]
    report = {
        "abilities": [h.display for h in abilities.values() if h.given],
        "in_effect": [h.display for node, h in abilities.items() if labels[(index, node)] == "in"],
        "defeated": [_defeat(held, (index, node), reasons, attacks) for node in abilities if labels[(index, node)] == "out"],
        "undecided": [h.display for node, h in abilities.items() if labels[(index, node)] == "undecided"],
        "granted": [
            {"ability": h.display, "by": [_who(held, g) for g, _ in h.granters], "evidence": [e for _, e in h.granters]}
            for h in abilities.values() if not h.given
        ],
    }
    return report


def _verdicts(held, labels, reasons, attacks) -> list[dict[str, object]]:
    """One explanation per ability: its verdict, the edges that decided it and, for an attack
    that failed, the edges that defeated the attacker."""
    verdicts = []
    for side, abilities in enumerate(held):
        for node, ability in abilities.items():
            arg = (side, node)
            label = labels[arg]
            chain: list[dict[str, object]] = [edge for _, edge in ability.granters]
            parts = []
            if ability.granters:
                parts.append(("also granted by " if ability.given else "granted by ") + ", ".join(
                    f"{_who(held, g)}" + (f" [condition: {e['condition']}]" if e["condition"] else "")
                    for g, e in ability.granters))
            incoming = sorted({a.attacker for a in attacks if a.target == arg and a.relation != MUTUAL})
            for attacker in incoming:
                edges = _attack_edges(attacks, arg, attacker)
                chain += edges
                relation = edges[0]["relation"]
                conditions = "; ".join(str(e["condition"]) for e in edges if e["condition"])
                attacker_label = labels.get(attacker)
                clause = f"{_who(held, attacker)} {relation} it" + (f" [condition: {conditions}]" if conditions else "")
                if attacker_label == "out":
                    beaten = _defeat(held, attacker, reasons, attacks)
                    chain += beaten["evidence"]
                    clause += f", but {held[attacker[0]][attacker[1]].term.label} is defeated by {', '.join(beaten['by'])}"
                elif attacker_label == "undecided":
                    clause += f", and {held[attacker[0]][attacker[1]].term.label} is itself undecided"
                parts.append(clause)
            _add_clash_parts(held, labels, reasons, attacks, arg, parts, chain)
            verdict = {"in": "in effect", "out": "defeated"}.get(label, "undecided")
            text = f"{ability.display} (side {side + 1}) is {verdict}"
            text += ": " + "; ".join(parts) if parts else ": nothing on another side attacks it"
            verdicts.append({"side": side + 1, "ability": ability.display, "verdict": verdict, "text": text, "chain": chain})
    return verdicts


def _add_clash_parts(held, labels, reasons, attacks, arg, parts, chain) -> None:
    for clash, label in labels.items():
        if clash[0] != "clash" or arg not in clash[1:]:
            continue
        other = clash[2] if clash[1] == arg else clash[1]
        edges = _attack_edges(attacks, arg, clash)
        chain += edges
        conditions = "; ".join(str(e["condition"]) for e in edges if e["condition"])
        clause = f"it and {_who(held, other)} cancel each other (mutuallyCancels)"
        clause += f" [condition: {conditions}]" if conditions else ""
        if label == "out":
            winning, unsupported = reasons[clash]
            why = [_who(held, w) + " defeats one of them first" for w in winning]
            why += ["one of them has lost the ability that granted it"] if unsupported else []
            clause += ", but the clash does not happen: " + "; ".join(why)
            chain += [e for w in winning for target in clash[1:] for e in _attack_edges(attacks, target, w)]
        parts.append(clause)
