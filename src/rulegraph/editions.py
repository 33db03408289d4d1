"""One ability across editions, and one glossary across revisions, compared as text and as graph.

Everything here reads the rdflib graph only (rg:Edition, rg:EditionText, rg:Statement with
rg:edition), so a Turtle file written by ``rulegraph build`` is enough to compare. A designer wants
to see what changed, not to read two texts side by side: texts are compared word by word, and the
graph edges and parameters each edition's text gives are compared as sets.
"""

from __future__ import annotations

import difflib
import html
import re
from collections.abc import Iterable
from dataclasses import dataclass

from rdflib import RDF, RDFS, Graph, URIRef

from .errors import RulegraphError
from .names import is_parameter
from .namespaces import RELATIONS, RG
from .text import closest, fold, fold_aligned, normalize_apostrophes

DEFINED_ABILITY_CLASSES = (RG.CharacterAbility, RG.WeaponAbility)
ABILITY_CLASSES = DEFINED_ABILITY_CLASSES + (RG.UndefinedAbility, RG.Ability)
_RELATION_PREDICATES = {RG[name]: name for name in RELATIONS}

#: A word with what glues to it inside (d’un, Toxique/X, 3.5, Mort-vivant), or one punctuation
#: mark; each token keeps the whitespace after it so that the chunks rebuild the text exactly.
_DIFF_TOKEN = re.compile(r"(?:^\s+)?(?:[^\W_]+(?:['’ʼ/.\-][^\W_]+)*['’ʼ]?|\S)\s*")
#: An unchanged run this short between two changes is folded into them: "[-un Dé-] [-:-]" reads
#: worse than one replaced phrase.
_MERGE_EQUAL_TOKENS = 2
_SLASH_PARAMETER = re.compile(r"\s*/\s*([^\s/.,;:()«»]+)")


# ---------------------------------------------------------------- word diff


@dataclass(frozen=True, slots=True)
class _Word:
    surface: str
    key: str


def _words(text: str) -> list[_Word]:
    """Diff tokens; the key ignores the apostrophe's typography and the trailing whitespace,
    except a line break (the end of the text counts as one), so that a sentence end is not
    matched with a paragraph end."""
    matches = list(_DIFF_TOKEN.finditer(text))
    words = []
    for index, match in enumerate(matches):
        surface = match.group()
        stripped = surface.rstrip()
        breaks = "\n" in surface[len(stripped):] or index == len(matches) - 1
        words.append(_Word(surface, normalize_apostrophes(stripped.lstrip()) + ("\n" if breaks else "")))
    return words


def word_diff(old: str, new: str) -> list[dict[str, str]]:
    """A word-level diff as readable chunks ``{op, old, new}``, op being equal, insert, delete
    or replace; joining the ``old`` parts gives the old text back, the ``new`` parts the new."""
    old_words, new_words = _words(old), _words(new)
    matcher = difflib.SequenceMatcher(None, [w.key for w in old_words], [w.key for w in new_words], autojunk=False)
    chunks: list[dict[str, object]] = []
    for tag, i1, i2, j1, j2 in _slide_past_punctuation(matcher.get_opcodes(), old_words, new_words):
        chunks.append({
            "equal": tag == "equal",
            "old": "".join(w.surface for w in old_words[i1:i2]),
            "new": "".join(w.surface for w in new_words[j1:j2]),
            "size": i2 - i1,
        })
    merged = _merge_short_equals(chunks)
    return [_labelled(chunk) for chunk in merged]


def _same_mark(words: list[_Word], change: list, following: list, start: int) -> bool:
    """The change starts with the punctuation mark that starts the unchanged run after it."""
    if following[start] >= following[start + 1]:
        return False
    first, after = words[change[start]].key.rstrip("\n"), words[following[start]].key.rstrip("\n")
    return first == after and not first[:1].isalnum()


def _slide_past_punctuation(opcodes, old_words: list[_Word], new_words: list[_Word]) -> list[list]:
    """Move a pure insertion or deletion right while it starts with the punctuation mark that
    also starts the unchanged run after it, so that it reads as whole sentences:
    "particulier. [-Cette capacité annule…-]" rather than "particulier[-. Cette capacité annule…-]."."""
    ops = [list(op) for op in opcodes]
    for index in range(1, len(ops) - 1):
        previous, change, following = ops[index - 1], ops[index], ops[index + 1]
        if change[0] not in ("insert", "delete") or previous[0] != "equal" or following[0] != "equal":
            continue
        words, start = (old_words, 1) if change[0] == "delete" else (new_words, 3)
        while _same_mark(words, change, following, start):
            previous[2] += 1
            previous[4] += 1
            change[1:] = [change[1] + 1, change[2] + 1, change[3] + 1, change[4] + 1]
            following[1] += 1
            following[3] += 1
    return [op for op in ops if op[1] < op[2] or op[3] < op[4]]


def _merge_short_equals(chunks: list[dict[str, object]]) -> list[dict[str, object]]:
    """Fold a short unchanged run that sits between two changes into one replaced phrase (and
    join changes left side by side when sliding emptied the run between them)."""
    out: list[dict[str, object]] = []
    for chunk in chunks:
        if out and not out[-1]["equal"] and not chunk["equal"]:
            out[-1]["old"] = f"{out[-1]['old']}{chunk['old']}"
            out[-1]["new"] = f"{out[-1]['new']}{chunk['new']}"
            continue
        out.append(dict(chunk))
        while len(out) >= 3 and not out[-1]["equal"] and not out[-3]["equal"] and out[-2]["equal"]:
            middle = out[-2]
            if middle["size"] > _MERGE_EQUAL_TOKENS or "\n" in str(middle["old"]):
                break
            first, _, last = out[-3], out.pop(-2), out.pop()
            first["old"] = f"{first['old']}{middle['old']}{last['old']}"
            first["new"] = f"{first['new']}{middle['new']}{last['new']}"
    return out


def _labelled(chunk: dict[str, object]) -> dict[str, str]:
    old, new = str(chunk["old"]), str(chunk["new"])
    if chunk["equal"]:
        op = "equal"
    elif not old:
        op = "insert"
    elif not new:
        op = "delete"
    else:
        op = "replace"
    return {"op": op, "old": old, "new": new}


def diff_segments(text_diff: list[dict[str, str]]) -> list[tuple[str, str]]:
    """The diff as ``(kind, text)`` runs to display, kind being equal, delete or insert; the
    whitespace after a change is put outside it, so that markers hug the words."""
    segments: list[tuple[str, str]] = []
    for chunk in text_diff:
        old, new = chunk["old"].rstrip(), chunk["new"].rstrip()
        spaces = max(chunk["old"][len(old):], chunk["new"][len(new):], key=len)
        if chunk["op"] == "equal":
            segments.append(("equal", new + spaces))
            continue
        if old:
            segments.append(("delete", old))
        if new:
            segments.append(("insert", new))
        if spaces:
            segments.append(("equal", spaces))
    return segments


def diff_html(text_diff: list[dict[str, str]]) -> str:
    """The diff as HTML: removed words in ``<del>``, added ones in ``<ins>``, all text escaped."""
    styles = {
        "delete": ("<del style=\"background:#fdd; color:#900\">", "</del>"),
        "insert": ("<ins style=\"background:#dfd; color:#060; text-decoration: none\">", "</ins>"),
        "equal": ("", ""),
    }
    body = "".join(f"{styles[kind][0]}{html.escape(text)}{styles[kind][1]}" for kind, text in diff_segments(text_diff))
    return f'<div class="rulegraph-diff" style="white-space: pre-wrap; line-height: 1.5">{body}</div>'


def text_changed(old: str, new: str) -> bool:
    """True when the texts differ by more than whitespace or the apostrophe's typography."""
    return [w.key for w in _words(old)] != [w.key for w in _words(new)]


# ---------------------------------------------------------------- looking things up in the graph


def _label(graph: Graph, node: URIRef) -> str:
    value = graph.value(node, RDFS.label)
    return str(value) if value is not None else str(node).rsplit("/", 1)[-1]


def _games(graph: Graph) -> list[URIRef]:
    return sorted(graph.subjects(RDF.type, RG.Game))


def _resolve_game(graph: Graph, name: str) -> URIRef:
    from .namespaces import game_uri
    from .resolve import find_game

    return game_uri(find_game(graph, name))


def _is_ability(graph: Graph, node: URIRef, classes: Iterable[URIRef] = ABILITY_CLASSES) -> bool:
    return any((node, RDF.type, cls) in graph for cls in classes)


def _abilities(graph: Graph, game: URIRef | None, classes: Iterable[URIRef] = ABILITY_CLASSES) -> list[URIRef]:
    found = set()
    for cls in classes:
        for node in graph.subjects(RDF.type, cls):
            if game is None or (node, RG.game, game) in graph:
                found.add(node)
    return sorted(found)


def resolve_ability(graph: Graph, ability: str, game: str | None = None) -> tuple[URIRef, URIRef]:
    """The ability's node and its game's node, matched as every command matches names
    (:func:`rulegraph.resolve.match_name`); a name shared by several games needs ``game``
    unless only one of them has edition texts."""
    from .resolve import match_name

    game_node = _resolve_game(graph, game) if game else None
    defined = set(_abilities(graph, game_node, DEFINED_ABILITY_CLASSES))
    matches = sorted(t.uri for t in match_name(graph, ability, kinds=("ability",)) if t.uri in defined)
    if not matches:
        hint = closest(ability, sorted({_label(graph, node) for node in defined}))
        where = f" in {_label(graph, game_node)}" if game_node else ""
        suggestion = f"; did you mean: {', '.join(hint)}?" if hint else ""
        raise RulegraphError(f"no ability {ability!r}{where}{suggestion}")
    if len(matches) > 1:
        with_editions = [node for node in matches if (node, RG.hasEditionText, None) in graph]
        if len(with_editions) != 1:
            games = sorted(_label(graph, graph.value(node, RG.game)) for node in matches)
            raise RulegraphError(f"{ability!r} is defined in several games ({', '.join(games)}); name one with --game")
        matches = with_editions
    node = matches[0]
    return node, graph.value(node, RG.game)


def _game_editions(graph: Graph, game: URIRef) -> list[URIRef]:
    """The game's editions in lineage order (rg:order), unordered ones last by label."""
    editions = [node for node in graph.subjects(RG.game, game) if (node, RDF.type, RG.Edition) in graph]

    def position(node: URIRef) -> tuple[int, str]:
        order = graph.value(node, RG.order)
        return (int(order) if order is not None else 10**9, fold(_label(graph, node)))

    return sorted(editions, key=position)


def _resolve_edition(graph: Graph, game: URIRef, name: str) -> URIRef:
    editions = _game_editions(graph, game)
    for node in editions:
        if fold(_label(graph, node)) == fold(name):
            return node
    labels = [_label(graph, node) for node in editions]
    near = closest(name, labels)
    hint = f"did you mean: {', '.join(near)}?" if near else f"its editions: {', '.join(labels)}"
    raise RulegraphError(f"no edition {name!r} in {_label(graph, game)}; {hint}")


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
        by_edition[graph.value(node, RG.edition)] = node
    if not by_edition:
        with_editions = sorted(
            f"{_label(graph, node)} ({_label(graph, graph.value(node, RG.game))})"
            for node in _abilities(graph, None, DEFINED_ABILITY_CLASSES)
            if (node, RG.hasEditionText, None) in graph
        )
        listed = ", ".join(with_editions) if with_editions else "none in this graph"
        raise RulegraphError(
            f"{_label(graph, ability)!r} has no edition texts; abilities read from a compendium have them: {listed}"
        )
    texts = []
    for edition in _game_editions(graph, game):
        node = by_edition.get(edition)
        present = node is not None and bool(graph.value(node, RG.present))
        text = graph.value(node, RG.text) if node is not None else None
        line = graph.value(node, RG.line) if node is not None else None
        texts.append(_EditionText(edition, _label(graph, edition), present, str(text or ""), int(line) if line else None))
    return texts


# ---------------------------------------------------------------- one ability across editions


def timeline(graph: Graph, ability: str, game: str | None = None) -> list[dict[str, object]]:
    """Every edition of the ability's game in lineage order: whether it has the ability, and
    whether its text differs from the last earlier edition that had one (the first one is new)."""
    node, game_node = resolve_ability(graph, ability, game)
    rows: list[dict[str, object]] = []
    previous: _EditionText | None = None
    for entry in _edition_texts(graph, node, game_node):
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
            "words": len(_words(entry.text)),
        })
        if entry.present:
            previous = entry
    return rows


def diff_editions(graph: Graph, ability: str, from_edition: str, to_edition: str,
                  game: str | None = None) -> dict[str, object]:
    """What changed from one edition's text of the ability to another's: the words, the
    relations extracted from each edition's text, and the parameters each text writes."""
    node, game_node = resolve_ability(graph, ability, game)
    texts = {entry.edition: entry for entry in _edition_texts(graph, node, game_node)}
    old = texts[_resolve_edition(graph, game_node, from_edition)]
    new = texts[_resolve_edition(graph, game_node, to_edition)]
    old_relations = _edition_relations(graph, node, old)
    new_relations = _edition_relations(graph, node, new)
    old_parameters = _edition_parameters(graph, node, game_node, old)
    new_parameters = _edition_parameters(graph, node, game_node, new)
    return {
        "ability": _label(graph, node),
        "game": _label(graph, game_node),
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


def edition_history(graph: Graph, ability: str, game: str | None = None) -> dict[str, object]:
    """The timeline, the diff between each pair of consecutive editions that have a text, and
    the whole evolution (first text to last) under the same keys as :func:`diff_editions`."""
    rows = timeline(graph, ability, game)
    present = [row["edition"] for row in rows if row["present"]]
    node, game_node = resolve_ability(graph, ability, game)
    game_label = _label(graph, game_node)
    steps = [
        diff_editions(graph, ability, older, newer, game_label)
        for older, newer in zip(present, present[1:])
    ]
    overall = diff_editions(graph, ability, present[0], present[-1], game_label) if present else {
        "ability": _label(graph, node), "game": game_label, "text_diff": [], "added": [], "removed": [],
        "parameters_added": [], "parameters_removed": [],
    }
    return {**overall, "timeline": rows, "steps": steps}


def _edition_relations(graph: Graph, ability: URIRef, entry: _EditionText) -> dict[tuple[str, str, str], dict[str, object]]:
    """Statements extracted for this edition that involve the ability or come from its text,
    keyed by (subject, relation, object) labels, with their evidence."""
    if not entry.present:
        return {}
    folded_text = fold(entry.text)
    found: dict[tuple[str, str, str], dict[str, object]] = {}
    for statement in sorted(graph.subjects(RG.edition, entry.edition)):
        if (statement, RDF.type, RG.Statement) not in graph:
            continue
        subject, obj = graph.value(statement, RDF.subject), graph.value(statement, RDF.object)
        sentence = str(graph.value(statement, RG.sentence) or "")
        if ability not in (subject, obj) and fold(sentence) not in folded_text:
            continue
        relation = _RELATION_PREDICATES.get(graph.value(statement, RDF.predicate))
        if relation is None:
            continue
        record = _statement_record(graph, statement, relation)
        key = (record["subject"], relation, record["object"])
        if key not in found or (record["line"] or 0) < (found[key]["line"] or 0):
            found[key] = record
    return found


def _statement_record(graph: Graph, statement: URIRef, relation: str) -> dict[str, object]:
    line = graph.value(statement, RG.line)
    edition = graph.value(statement, RG.edition)
    condition = graph.value(statement, RG.condition)
    return {
        "subject": _label(graph, graph.value(statement, RDF.subject)),
        "relation": relation,
        "object": _label(graph, graph.value(statement, RDF.object)),
        "evidence": str(graph.value(statement, RG.sentence) or ""),
        "line": int(line) if line is not None else None,
        "edition": _label(graph, edition) if edition is not None else None,
        "condition": str(condition) if condition is not None else None,
        "method": str(graph.value(statement, RG.method) or ""),
    }


def _edition_parameters(graph: Graph, ability: URIRef, game: URIRef, entry: _EditionText) -> set[str]:
    """``Name/Param`` for the heading's parameters and every ability of the game the text writes
    with a slash parameter ("Toxique/X", "Structure/ X" → "Structure/X")."""
    if not entry.present:
        return set()
    name = _label(graph, ability)
    found = {f"{name}/{parameter}" for parameter in graph.objects(ability, RG.parameter)}
    aligned = fold_aligned(entry.text)
    for node in _abilities(graph, game):
        label = _label(graph, node)
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
    notes = sorted(str(graph.value(note, RG.text) or "") for note in graph.objects(node, RG.hasNote))
    editions = {}
    for text_node in graph.objects(node, RG.hasEditionText):
        edition = graph.value(text_node, RG.edition)
        text = graph.value(text_node, RG.text)
        editions[_label(graph, edition)] = str(text) if text is not None else None
    category = next((str(cls).rsplit("#", 1)[-1] for cls in DEFINED_ABILITY_CLASSES if (node, RDF.type, cls) in graph), "")
    return {
        "category": category,
        "heading": str(graph.value(node, RG.heading) or ""),
        "text": str(graph.value(node, RG.text) or ""),
        "parameters": sorted(str(p) for p in graph.objects(node, RG.parameter)),
        "tags": sorted(str(t) for t in graph.objects(node, RG.tag)),
        "notes": notes,
        "editions": dict(sorted(editions.items())),
    }


def _defined_abilities(graph: Graph) -> dict[tuple[str, str], dict[str, object]]:
    records = {}
    for node in _abilities(graph, None, DEFINED_ABILITY_CLASSES):
        game = graph.value(node, RG.game)
        records[(_label(graph, game) if game is not None else "", _label(graph, node))] = _ability_record(graph, node)
    return records


def _edges(graph: Graph) -> dict[tuple[str, str, str, str], dict[str, object]]:
    """Every direct edge between terms, keyed by (game, subject, relation, object) labels, with
    the earliest statement that carries its evidence."""
    evidence: dict[tuple[URIRef, URIRef, URIRef], list[URIRef]] = {}
    for statement in graph.subjects(RDF.type, RG.Statement):
        triple = (graph.value(statement, RDF.subject), graph.value(statement, RDF.predicate), graph.value(statement, RDF.object))
        evidence.setdefault(triple, []).append(statement)
    edges = {}
    for predicate, relation in _RELATION_PREDICATES.items():
        for subject, obj in graph.subject_objects(predicate):
            game = graph.value(subject, RG.game)
            record = {
                "game": _label(graph, game) if game is not None else "",
                "subject": _label(graph, subject),
                "relation": relation,
                "object": _label(graph, obj),
                "evidence": None,
                "line": None,
                "edition": None,
            }
            statements = [_statement_record(graph, s, relation) for s in evidence.get((subject, predicate, obj), [])]
            if statements:
                first = min(statements, key=lambda s: (s["line"] or 0, s["evidence"]))
                record.update(evidence=first["evidence"], line=first["line"], edition=first["edition"])
            edges[(record["game"], record["subject"], relation, record["object"])] = record
    return edges


def diff_graphs(old: Graph, new: Graph) -> dict[str, list[dict[str, object]]]:
    """What an edit of the glossary did: abilities added, removed or changed (text, parameters,
    tags, notes, heading, category, edition texts; line numbers are ignored since an edit above
    shifts them all), and edges added or removed, compared by (game, subject, relation, object)."""
    old_abilities, new_abilities = _defined_abilities(old), _defined_abilities(new)
    changed = []
    for key in sorted(old_abilities.keys() & new_abilities.keys()):
        before, after = old_abilities[key], new_abilities[key]
        fields = {name: {"old": before[name], "new": after[name]} for name in before if before[name] != after[name]}
        if not fields:
            continue
        record: dict[str, object] = {"game": key[0], "ability": key[1], "fields": sorted(fields), "changes": fields}
        if "text" in fields:
            record["text_diff"] = word_diff(str(before["text"]), str(after["text"]))
        if "editions" in fields:
            old_texts, new_texts = before["editions"], after["editions"]
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
