"""What the checks read off the graph: abilities with their place in the files, and the evidence
behind each edge. One pass of plain triple lookups, so every check sees the same records."""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass

from rdflib import RDF, RDFS, Graph, URIRef

from ..namespaces import RG
from ..text import fold

DEFINED_CLASSES = (RG.CharacterAbility, RG.WeaponAbility)


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
    """One rg:Statement: an edge and the sentence, file and line that state it."""

    subject: URIRef
    relation: str
    object: URIRef
    sentence: str
    source: str
    line: int
    edition: str = ""


def text_of(graph: Graph, node: URIRef, prop: URIRef) -> str:
    value = graph.value(node, prop)
    return "" if value is None else str(value)


def label_of(graph: Graph, node: URIRef) -> str:
    return text_of(graph, node, RDFS.label) or str(node).rsplit("/", 1)[-1]


def game_of(graph: Graph, node: URIRef) -> tuple[str, str]:
    """(id, display name) of the game a node belongs to; ("", "") when it has none."""
    game = graph.value(node, RG.game)
    if game is None:
        return "", ""
    return str(game).rsplit("/", 1)[-1], label_of(graph, game)


def source_of(graph: Graph, node: URIRef) -> str:
    source = graph.value(node, RG.source)
    return text_of(graph, source, RG.path) if source is not None else ""


def line_of(graph: Graph, node: URIRef) -> int | None:
    """The line number, or None when missing or not a number (SHACL reports that case)."""
    value = graph.value(node, RG.line)
    number = value.toPython() if value is not None else None
    return number if isinstance(number, int) and not isinstance(number, bool) else None


def line_containing(graph: Graph, node: URIRef, snippet: str) -> int | None:
    """The source line of ``node``'s rule text that holds ``snippet`` (compared folded)."""
    wanted = fold(snippet)
    for piece in sorted(graph.objects(node, RG.hasLine), key=lambda n: line_of(graph, n) or 0):
        if wanted in fold(text_of(graph, piece, RG.text)):
            return line_of(graph, piece)
    return None


def abilities(graph: Graph) -> list[Ability]:
    """Every defined ability, in file order (game, source, line)."""
    found = []
    for rdf_type in DEFINED_CLASSES:
        for node in graph.subjects(RDF.type, rdf_type):
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


def evidence(graph: Graph) -> list[Evidence]:
    """Every interaction statement with its evidence, in file order."""
    found = []
    for node in graph.subjects(RDF.type, RG.Statement):
        predicate = graph.value(node, RDF.predicate)
        subject = graph.value(node, RDF.subject)
        obj = graph.value(node, RDF.object)
        if predicate is None or subject is None or obj is None:
            continue
        edition = graph.value(node, RG.edition)
        found.append(Evidence(
            subject=subject,
            relation=str(predicate).rsplit("#", 1)[-1],
            object=obj,
            sentence=text_of(graph, node, RG.sentence),
            source=source_of(graph, node),
            line=line_of(graph, node) or 0,
            edition=label_of(graph, edition) if edition is not None else "",
        ))
    return sorted(found, key=lambda e: (e.source, e.line, e.relation, str(e.subject), str(e.object)))


class TextLocator:
    """Which ability's text a file line belongs to: the last ability heading at or above it."""

    def __init__(self, defined: list[Ability]):
        by_source: dict[str, list[Ability]] = defaultdict(list)
        for ability in defined:
            by_source[ability.source].append(ability)
        self._starts = {s: [a.line for a in sorted(items, key=lambda a: a.line)] for s, items in by_source.items()}
        self._items = {s: sorted(items, key=lambda a: a.line) for s, items in by_source.items()}

    def ability_at(self, source: str, line: int) -> Ability | None:
        starts = self._starts.get(source)
        if not starts:
            return None
        index = bisect_right(starts, line) - 1
        return self._items[source][index] if index >= 0 else None


def is_defined(graph: Graph, node: URIRef) -> bool:
    return any((node, RDF.type, t) in graph for t in DEFINED_CLASSES)


def place(source: str, line: int | None) -> str:
    return f"{source}:{line}" if line else source
