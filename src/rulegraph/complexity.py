"""How heavy each ability is to learn, as a sum of parts a reader can check against the text.

A score counts what the graph holds about an ability: the other rules a player must know to apply
it (abilities, states, actions, characteristics its text names, and, through grants and requires,
what the granted or required abilities name), the conditions its text sets, its parameters, the
exceptions that touch it (cancels, negates, mutuallyCancels, immuneTo, either way) and the length
of its text. Each part is multiplied by a weight read from a TOML file
(``resources/complexity.toml`` by default), so a designer can change what counts and how much.
It is a reading aid for ranking, not a measure of how hard a game plays.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import NotRequired, TypedDict

import networkx as nx
from rdflib import Graph

from .catalogue import Ability, RuleGraph, abilities, find_game, per_graph
from .errors import RulegraphError
from .i18n import N_, _, language, number
from .namespaces import INTERACTIONS, TERM_RELATIONS
from .text import fold, fold_aligned, split_sentences, tokenize
from .tomlfile import load_toml, parse_toml
from .vocabulary import LEXICON_KIND, kind_label

#: The parts of a score, in the order the report shows them; each has a weight in the file.
RULE_KINDS = ("ability", "state", "action", "characteristic", "concept")
PARTS = (*RULE_KINDS, "condition", "parameter", "exception", "words")
EXCEPTION_RELATIONS = ("cancels", "negates", "mutuallyCancels", "immuneTo")
#: Relations a player follows to know every rule an ability brings with it.
CLOSURE_RELATIONS = ("grants", "requires")
_CLAUSE_END = re.compile(r"[,;:.()!?]")
_MIN_CLAUSE_WORDS = 3


@dataclass(frozen=True, slots=True)
class Weights:
    """What each part weighs, and the words that open a condition; ``path`` says where they come from."""

    values: dict[str, float]
    openers: tuple[str, ...]
    path: str

    def __getitem__(self, part: str) -> float:
        return self.values[part]


def default_weights_path() -> Path:
    return Path(str(resources.files("rulegraph.resources").joinpath("complexity.toml")))


def load_weights(path: Path | None = None) -> Weights:
    """The weights file (the shipped one by default); an unknown part, a missing part or a value
    that is not a number stops with the file and line."""
    if path is None:
        shipped = resources.files("rulegraph.resources").joinpath("complexity.toml")
        toml = parse_toml(shipped.read_text(encoding="utf-8"), default_weights_path())
    else:
        toml = load_toml(Path(path))
    data = toml.data
    unknown = set(data) - {"weights", "conditions"}
    if unknown:
        raise toml.error(f"unknown table [{sorted(unknown)[0]}]; a weights file has [weights] and [conditions]")
    weights = data.get("weights")
    if not isinstance(weights, dict):
        raise toml.error("no [weights] table; write one weight per part: " + ", ".join(PARTS))
    toml.check(weights, {part: "number" for part in PARTS}, start=toml.key_line("weights"), where=" in [weights]")
    missing = [part for part in PARTS if part not in weights]
    if missing:
        raise toml.error(f"[weights] lacks {', '.join(missing)}; give every part a weight (0 to leave it out)", key="weights")
    negative = [part for part in PARTS if weights[part] < 0]
    if negative:
        raise toml.error(f"{negative[0]} must be 0 or more", key=negative[0])
    conditions = data.get("conditions", {})
    toml.check(conditions, {"openers": "texts"}, start=toml.key_line("conditions"), where=" in [conditions]")
    openers = tuple(sorted({fold(o) for o in conditions.get("openers", [])}, key=lambda o: (-len(o), o)))
    return Weights({part: float(weights[part]) for part in PARTS}, openers, str(toml.path))


def condition_clauses(text: str, openers: tuple[str, ...]) -> list[str]:
    """The conditions a rule text sets: from an opener ("si", "tant que"…) to the next
    punctuation, in the order they appear; "si" inside "ainsi" or "aussi" is not one."""
    if not openers:
        return []
    alternatives = [re.escape(o) + ("" if o.endswith("'") else r"(?!\w)") for o in openers]
    pattern = re.compile(r"(?<![\w'])(?:" + "|".join(alternatives) + ")")
    clauses = []
    for _start, sentence in split_sentences(text):
        folded = fold_aligned(sentence)
        covered = 0
        for match in pattern.finditer(folded):
            if match.start() < covered:
                continue  # an opener inside a condition already counted: "sauf s'il … lorsqu'il …"
            end = match.end()
            # "Si, pendant son déplacement, il engage …": an aside right after the opener is
            # skipped, and the condition runs to the punctuation after it.
            skip = 2 if sentence[end:].lstrip().startswith(",") else 0
            while True:
                stop = _CLAUSE_END.search(sentence, end)
                if stop is not None and skip:
                    skip -= 1
                    end = stop.end()
                    continue
                end = stop.start() if stop else len(sentence)
                if stop is None or len(sentence[match.end():end].split()) >= _MIN_CLAUSE_WORDS:
                    break
                end = stop.end()
            covered = end
            clauses.append(sentence[match.start():end].strip().rstrip(".;:,!?").rstrip())
    return clauses


def _closure(view: nx.MultiDiGraph, node: str) -> dict[str, str]:
    """The abilities reached through grants and requires (transitively), each with the
    relation that first reaches it."""
    reached: dict[str, str] = {}
    queue = [node]
    while queue:
        current = queue.pop(0)
        for _current, other, data in view.out_edges(current, data=True):
            if data["relation"] in CLOSURE_RELATIONS and other != node and other not in reached:
                reached[other] = f"{data['relation']} via {view.nodes[current]['label']}" if current != node else data["relation"]
                queue.append(other)
    return reached


def _named_in_text(view: nx.MultiDiGraph, node: str) -> list[tuple[str, str]]:
    """(other node, relation) for every term this ability's text names: its own edges, and the
    edges pointing at it whose sentence stands in its text ("X annule cette capacité")."""
    text = fold(view.nodes[node]["text"])
    found = [(other, data["relation"]) for _from, other, data in view.out_edges(node, data=True)
             if data["relation"] in INTERACTIONS or data["relation"] in TERM_RELATIONS]
    found += [(other, data["relation"]) for other, _to, data in view.in_edges(node, data=True)
              if data["relation"] in INTERACTIONS and data["sentence"] and fold(data["sentence"]) in text]
    return [(other, relation) for other, relation in found if other != node]


class Part(TypedDict):
    """One part of a score: how many items, the weight, the points, and the items counted."""

    part: str
    count: int
    weight: float
    points: float
    items: list[str]


class Score(TypedDict):
    """An ability's score and its breakdown; ``rank`` once :func:`complexity` has sorted them."""

    ability: str
    game: str
    score: float
    parts: list[Part]
    rank: NotRequired[int]


def score_ability(view: nx.MultiDiGraph, node: str, parameters: tuple[str, ...], weights: Weights) -> Score:
    """One ability's score and its breakdown: per part, how many, the weight, the points and
    the items counted."""
    data = view.nodes[node]
    closure = _closure(view, node)
    rules: dict[str, dict[str, str]] = {kind: {} for kind in RULE_KINDS}
    for other, how in closure.items():
        rules["ability"].setdefault(view.nodes[other]["label"], how)
    for holder in (node, *closure):
        for other, relation in _named_in_text(view, holder):
            if other == node:
                continue
            kind = LEXICON_KIND[view.nodes[other]["kind"]]
            how = relation if holder == node else f"{relation}, via {view.nodes[holder]['label']}"
            rules[kind].setdefault(view.nodes[other]["label"], how)
    exceptions: dict[tuple[str, str, str], str] = {}
    for _node, other, edge in view.out_edges(node, data=True):
        if edge["relation"] in EXCEPTION_RELATIONS and other != node:
            key = (view.nodes[other]["label"], edge["relation"], "sym" if edge["relation"] == "mutuallyCancels" else "out")
            exceptions.setdefault(key, f"{data['label']} {edge['relation']} {view.nodes[other]['label']}")
    for other, _node, edge in view.in_edges(node, data=True):
        if edge["relation"] in EXCEPTION_RELATIONS and other != node:
            key = (view.nodes[other]["label"], edge["relation"], "sym" if edge["relation"] == "mutuallyCancels" else "in")
            exceptions.setdefault(key, f"{view.nodes[other]['label']} {edge['relation']} {data['label']}")
    items: dict[str, list[str]] = {
        **{kind: [f"{label} ({how})" for label, how in sorted(rules[kind].items(), key=lambda i: fold(i[0]))] for kind in RULE_KINDS},
        "condition": condition_clauses(data["text"], weights.openers),
        "parameter": list(parameters),
        "exception": sorted(exceptions.values(), key=fold),
    }
    words = len(tokenize(data["text"]))
    parts: list[Part] = []
    for part in PARTS:
        count = words if part == "words" else len(items[part])
        parts.append({"part": part, "count": count, "weight": weights[part], "points": round(count * weights[part], 2),
                      "items": [] if part == "words" else items[part]})
    return {
        "ability": data["label"],
        "game": data["game"],
        "score": round(sum(p["points"] for p in parts), 2),
        "parts": parts,
    }


def complexity(graph: Graph, *, game: str | None = None, weights: Weights | None = None,
               view: nx.MultiDiGraph | None = None) -> list[Score]:
    """Every defined ability (of one game, or all) with its score and breakdown, heaviest first."""
    game_id = find_game(graph, game) if game else None
    wanted = [ability for ability in abilities(graph) if game_id is None or ability.game_id == game_id]
    scores = scores_by_node(graph, view, weights, chosen=wanted)
    scored = [scores[str(ability.node)].copy() for ability in wanted]
    scored.sort(key=lambda s: (-s["score"], s["game"] or "", fold(s["ability"])))
    for rank, item in enumerate(scored, start=1):
        item["rank"] = rank
    return scored


#: The shipped weights' scores, per graph: the atlas and the report of one build both show them.
_DEFAULT_SCORES: dict = {}


def scores_by_node(graph: Graph, view: nx.MultiDiGraph | None, weights: Weights | None = None,
                   chosen: Iterable[Ability] | None = None) -> dict[str, Score]:
    """Score and breakdown of every defined ability by node URI, in the read layer's order
    (what the atlas shows); computed once per graph for the shipped weights on its own view.
    Other weights or another view score only the ``chosen`` abilities (by default, all)."""
    own_view = RuleGraph(graph).networkx()
    if weights is None and (view is None or view is own_view):
        return per_graph(_DEFAULT_SCORES, graph, lambda: _score_all(own_view, load_weights(), abilities(graph)))
    return _score_all(view if view is not None else own_view, weights or load_weights(),
                      chosen if chosen is not None else abilities(graph))


def _score_all(view: nx.MultiDiGraph, weights: Weights, chosen: Iterable[Ability]) -> dict[str, Score]:
    scores: dict[str, Score] = {}
    for ability in chosen:
        node = str(ability.node)
        if node in view:
            parameters = tuple(dict.fromkeys(ability.parameters)) + tuple(f"({slot})" for slot in ability.slots)
            scores[node] = score_ability(view, node, parameters, weights)
    return scores


#: The parts of a score that are not kinds of rule, as the user reads them.
_PART_WORDS = {"condition": N_("condition"), "parameter": N_("parameter"), "exception": N_("exception"), "words": N_("words")}


@cache
def _part_labels(lang: str) -> dict[str, str]:
    return {part: kind_label(part, lang).lower() if part in RULE_KINDS else _(_PART_WORDS[part]) for part in PARTS}


def part_label(part: str) -> str:
    """A score's part in the user's language: "capacité", "condition", "mots"."""
    return _part_labels(language()).get(part, part)


def breakdown_line(item: Score) -> str:
    """"capacité 4×1 = 4 · condition 2×1 = 2 · …": the parts behind a score, those that count
    (called for every node of the atlas: the labels are looked up once per language)."""
    labels = _part_labels(language())
    pieces = [f"{labels.get(p['part'], p['part'])} {p['count']}×{number(p['weight'])} = {number(p['points'])}"
              for p in item["parts"] if p["count"] and p["weight"]]
    return " · ".join(pieces) or _("nothing counted")


def _section_title() -> str:
    return _("Complexity (the heaviest to learn)")


def _section_note(command: str) -> str:
    return _("Weighted sum: rules to know, conditions, parameters, exceptions, length of the text (weights: {command}).").format(
        command=command)


def _section_columns() -> list[str]:
    return [_("rank"), _("ability"), _("score"), _("breakdown")]


def render_markdown_section(scored: list[Score], *, top: int = 10) -> str:
    """The heaviest abilities of each game, for report.md; names escaped as in the rest of it."""
    from .render.report import escape_markdown

    lines = ["## " + _section_title(), "", "_" + _section_note("`rulegraph complexity --weights`") + "_", ""]
    for game in sorted({s["game"] for s in scored}):
        lines += [f"### {escape_markdown(game)}", "", "| " + " | ".join(_section_columns()) + " |", "|---|---|---|---|"]
        for rank, item in enumerate([s for s in scored if s["game"] == game][:top], start=1):
            lines.append(f"| {rank} | {escape_markdown(item['ability'])} | {number(item['score'])} | "
                         f"{escape_markdown(breakdown_line(item))} |")
        lines.append("")
    return "\n".join(lines)


def render_html_section(scored: list[Score], *, top: int = 10) -> str:
    """The same, as an HTML section for report.html; every text escaped."""
    from html import escape

    out = ['<h2 id="complexite">' + escape(_section_title()) + "</h2>",
           "<p>" + escape(_section_note("{command}")).format(command="<code>rulegraph complexity --weights</code>") + "</p>"]
    head = "".join(f"<th>{escape(column)}</th>" for column in _section_columns())
    for game in sorted({s["game"] for s in scored}):
        out.append(f"<h3>{escape(game)}</h3><table><thead><tr>{head}</tr></thead><tbody>")
        for rank, item in enumerate([s for s in scored if s["game"] == game][:top], start=1):
            out.append(f"<tr><td>{rank}</td><td>{escape(item['ability'])}</td><td>{number(item['score'])}</td>"
                       f"<td>{escape(breakdown_line(item))}</td></tr>")
        out.append("</tbody></table>")
    return "\n".join(out)


def check_top(top: int | None) -> None:
    if top is not None and top < 1:
        raise RulegraphError(_('--top must be 1 or more, not {top}').format(top=top))
