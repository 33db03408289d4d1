"""One ability across editions, and one glossary across revisions, compared as text and as graph.

Everything here reads the rdflib graph only (rg:Edition, rg:EditionText, rg:Statement with
rg:edition), so a Turtle file written by ``rulegraph build`` is enough to compare. A designer wants
to see what changed, not to read two texts side by side: texts are compared word by word, and the
graph edges and parameters each edition's text gives are compared as sets.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypedDict, cast

from rdflib import RDF, Graph, URIRef

from .catalogue import Evidence, editions, find_game, iter_statements, label_of, line_of, match_name, node_value, optional_text, text_of
from .errors import RulegraphError
from .i18n import N_, _, word
from .names import is_parameter
from .namespaces import RELATIONS, RG, game_uri
from .text import closest, fold, fold_aligned
from .worddiff import Chunk, text_changed, word_count, word_diff

DEFINED_ABILITY_CLASSES = (RG.CharacterAbility, RG.WeaponAbility)
ABILITY_CLASSES = DEFINED_ABILITY_CLASSES + (RG.UndefinedAbility, RG.Ability)
_RELATION_PREDICATES = {RG[name]: name for name in RELATIONS}

_SLASH_PARAMETER = re.compile(r"\s*/\s*([^\s/.,;:()«»]+)")


class TimelineRow(TypedDict):
    """One edition of an ability's game: whether the ability is there and whether its text moved."""

    edition: str
    present: bool
    changed: bool
    status: str
    line: int | None
    words: int


class RelationRecord(TypedDict):
    """An edge as an edition diff shows it: ends and relation by label, with its evidence."""

    subject: str
    relation: str
    object: str
    evidence: str
    line: int | None
    edition: str | None
    condition: str | None
    method: str


#: What changed between two editions of an ability ("from" is a keyword, hence this spelling);
#: :func:`edition_history` adds the timeline and the steps.
EditionDiff = TypedDict("EditionDiff", {
    "ability": str, "game": str, "from": str, "to": str, "from_present": bool, "to_present": bool,
    "text_diff": list[Chunk], "added": list[RelationRecord], "removed": list[RelationRecord],
    "parameters_added": list[str], "parameters_removed": list[str],
    "timeline": list[TimelineRow], "steps": list["EditionDiff"],
}, total=False)


class EdgeRecord(TypedDict):
    """A direct edge of a build, by labels, with the earliest statement's evidence."""

    game: str
    subject: str
    relation: str
    object: str
    evidence: str | None
    line: int | None
    edition: str | None


class AbilityChange(TypedDict, total=False):
    """An ability both builds define, with the fields that differ."""

    game: str
    ability: str
    fields: list[str]
    changes: dict[str, dict[str, object]]
    text_diff: list[Chunk]
    edition_diffs: dict[str, list[Chunk]]


class RevisionDiff(TypedDict):
    """What an edit of the glossary did (:func:`diff_graphs`)."""

    abilities_added: list[dict[str, str]]
    abilities_removed: list[dict[str, str]]
    abilities_changed: list[AbilityChange]
    edges_added: list[EdgeRecord]
    edges_removed: list[EdgeRecord]


# ---------------------------------------------------------------- looking things up in the graph


def _resolve_game(graph: Graph, name: str) -> URIRef:
    return game_uri(find_game(graph, name))


def _is_ability(graph: Graph, node: URIRef, classes: Iterable[URIRef] = ABILITY_CLASSES) -> bool:
    return any((node, RDF.type, cls) in graph for cls in classes)


def _abilities(graph: Graph, game: URIRef | None, classes: Iterable[URIRef] = ABILITY_CLASSES) -> list[URIRef]:
    found = set()
    for cls in classes:
        for node in graph.subjects(RDF.type, cls):
            if isinstance(node, URIRef) and (game is None or (node, RG.game, game) in graph):
                found.add(node)
    return sorted(found)


def resolve_ability(graph: Graph, ability: str, game: str | None = None) -> tuple[URIRef, URIRef]:
    """The ability's node and its game's node, matched as every command matches names
    (:func:`rulegraph.catalogue.match_name`); a name shared by several games needs ``game``
    unless only one of them has edition texts."""
    game_node = _resolve_game(graph, game) if game else None
    defined = set(_abilities(graph, game_node, DEFINED_ABILITY_CLASSES))
    matches = sorted(t.uri for t in match_name(graph, ability, kinds=("ability",)) if t.uri in defined)
    if not matches:
        hint = closest(ability, sorted({label_of(graph, node) for node in defined}))
        where = _(" in {game}").format(game=label_of(graph, game_node)) if game_node else ""
        suggestion = _("; did you mean {names}?").format(names=", ".join(hint)) if hint else ""
        raise RulegraphError(_('no ability {ability!r}{where}{suggestion}').format(ability=ability, where=where, suggestion=suggestion))
    if len(matches) > 1:
        with_editions = [node for node in matches if (node, RG.hasEditionText, None) in graph]
        if len(with_editions) != 1:
            games = sorted(_game_label(graph, node) for node in matches)
            raise RulegraphError(_('{ability!r} is defined in several games ({games}); name one with --game').format(ability=ability, games=', '.join(games)))
        matches = with_editions
    node = matches[0]
    game_of_node = node_value(graph, node, RG.game)
    if game_of_node is None:
        raise RulegraphError(_('{ability!r} belongs to no game in this graph; rebuild it').format(ability=ability))
    return node, game_of_node


def _game_label(graph: Graph, node: URIRef) -> str:
    game = node_value(graph, node, RG.game)
    return label_of(graph, game) if game is not None else ""


def _game_editions(graph: Graph, game: URIRef) -> list[URIRef]:
    """The game's editions in lineage order (rg:order), unordered ones last by label."""
    return [edition.node for edition in editions(graph, game)]


def _resolve_edition(graph: Graph, game: URIRef, name: str) -> URIRef:
    editions = _game_editions(graph, game)
    for node in editions:
        if fold(label_of(graph, node)) == fold(name):
            return node
    labels = [label_of(graph, node) for node in editions]
    near = closest(name, labels)
    hint = _("did you mean {names}?").format(names=", ".join(near)) if near else _("its editions: {names}").format(names=", ".join(labels))
    raise RulegraphError(_('no edition {name!r} in {label_of}; {hint}').format(name=name, label_of=label_of(graph, game), hint=hint))


@dataclass(frozen=True, slots=True)
class _EditionText:
    edition: URIRef
    label: str
    present: bool
    text: str
    line: int | None


def _edition_texts(graph: Graph, ability: URIRef, game: URIRef) -> list[_EditionText]:
    """Per edition of the game, in lineage order: the ability's text there, or absent."""
    by_edition: dict[URIRef, URIRef] = {}
    for node in graph.objects(ability, RG.hasEditionText):
        edition = node_value(graph, node, RG.edition)
        if isinstance(node, URIRef) and edition is not None:
            by_edition[edition] = node
    if not by_edition:
        with_editions = sorted(
            f"{label_of(graph, node)} ({_game_label(graph, node)})"
            for node in _abilities(graph, None, DEFINED_ABILITY_CLASSES)
            if (node, RG.hasEditionText, None) in graph
        )
        listed = ", ".join(with_editions) if with_editions else "none in this graph"
        raise RulegraphError(
            _('{label_of!r} has no edition texts; abilities read from a compendium have them: {listed}').format(label_of=label_of(graph, ability), listed=listed)
        )
    texts = []
    for edition in _game_editions(graph, game):
        text_node = by_edition.get(edition)
        present = text_node is not None and bool(graph.value(text_node, RG.present))
        text = text_of(graph, text_node, RG.text)
        line = line_of(graph, text_node) if text_node is not None else None
        texts.append(_EditionText(edition, label_of(graph, edition), present, text, line or None))
    return texts


# ---------------------------------------------------------------- one ability across editions


def timeline(graph: Graph, ability: str, game: str | None = None) -> list[TimelineRow]:
    """Every edition of the ability's game in lineage order: whether it has the ability, and
    whether its text differs from the last earlier edition that had one (the first one is new)."""
    node, game_node = resolve_ability(graph, ability, game)
    return _timeline_rows(_edition_texts(graph, node, game_node))


def _timeline_rows(entries: list[_EditionText]) -> list[TimelineRow]:
    rows: list[TimelineRow] = []
    previous: _EditionText | None = None
    for entry in entries:
        if not entry.present:
            status, changed = "absent", False
        elif previous is None:
            status, changed = "new", True
        else:
            changed = text_changed(previous.text, entry.text)
            status = "changed" if changed else "unchanged"
        rows.append({
            "edition": entry.label,
            "present": entry.present,
            "changed": changed,
            "status": status,
            "line": entry.line,
            "words": word_count(entry.text),
        })
        if entry.present:
            previous = entry
    return rows


def diff_editions(graph: Graph, ability: str, from_edition: str, to_edition: str,
                  game: str | None = None) -> EditionDiff:
    """What changed from one edition's text of the ability to another's: the words, the
    relations extracted from each edition's text, and the parameters each text writes."""
    node, game_node = resolve_ability(graph, ability, game)
    texts = {entry.edition: entry for entry in _edition_texts(graph, node, game_node)}
    old = texts[_resolve_edition(graph, game_node, from_edition)]
    new = texts[_resolve_edition(graph, game_node, to_edition)]
    return _diff(graph, node, game_node, old, new, {})


def _diff(graph: Graph, node: URIRef, game_node: URIRef, old: _EditionText, new: _EditionText,
          known: dict[URIRef, tuple[dict[tuple[str, str, str], RelationRecord], set[str]]]) -> EditionDiff:
    """:func:`diff_editions` on resolved texts; ``known`` keeps each edition's relations and
    parameters for the next call (a history reads every middle edition twice)."""
    for entry in (old, new):
        if entry.edition not in known:
            known[entry.edition] = (_edition_relations(graph, node, entry), _edition_parameters(graph, node, game_node, entry))
    (old_relations, old_parameters), (new_relations, new_parameters) = known[old.edition], known[new.edition]
    return {
        "ability": label_of(graph, node),
        "game": label_of(graph, game_node),
        "from": old.label,
        "to": new.label,
        "from_present": old.present,
        "to_present": new.present,
        "text_diff": word_diff(old.text, new.text),
        "added": [new_relations[key] for key in sorted(new_relations.keys() - old_relations.keys())],
        "removed": [old_relations[key] for key in sorted(old_relations.keys() - new_relations.keys())],
        "parameters_added": sorted(new_parameters - old_parameters),
        "parameters_removed": sorted(old_parameters - new_parameters),
    }


def edition_history(graph: Graph, ability: str, game: str | None = None) -> EditionDiff:
    """The timeline, the diff between each pair of consecutive editions that have a text, and
    the whole evolution (first text to last) under the same keys as :func:`diff_editions`."""
    node, game_node = resolve_ability(graph, ability, game)
    game_label = label_of(graph, game_node)
    entries = _edition_texts(graph, node, game_node)
    rows = _timeline_rows(entries)
    present = [entry for entry in entries if entry.present]
    known: dict[URIRef, tuple[dict[tuple[str, str, str], RelationRecord], set[str]]] = {}
    steps = [_diff(graph, node, game_node, older, newer, known) for older, newer in zip(present, present[1:])]
    overall: EditionDiff = _diff(graph, node, game_node, present[0], present[-1], known) if present else {
        "ability": label_of(graph, node), "game": game_label, "text_diff": [], "added": [], "removed": [],
        "parameters_added": [], "parameters_removed": [],
    }
    return {**overall, "timeline": rows, "steps": steps}


def _edition_relations(graph: Graph, ability: URIRef, entry: _EditionText) -> dict[tuple[str, str, str], RelationRecord]:
    """Statements extracted for this edition that involve the ability or come from its text,
    keyed by (subject, relation, object) labels, with their evidence."""
    if not entry.present:
        return {}
    folded_text = fold(entry.text)
    found: dict[tuple[str, str, str], RelationRecord] = {}
    nodes = sorted(node for node in graph.subjects(RG.edition, entry.edition)
                   if isinstance(node, URIRef) and (node, RDF.type, RG.Statement) in graph)
    for statement in iter_statements(graph, nodes):
        if ability not in (statement.subject, statement.object) and fold(statement.sentence) not in folded_text:
            continue
        if statement.relation not in RELATIONS:
            continue
        relation = statement.relation
        record = _statement_record(graph, statement)
        key = (record["subject"], relation, record["object"])
        if key not in found or (record["line"] or 0) < (found[key]["line"] or 0):
            found[key] = record
    return found


def _statement_record(graph: Graph, statement: Evidence) -> RelationRecord:
    return {
        "subject": label_of(graph, statement.subject),
        "relation": statement.relation,
        "object": label_of(graph, statement.object),
        "evidence": statement.sentence,
        "line": statement.line or None,
        "edition": statement.edition or None,
        "condition": statement.condition,
        "method": statement.method,
    }


def _edition_parameters(graph: Graph, ability: URIRef, game: URIRef, entry: _EditionText) -> set[str]:
    """``Name/Param`` for the heading's parameters and every ability of the game the text writes
    with a slash parameter ("Toxique/X", "Structure/ X" → "Structure/X")."""
    if not entry.present:
        return set()
    name = label_of(graph, ability)
    found = {f"{name}/{parameter}" for parameter in graph.objects(ability, RG.parameter)}
    aligned = fold_aligned(entry.text)
    for node in _abilities(graph, game):
        label = label_of(graph, node)
        key = fold(label)
        if not key:
            continue
        for match in re.finditer(rf"(?<!\w){re.escape(key)}(?!\w)", aligned):
            slash = _SLASH_PARAMETER.match(entry.text, match.end())
            if slash and is_parameter(slash.group(1)):
                found.add(f"{label}/{slash.group(1)}")
    return found


# ---------------------------------------------------------------- one glossary across revisions


def _ability_record(graph: Graph, node: URIRef) -> dict[str, object]:
    notes = sorted(text_of(graph, note, RG.text) for note in graph.objects(node, RG.hasNote))
    editions: dict[str, str | None] = {}
    for text_node in graph.objects(node, RG.hasEditionText):
        edition = node_value(graph, text_node, RG.edition)
        editions[label_of(graph, edition) if edition is not None else ""] = optional_text(graph, text_node, RG.text)
    category = next((str(cls).rsplit("#", 1)[-1] for cls in DEFINED_ABILITY_CLASSES if (node, RDF.type, cls) in graph), "")
    return {
        "category": category,
        "heading": text_of(graph, node, RG.heading),
        "text": text_of(graph, node, RG.text),
        "parameters": sorted(str(p) for p in graph.objects(node, RG.parameter)),
        "tags": sorted(str(t) for t in graph.objects(node, RG.tag)),
        "notes": notes,
        "editions": dict(sorted(editions.items())),
    }


def _defined_abilities(graph: Graph) -> dict[tuple[str, str], dict[str, object]]:
    records = {}
    for node in _abilities(graph, None, DEFINED_ABILITY_CLASSES):
        records[(_game_label(graph, node), label_of(graph, node))] = _ability_record(graph, node)
    return records


def _edges(graph: Graph) -> dict[tuple[str, str, str, str], EdgeRecord]:
    """Every direct edge between terms, keyed by (game, subject, relation, object) labels, with
    the earliest statement that carries its evidence."""
    evidence: dict[tuple[URIRef, str, URIRef], list[Evidence]] = {}
    for statement in iter_statements(graph):
        evidence.setdefault((statement.subject, statement.relation, statement.object), []).append(statement)
    edges: dict[tuple[str, str, str, str], EdgeRecord] = {}
    for predicate, relation in _RELATION_PREDICATES.items():
        for subject, obj in graph.subject_objects(predicate):
            if not isinstance(subject, URIRef) or not isinstance(obj, URIRef):
                continue
            record: EdgeRecord = {
                "game": _game_label(graph, subject),
                "subject": label_of(graph, subject),
                "relation": relation,
                "object": label_of(graph, obj),
                "evidence": None,
                "line": None,
                "edition": None,
            }
            statements = [_statement_record(graph, s) for s in evidence.get((subject, relation, obj), [])]
            if statements:
                first = min(statements, key=lambda s: (s["line"] or 0, s["evidence"]))
                record["evidence"], record["line"], record["edition"] = first["evidence"], first["line"], first["edition"]
            edges[(record["game"], record["subject"], relation, record["object"])] = record
    return edges


#: What can change in an ability between two builds, as the user reads it (JSON keeps the keys).
_FIELD_WORDS = {"text": N_("text"), "parameters": N_("parameters"), "tags": N_("tags"), "notes": N_("notes"),
                "heading": N_("heading"), "category": N_("category"), "editions": N_("editions")}


def field_label(field: str) -> str:
    return word(_FIELD_WORDS, field)


#: An ability's status in one edition of its history, as the user reads it.
_STATUS_WORDS = {"absent": N_("absent"), "new": N_("new"), "changed": N_("changed"), "unchanged": N_("unchanged")}


def status_label(status: str) -> str:
    return word(_STATUS_WORDS, status)


def diff_graphs(old: Graph, new: Graph) -> RevisionDiff:
    """What an edit of the glossary did: abilities added, removed or changed (text, parameters,
    tags, notes, heading, category, edition texts; line numbers are ignored since an edit above
    shifts them all), and edges added or removed, compared by (game, subject, relation, object)."""
    old_abilities, new_abilities = _defined_abilities(old), _defined_abilities(new)
    changed: list[AbilityChange] = []
    for key in sorted(old_abilities.keys() & new_abilities.keys()):
        before, after = old_abilities[key], new_abilities[key]
        fields = {name: {"old": before[name], "new": after[name]} for name in before if before[name] != after[name]}
        if not fields:
            continue
        record: AbilityChange = {"game": key[0], "ability": key[1], "fields": sorted(fields), "changes": fields}
        if "text" in fields:
            record["text_diff"] = word_diff(str(before["text"]), str(after["text"]))
        if "editions" in fields:
            old_texts = cast(dict[str, "str | None"], before["editions"])
            new_texts = cast(dict[str, "str | None"], after["editions"])
            record["edition_diffs"] = {
                edition: word_diff(old_texts.get(edition) or "", new_texts.get(edition) or "")
                for edition in sorted(old_texts.keys() | new_texts.keys())
                if old_texts.get(edition) != new_texts.get(edition)
            }
        changed.append(record)
    old_edges, new_edges = _edges(old), _edges(new)
    return {
        "abilities_added": [{"game": g, "ability": a} for g, a in sorted(new_abilities.keys() - old_abilities.keys())],
        "abilities_removed": [{"game": g, "ability": a} for g, a in sorted(old_abilities.keys() - new_abilities.keys())],
        "abilities_changed": changed,
        "edges_added": [new_edges[key] for key in sorted(new_edges.keys() - old_edges.keys())],
        "edges_removed": [old_edges[key] for key in sorted(old_edges.keys() - new_edges.keys())],
    }
