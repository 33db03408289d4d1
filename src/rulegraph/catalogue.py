"""The read layer: the graph read back as typed records, in one place.

rdflib is the single source of truth; everything that reads it (checks, editions, interactions,
the resolver, queries, views, exports) asks this module rather than walking triples on its own:
labels and games of nodes, the defined abilities, the rg:Statement nodes with their evidence,
a game's editions, the cached NetworkX view, and the one name lookup every command uses.

The functions take an rdflib :class:`~rdflib.Graph`; :class:`RuleGraph` wraps one graph and
offers the same reads as methods, in the style of networkx's graph classes.
"""

from __future__ import annotations

import weakref
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rdflib import RDF, RDFS, Graph, Literal, URIRef
from rdflib.term import Node

from .errors import RulegraphError
from .extract.lexicon import Lexicon
from .i18n import _
from .namespaces import RG
from .text import closest, fold
from .vocabulary import KIND_OF_CLASS, LEXICON_KIND, NODE_KINDS, kind_label

if TYPE_CHECKING:
    import networkx as nx

#: The defined abilities: what a glossary gives a heading and a text to.
DEFINED_CLASSES = (RG.CharacterAbility, RG.WeaponAbility)
#: Kinds of node a name may resolve to, in the order that wins when one game has several.
KIND_ORDER = tuple(NODE_KINDS)
ABILITY_KINDS = ("ability", "undefined")


# --- one node ----------------------------------------------------------------------------


def local_name(node: object) -> str:
    """The last segment of a URI: a game's id, a node's name when it has no label."""
    return str(node).rsplit("/", 1)[-1]


def relation_name(predicate: object) -> str:
    """The vocabulary name of a predicate (``rg:cancels`` → ``cancels``)."""
    return str(predicate).rsplit("#", 1)[-1]


def text_of(graph: Graph, node: Node | None, prop: URIRef) -> str:
    """The value of a literal property as text; "" when the node or the value is missing."""
    value = graph.value(node, prop) if node is not None else None
    return "" if value is None else str(value)


def node_value(graph: Graph, node: Node, prop: URIRef) -> URIRef | None:
    """The node a property points to (rg:game, rg:edition…); None when missing or a literal."""
    value = graph.value(node, prop)
    return value if isinstance(value, URIRef) else None


def optional_text(graph: Graph, node: Node, prop: URIRef) -> str | None:
    value = graph.value(node, prop)
    return None if value is None else str(value)


def label_of(graph: Graph, node: Node) -> str:
    """rdfs:label, or the URI's last segment for a node without one."""
    return text_of(graph, node, RDFS.label) or local_name(node)


def game_of(graph: Graph, node: Node) -> tuple[str, str]:
    """(id, display name) of the game a node belongs to; ("", "") when it has none."""
    game = graph.value(node, RG.game)
    if game is None:
        return "", ""
    return local_name(game), label_of(graph, game)


def source_of(graph: Graph, node: Node) -> str:
    """The path of the file a node was read from ("" when none)."""
    return text_of(graph, graph.value(node, RG.source), RG.path)


def line_of(graph: Graph, node: Node) -> int | None:
    """The line number, or None when missing or not a number (SHACL reports that case)."""
    value = graph.value(node, RG.line)
    number = value.toPython() if isinstance(value, Literal) else None
    return number if isinstance(number, int) and not isinstance(number, bool) else None


def line_containing(graph: Graph, node: Node, snippet: str) -> int | None:
    """The source line of ``node``'s rule text that holds ``snippet`` (compared folded)."""
    wanted = fold(snippet)
    for piece in sorted(graph.objects(node, RG.hasLine), key=lambda n: line_of(graph, n) or 0):
        if wanted in fold(text_of(graph, piece, RG.text)):
            return line_of(graph, piece)
    return None


def is_defined(graph: Graph, node: Node) -> bool:
    """True for a character or weapon ability (one a glossary defines)."""
    return any((node, RDF.type, t) in graph for t in DEFINED_CLASSES)


def node_kind(graph: Graph, node: Node) -> str | None:
    """The node's kind (ability, undefined, state, action, characteristic, concept), or None."""
    for rdf_type in graph.objects(node, RDF.type):
        if isinstance(rdf_type, URIRef) and rdf_type in KIND_OF_CLASS:
            return KIND_OF_CLASS[rdf_type]
    return None


# --- records -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ability:
    """A defined ability as the graph holds it."""

    node: URIRef
    label: str
    game_id: str
    game: str
    source: str
    line: int
    text: str
    heading: str
    parameters: tuple[str, ...]
    slots: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Evidence:
    """One rg:Statement: an edge, the sentence, file and line that state it, and what the
    extractor recorded with it (condition, amount, recipient, method, typer's confidence…)."""

    subject: URIRef
    relation: str
    object: URIRef
    sentence: str
    source: str
    line: int
    edition: str = ""
    node: Node | None = None
    condition: str | None = None
    scope: str | None = None
    amount: str | None = None
    recipient: str | None = None
    method: str = ""
    confidence: float | None = None
    rule: str | None = None
    suggested: str | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class Term:
    """A named node of the graph: ability, state, action, characteristic or concept."""

    uri: URIRef
    label: str
    kind: str
    game_id: str
    game: str


@dataclass(frozen=True, slots=True)
class Edition:
    """One edition of a game: its node, label and place in the lineage (None: unordered)."""

    node: URIRef
    label: str
    order: int | None


#: Abilities and statements already read, per graph object (see :func:`per_graph`): a build's
#: checks, report and atlas each asked for them again.
_ABILITIES: dict[int, tuple[weakref.ref[Graph], int, Any]] = {}
_STATEMENTS: dict[int, tuple[weakref.ref[Graph], int, Any]] = {}
_RECORDS: dict[int, tuple[weakref.ref[Graph], int, Any]] = {}


def abilities(graph: Graph) -> list[Ability]:
    """Every defined ability, in file order (game, source, line); read once per graph and size."""
    return list(per_graph(_ABILITIES, graph, lambda: _read_abilities(graph)))


def _read_abilities(graph: Graph) -> list[Ability]:
    found = []
    for rdf_type in DEFINED_CLASSES:
        for node in graph.subjects(RDF.type, rdf_type):
            if not isinstance(node, URIRef):
                continue
            game_id, game = game_of(graph, node)
            found.append(Ability(
                node=node,
                label=label_of(graph, node),
                game_id=game_id,
                game=game,
                source=source_of(graph, node),
                line=line_of(graph, node) or 0,
                text=text_of(graph, node, RG.text),
                heading=text_of(graph, node, RG.heading),
                parameters=tuple(sorted(str(p) for p in graph.objects(node, RG.parameter))),
                slots=tuple(sorted(str(s) for s in graph.objects(node, RG.keywordSlot))),
            ))
    return sorted(found, key=lambda a: (a.game, a.source, a.line, a.label))


def statement(graph: Graph, node: Node) -> Evidence | None:
    """The record of one rg:Statement node; None when its subject, predicate or object is missing."""
    predicate = graph.value(node, RDF.predicate)
    subject = graph.value(node, RDF.subject)
    obj = graph.value(node, RDF.object)
    if not isinstance(subject, URIRef) or not isinstance(obj, URIRef) or predicate is None:
        return None
    edition = graph.value(node, RG.edition)
    confidence = graph.value(node, RG.confidence)
    suggested = graph.value(node, RG.suggested)
    return Evidence(
        subject=subject,
        relation=relation_name(predicate),
        object=obj,
        sentence=text_of(graph, node, RG.sentence),
        source=source_of(graph, node),
        line=line_of(graph, node) or 0,
        edition=label_of(graph, edition) if edition is not None else "",
        node=node,
        condition=optional_text(graph, node, RG.condition),
        scope=optional_text(graph, node, RG.scope),
        amount=optional_text(graph, node, RG.amount),
        recipient=optional_text(graph, node, RG.recipient),
        method=text_of(graph, node, RG.method),
        confidence=float(confidence.toPython()) if isinstance(confidence, Literal) else None,
        rule=optional_text(graph, node, RG.rule),
        suggested=relation_name(suggested) if suggested is not None else None,
        reason=optional_text(graph, node, RG.reason),
    )


def iter_statements(graph: Graph, nodes: Iterable[Node] | None = None) -> Iterator[Evidence]:
    """The rg:Statement records in the graph's own order (or of the given statement nodes); all
    of them are read once per graph and size (the NetworkX view and :func:`statements` both
    want them)."""
    if nodes is None:
        yield from per_graph(_RECORDS, graph, lambda: list(iter_statements(graph, graph.subjects(RDF.type, RG.Statement))))
        return
    for node in nodes:
        record = statement(graph, node)
        if record is not None:
            yield record


def statements(graph: Graph) -> list[Evidence]:
    """Every interaction statement with its evidence, in file order; read once per graph and size."""
    return list(per_graph(_STATEMENTS, graph, lambda: sorted(
        iter_statements(graph), key=lambda e: (e.source, e.line, e.relation, str(e.subject), str(e.object)))))


def games(graph: Graph) -> dict[str, str]:
    """Game id → display name, for every rg:Game of the graph."""
    return {local_name(g): str(graph.value(g, RDFS.label) or g) for g in graph.subjects(RDF.type, RG.Game)}


def game_node(graph: Graph, game_id: str) -> URIRef | None:
    """The rg:Game node whose id is ``game_id``."""
    return next((g for g in graph.subjects(RDF.type, RG.Game) if isinstance(g, URIRef) and local_name(g) == game_id), None)


def editions(graph: Graph, game: URIRef) -> list[Edition]:
    """The game's editions in lineage order (rg:order), unordered ones last by label."""
    found = []
    for node in graph.subjects(RG.game, game):
        if isinstance(node, URIRef) and (node, RDF.type, RG.Edition) in graph:
            order = graph.value(node, RG.order)
            found.append(Edition(node, label_of(graph, node), int(order.toPython()) if isinstance(order, Literal) else None))
    return sorted(found, key=lambda e: (e.order if e.order is not None else 10**9, fold(e.label)))


# --- terms and the name lookup -------------------------------------------------------------

_STORE_TERMS = """PREFIX rg: <https://w3id.org/rulegraph#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
SELECT ?node ?label ?type ?game ?game_label WHERE {
  VALUES ?type { %s }
  ?node a ?type ; rdfs:label ?label .
  OPTIONAL { ?node rg:game ?game OPTIONAL { ?game rdfs:label ?game_label } }
}"""


def per_graph(cache: dict[int, tuple[weakref.ref[Graph], int, Any]], graph: Graph, build: Callable[[], Any]) -> Any:
    """What ``build`` gives for ``graph``, kept as long as the graph lives and keeps its size
    (a graph read from the store cannot change)."""
    from .store import oxigraph_of

    size = -1 if oxigraph_of(graph) is not None else len(graph)
    cached = cache.get(id(graph))
    if cached is not None and cached[0]() is graph and cached[1] == size:
        return cached[2]
    value = build()
    key = id(graph)
    cache[key] = (weakref.ref(graph, lambda _: cache.pop(key, None)), size, value)
    return value


#: Term lists already read, per graph object: (the graph, its size then, the terms).
_TERMS_CACHE: dict[int, tuple[weakref.ref[Graph], int, Any]] = {}


def graph_terms(graph: Graph) -> list[Term]:
    """Every labelled term of the graph with its kind and game (read once per graph and size)."""
    from .store import oxigraph_of

    store = oxigraph_of(graph)
    terms: list[Term] = per_graph(_TERMS_CACHE, graph, lambda: _store_terms(store) if store is not None else _read_terms(graph))
    return list(terms)


def _read_terms(graph: Graph) -> list[Term]:
    found: list[Term] = []
    names: dict[Node | None, str] = {}
    for node, label in graph.subject_objects(RDFS.label):
        kind = node_kind(graph, node) if isinstance(node, URIRef) else None
        if kind is None or not isinstance(node, URIRef):
            continue
        game = graph.value(node, RG.game)
        if game not in names:
            names[game] = str(graph.value(game, RDFS.label) or game)
        found.append(Term(node, str(label), kind, local_name(game), names[game]))
    return found


def _store_terms(store: Any) -> list[Term]:
    """:func:`graph_terms` in one query on an Oxigraph store (a node of several kinds keeps the
    first in the order of :data:`KIND_OF_CLASS`)."""
    rank = {str(rdf_type): index for index, rdf_type in enumerate(KIND_OF_CLASS)}
    best: dict[tuple[str, str], tuple[int, Term]] = {}
    for row in store.query(_STORE_TERMS % " ".join(f"<{t}>" for t in KIND_OF_CLASS)):
        node, label, rdf_type, game = row["node"], row["label"], row["type"].value, row["game"]
        game_name = row["game_label"].value if row["game_label"] is not None else str(game.value if game else None)
        term = Term(URIRef(node.value), label.value, KIND_OF_CLASS[URIRef(rdf_type)],
                    local_name(game.value if game else None), game_name)
        key = (node.value, label.value)
        if key not in best or rank[rdf_type] < best[key][0]:
            best[key] = (rank[rdf_type], term)
    return [term for _from, term in best.values()]


_GameLexicons = list[tuple[Lexicon, dict[tuple[str, str], Term]]]
#: Lexicons built from a graph's labels, per graph and per set of kinds; rebuilt when the graph
#: changes size. Building them is most of the cost of a lookup.
_LEXICON_CACHE: dict[int, tuple[weakref.ref[Graph], int, Any]] = {}


def _graph_lexicons(graph: Graph, kinds: tuple[str, ...]) -> _GameLexicons:
    per_kinds: dict[tuple[str, ...], _GameLexicons] = per_graph(_LEXICON_CACHE, graph, dict)
    if kinds not in per_kinds:
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
        per_kinds[kinds] = lexicons
    return per_kinds[kinds]


def game_lexicon(graph: Graph, game_id: str, kinds: tuple[str, ...] = KIND_ORDER) -> Lexicon:
    """The lexicon of one game's labels of ``kinds``, built once per graph (to find the names a
    text or a message mentions, as the extractor finds them)."""
    for lexicon, _index in _graph_lexicons(graph, kinds):
        if lexicon.game == game_id:
            return lexicon
    return Lexicon(game_id)


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


def _exact(terms: list[Term], name: str) -> list[Term]:
    """The terms whose label is ``name`` itself (folded), when some are; else all of them: a
    name written out exactly in one game is not also a typo of a name in another."""
    same = [t for t in terms if fold(t.label) == fold(name)]
    return same or terms


def lookup(graph: Graph, name: str, kinds: tuple[str, ...] = KIND_ORDER, game: str | None = None) -> list[Term]:
    """The terms ``name`` may mean, one per game (only in ``game`` when given, by its id or
    name); an exact match in one game wins over near matches in others."""
    candidates = match_name(graph, name, kinds=kinds)
    if game is not None:
        game_id = find_game(graph, game)
        candidates = [t for t in candidates if t.game_id == game_id]
    return _exact(candidates, name)


def find_game(graph: Graph, name: str) -> str:
    """A game's id from its id or its name, whatever the case and accents."""
    known = games(graph)
    for game_id, label in known.items():
        if fold(name) in (fold(game_id), fold(label)):
            return game_id
    hint = ", ".join(sorted(known.values())) or _("none")
    raise RulegraphError(_('unknown game {name!r}; the graph has: {hint}').format(name=name, hint=hint))


def find_term(graph: Graph, name: str, *, game: str | None = None, kinds: tuple[str, ...] = KIND_ORDER) -> Term:
    """The one term a name means; a clear error when it is unknown or found in several games."""
    candidates = lookup(graph, name, kinds, game)
    if not candidates:
        raise_unknown(graph, name, game, kinds)
    names = sorted({t.game for t in candidates})
    if len(names) > 1:
        raise RulegraphError(_('{name!r} exists in several games ({names}); choose the game (--game, or --param game=… for a query)').format(name=name, names=', '.join(names)))
    return min(candidates, key=lambda t: (KIND_ORDER.index(t.kind), t.label))


def kind_word(kind: str) -> str:
    """A kind of node as a user reads it ("state", in French "état")."""
    return kind_label(kind).lower()


def raise_unknown(graph: Graph, name: str, game: str | None, kinds: tuple[str, ...]) -> None:
    """Raise the error for a name that means nothing of ``kinds``: what it is instead, or the
    closest labels."""
    game_id = find_game(graph, game) if game else None
    elsewhere = [t for t in match_name(graph, name, kinds=KIND_ORDER)
                 if t.kind not in kinds and (game_id is None or t.game_id == game_id)]
    if elsewhere:
        # "Blessé" is a known state: say so rather than "unknown".
        found = min(elsewhere, key=lambda t: KIND_ORDER.index(t.kind))
        wanted = sorted({LEXICON_KIND[k] for k in kinds}, key=KIND_ORDER.index)
        raise RulegraphError(_("{label!r} is a {kind} of {game}, not {article} {wanted}; this command takes {takes} names").format(
            label=found.label, kind=kind_word(found.kind), game=found.game, article="an" if wanted[0][0] in "aeiou" else "a",
            wanted=_(" or ").join(kind_word(k) for k in wanted), takes=kind_word(wanted[0])))
    labels = sorted({t.label for t in graph_terms(graph) if t.kind in kinds and (game_id is None or t.game_id == game_id)})
    near = closest(name, labels)
    hint = _("; did you mean {names}?").format(names=", ".join(near)) if near else _("; check the spelling against the glossary")
    where = _(" in {game}").format(game=game) if game else ""
    raise RulegraphError(_('unknown name {name!r}{where}{hint}').format(name=name, where=where, hint=hint))


def common_game(graph: Graph, names: list[str], game: str | None, kinds: tuple[str, ...]) -> str:
    """The one game all names belong to, or an error that says which games are possible; among
    several, the one game where every name is written out exactly wins."""
    if game is not None:
        return find_game(graph, game)
    common: set[str] | None = None
    exact: set[str] | None = None
    labels: dict[str, str] = {}
    for name in names:
        candidates = match_name(graph, name, kinds=kinds)
        if not candidates:
            raise_unknown(graph, name, None, kinds)
        labels.update({t.game_id: t.game for t in candidates})
        found = {t.game_id for t in candidates}
        written = {t.game_id for t in candidates if fold(t.label) == fold(name)}
        common = found if common is None else common & found
        exact = written if exact is None else exact & written
    if not common:
        raise RulegraphError(_('{names} do not all belong to one game; nothing links them').format(names=', '.join(map(repr, names))))
    if len(common) > 1 and exact is not None and len(exact & common) == 1:
        common = exact & common
    if len(common) > 1:
        listed = ", ".join(sorted(labels[g] for g in common))
        raise RulegraphError(_('{names} exist in several games ({listed}); choose the game (--game, or --param game=… for a query)').format(names=', '.join(map(repr, names)), listed=listed))
    return next(iter(common))


#: Lexicons of a NetworkX view's labels (the atlas, widgets and exports look names up in a view,
#: which may be a neighbourhood or a filtered copy), per view object and its number of nodes.
_VIEW_LEXICONS: dict[int, tuple[weakref.ref[Any], int, Lexicon]] = {}


def match_nodes(view: nx.MultiDiGraph, name: str) -> list[str]:
    """Nodes of a view named ``name`` in any game, matched as the extractor matches names (case,
    accents, apostrophes, plural, parameters, one typo in a long name).

    Raises RulegraphError with the closest labels when nothing matches."""
    key, size = id(view), view.number_of_nodes()
    cached = _VIEW_LEXICONS.get(key)
    if cached is not None and cached[0]() is view and cached[1] == size:
        lexicon = cached[2]
    else:
        lexicon = Lexicon("atlas")
        for label in sorted({label for _, label in view.nodes(data="label")}):
            lexicon.add("ability", label)
        _VIEW_LEXICONS[key] = (weakref.ref(view, lambda _: _VIEW_LEXICONS.pop(key, None)), size, lexicon)
    hit = lexicon.lookup(name)
    if hit is None:
        hints = lexicon.closest(name)
        hint = _("; did you mean {names}?").format(names=", ".join(hints)) if hints else _("; check the spelling against the glossary")
        raise RulegraphError(_('no ability or term named {name!r} in the graph{hint}').format(name=name, hint=hint))
    return sorted(node for node, label in view.nodes(data="label") if label == hit.label)


# --- the wrapper ---------------------------------------------------------------------------


class RuleGraph:
    """One rdflib graph and its reads: ``RuleGraph(graph).abilities()``, ``.lookup("Fouisseur")``,
    ``.networkx()``. The graph stays the source of truth; the wrapper holds no copy of it."""

    __slots__ = ("graph",)

    def __init__(self, graph: Graph) -> None:
        self.graph = graph

    def label(self, node: Node) -> str:
        return label_of(self.graph, node)

    def game_of(self, node: Node) -> tuple[str, str]:
        return game_of(self.graph, node)

    def games(self) -> dict[str, str]:
        return games(self.graph)

    def abilities(self) -> list[Ability]:
        return abilities(self.graph)

    def statements(self) -> list[Evidence]:
        return statements(self.graph)

    def editions(self, game: str) -> list[Edition]:
        """The editions of a game given by its id or name, in lineage order."""
        node = game_node(self.graph, find_game(self.graph, game))
        return editions(self.graph, node) if node is not None else []

    def terms(self) -> list[Term]:
        return graph_terms(self.graph)

    def lookup(self, name: str, kinds: tuple[str, ...] = KIND_ORDER, game: str | None = None) -> list[Term]:
        return lookup(self.graph, name, kinds, game)

    def term(self, name: str, kinds: tuple[str, ...] = KIND_ORDER, game: str | None = None) -> Term:
        return find_term(self.graph, name, game=game, kinds=kinds)

    def networkx(self) -> nx.MultiDiGraph:
        """The NetworkX view, built once per graph (read it, never change it)."""
        from .views.networkx_view import to_networkx

        return to_networkx(self.graph)
