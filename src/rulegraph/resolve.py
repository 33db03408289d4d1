"""What is in effect when two sides meet, read off the graph.

:func:`resolve` answers "what happens when these sides meet": grants are added, parameters stacked
by the game's own rule, and cancels/negates/mutuallyCancels are treated as attacks between
abilities of opposite sides, decided by grounded semantics (Dung, 1995), so that every verdict
comes with its chain of edges. How two rules interact is :mod:`rulegraph.interactions`; the name
lookup is the read layer's (:mod:`rulegraph.catalogue`), and both are re-exported here for the
notebooks and scripts written against this module.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, TypedDict

import networkx as nx
from rdflib import Graph, URIRef

from .catalogue import ABILITY_KINDS, RuleGraph, Term, common_game, find_term, game_node, graph_terms, text_of
from .errors import RulegraphError
from .i18n import _
from .interactions import EdgeEvidence, edge_record
from .lang import words as lang_words
from .names import parse_heading
from .namespaces import RG
from .text import fold, split_sentences
from .vocabulary import relation_phrase

#: Relations that act as attacks in the resolver; mutuallyCancels switches both sides off.
ATTACKS = ("cancels", "negates")
MUTUAL = "mutuallyCancels"
_SIDE_SEPARATORS = re.compile(r"[,;]")


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
    game = game_node(graph, game_id)
    highest, adds, sentences = False, False, []
    for rules in graph.objects(game, RG.generalRules) if game is not None else ():
        for _from, sentence in split_sentences(str(rules)):
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

#: An ability held by a side: (side index, node).
Argument = tuple[int, str]


@dataclass(frozen=True, slots=True)
class _Clash:
    """A mutuallyCancels pair taken as one argument: it defeats both members."""

    first: Argument
    second: Argument

    def other(self, member: Argument) -> Argument:
        return self.second if self.first == member else self.first


_Contender = Argument | _Clash
_Reason = tuple[list[_Contender], list[list[Argument]]]


class RuleSentence(TypedDict):
    """A sentence of the game's general rules, quoted as the evidence of a stacking."""

    evidence: str


class Explanation(TypedDict):
    """Why an ability of a side ended as it did (or how its copies stacked), with the chain of
    edges and sentences behind it."""

    side: int
    ability: str
    verdict: str
    text: str
    chain: list[EdgeEvidence | RuleSentence]


class Defeat(TypedDict):
    ability: str
    by: list[str]
    evidence: list[EdgeEvidence]


class SideReport(TypedDict):
    abilities: list[str]
    in_effect: list[str]
    defeated: list[Defeat]
    undecided: list[str]
    granted: list[Defeat]


class Resolution(TypedDict):
    """What :func:`resolve` returns: each side's verdicts, and one explanation per ability."""

    sides: list[SideReport]
    explanation: list[Explanation]


@dataclass(slots=True)
class _Held:
    term: Term
    parameters: tuple[str, ...]
    given: bool
    granters: list[tuple[Argument, EdgeEvidence]] = field(default_factory=list)

    @property
    def display(self) -> str:
        return " ".join((self.term.label, *self.parameters))


@dataclass(slots=True)
class _Attack:
    attacker: Argument
    target: Argument
    relation: str
    edges: list[EdgeEvidence]


def parse_side(side: str | list[str]) -> list[str]:
    """A side written "Fouisseur, Régénération 2" (commas or semicolons) or as a list."""
    names = _SIDE_SEPARATORS.split(side) if isinstance(side, str) else list(side)
    return [n.strip() for n in names if n and n.strip()]


def resolve(graph: Graph, sides: list[str | list[str]], game: str | None = None) -> Resolution:
    """Which abilities of each side are in effect when the sides meet, with the chain of edges
    and sentences behind every verdict. Conditions on edges are shown, never evaluated."""
    parsed = [[parse_heading(n) for n in parse_side(side)] for side in sides]
    if len(parsed) < 2 or any(not side for side in parsed):
        raise RulegraphError(_('resolve needs at least two sides, each with one ability or more'))
    game_id = common_game(graph, [p.name for side in parsed for p in side], game, ABILITY_KINDS)
    rule = stacking_rule(graph, game_id)
    view = RuleGraph(graph).networkx()
    explanation: list[Explanation] = []
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
        "sides": [_side_report(held, index, labels, reasons, attacks) for index in range(len(held))],
        "explanation": explanation + _verdicts(held, labels, reasons, attacks),
    }


def _acquire(abilities: dict[str, _Held], term: Term, parameters: tuple[str, ...], rule: StackingRule,
             side: int, explanation: list[Explanation], *, given: bool,
             granter: tuple[Argument, EdgeEvidence] | None = None) -> bool:
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
            "chain": [RuleSentence(evidence=s) for s in rule.sentences],
        })
    return False


def _grant_edges(view: nx.MultiDiGraph, graph: Graph, node: str) -> list[tuple[str, dict[str, Any], str, tuple[str, ...]]]:
    """(granted node, edge, recipient, parameters) for each rg:grants statement of ``node``."""
    found = []
    for _from, target, key, data in view.out_edges(node, keys=True, data=True):
        if data["relation"] != "grants":
            continue
        recipient = text_of(graph, URIRef(key), RG.recipient) or "bearer"
        amount = data.get("amount")
        found.append((target, data, recipient, (amount,) if amount else ()))
    return sorted(found, key=lambda f: (f[1]["line"], f[0]))


def _add_grants(view: nx.MultiDiGraph, graph: Graph, held: list[dict[str, _Held]], rule: StackingRule, game_id: str,
                explanation: list[Explanation]) -> None:
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
            for _from, target, data in view.out_edges(node, data=True):
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


def _grounded_labelling(held: list[dict[str, _Held]], attacks: list[_Attack]
                        ) -> tuple[dict[_Contender, str], dict[_Contender, _Reason]]:
    """The grounded labelling (least fixed point): an ability is in when every attacker is out
    and, if it was only granted, one of its granters is in; it is out when an attacker is in or
    every granter is out; the rest is undecided. A mutuallyCancels pair is one "clash" that
    defeats both members and is itself defeated by whatever defeats either member."""
    arguments = [(side, node) for side, abilities in enumerate(held) for node in abilities]
    plain: dict[Argument, list[_Attack]] = defaultdict(list)
    mutual_pairs: set[tuple[Argument, Argument]] = set()
    for attack in attacks:
        if attack.relation == MUTUAL:
            low, high = sorted((attack.attacker, attack.target))
            mutual_pairs.add((low, high))
        else:
            plain[attack.target].append(attack)
    needs: dict[_Contender, list[list[Argument]]] = {
        arg: [] if held[arg[0]][arg[1]].given else [[g for g, _rest in held[arg[0]][arg[1]].granters]] for arg in arguments}
    attackers: dict[_Contender, list[_Contender]] = {arg: [a.attacker for a in plain[arg]] for arg in arguments}
    for first, second in mutual_pairs:
        clash = _Clash(first, second)
        attackers[clash] = attackers[first] + attackers[second]
        needs[clash] = needs[first] + needs[second]
        attackers[first].append(clash)
        attackers[second].append(clash)
    labels: dict[_Contender, str] = {}
    reasons: dict[_Contender, _Reason] = {}
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


def _who(held: list[dict[str, _Held]], arg: _Contender) -> str:
    if isinstance(arg, _Clash):
        first, second = arg.first, arg.second
        return _("{first} and {second} cancelling each other").format(
            first=held[first[0]][first[1]].term.label, second=held[second[0]][second[1]].term.label)
    return _("{ability} (side {number})").format(ability=held[arg[0]][arg[1]].term.label, number=arg[0] + 1)


def qualifiers(edges: list[EdgeEvidence]) -> str:
    """The conditions and scopes the sentences attach to these edges, shown beside a verdict
    ("pour les adversaires présents dans sa zone de contrôle"), never evaluated."""
    conditions = list(dict.fromkeys(str(e["condition"]) for e in edges if e["condition"]))
    scopes = list(dict.fromkeys(str(e.get("scope")) for e in edges if e.get("scope")))
    parts = [_("condition: {condition}").format(condition=c) for c in conditions]
    parts += [_("scope: {scope}").format(scope=s) for s in scopes]
    return f" [{'; '.join(parts)}]" if parts else ""


def _attack_edges(attacks: list[_Attack], target: Argument, attacker: _Contender) -> list[EdgeEvidence]:
    if isinstance(attacker, _Clash):
        members = (attacker.first, attacker.second)
        return [e for a in attacks if a.relation == MUTUAL and a.target == target for e in a.edges if a.attacker in members]
    return [e for a in attacks if a.target == target and a.attacker == attacker for e in a.edges]


def _defeat(held: list[dict[str, _Held]], arg: Argument, reasons: dict[_Contender, _Reason], attacks: list[_Attack]) -> Defeat:
    winning, unsupported = reasons[arg]
    by = [_who(held, a) if not isinstance(a, _Clash)
          else _("{ability}, cancelling each other").format(ability=_who(held, a.other(arg))) for a in winning]
    evidence = [e for a in winning for e in _attack_edges(attacks, arg, a)]
    if unsupported:
        granters = held[arg[0]][arg[1]].granters
        by += [_("no granter left: {ability} is defeated").format(ability=_who(held, g)) for g, _edge in granters]
        evidence += [edge for _from, edge in granters]
    return {"ability": held[arg[0]][arg[1]].display, "by": by, "evidence": evidence}


def _side_report(held: list[dict[str, _Held]], index: int, labels: dict[_Contender, str],
                 reasons: dict[_Contender, _Reason], attacks: list[_Attack]) -> SideReport:
    abilities = held[index]
    report: SideReport = {
        "abilities": [h.display for h in abilities.values() if h.given],
        "in_effect": [h.display for node, h in abilities.items() if labels[(index, node)] == "in"],
        "defeated": [_defeat(held, (index, node), reasons, attacks) for node in abilities if labels[(index, node)] == "out"],
        "undecided": [h.display for node, h in abilities.items() if labels[(index, node)] == "undecided"],
        "granted": [
            {"ability": h.display, "by": [_who(held, g) for g, _edge in h.granters], "evidence": [e for _granter, e in h.granters]}
            for h in abilities.values() if not h.given
        ],
    }
    return report


def _verdicts(held: list[dict[str, _Held]], labels: dict[_Contender, str], reasons: dict[_Contender, _Reason],
              attacks: list[_Attack]) -> list[Explanation]:
    """One explanation per ability: its verdict, the edges that decided it and, for an attack
    that failed, the edges that defeated the attacker."""
    verdicts: list[Explanation] = []
    for side, abilities in enumerate(held):
        for node, ability in abilities.items():
            arg = (side, node)
            label = labels[arg]
            chain: list[EdgeEvidence | RuleSentence] = [edge for _granter, edge in ability.granters]
            parts = []
            if ability.granters:
                granters = ", ".join(f"{_who(held, g)}{qualifiers([e])}" for g, e in ability.granters)
                parts.append((_("also granted by {granters}") if ability.given else _("granted by {granters}")).format(granters=granters))
            incoming: list[Argument] = sorted({a.attacker for a in attacks if a.target == arg and a.relation != MUTUAL})
            for attacker in incoming:
                edges = _attack_edges(attacks, arg, attacker)
                chain += edges
                relation = edges[0]["relation"]
                attacker_label = labels.get(attacker)
                clause = _("{attacker} {relation} it").format(attacker=_who(held, attacker), relation=relation_phrase(relation)) + qualifiers(edges)
                if attacker_label == "out":
                    beaten = _defeat(held, attacker, reasons, attacks)
                    chain += beaten["evidence"]
                    clause += _(", but {ability} is defeated by {by}").format(
                        ability=held[attacker[0]][attacker[1]].term.label, by=", ".join(beaten["by"]))
                elif attacker_label == "undecided":
                    clause += _(", and {ability} is itself undecided").format(ability=held[attacker[0]][attacker[1]].term.label)
                parts.append(clause)
            _add_clash_parts(held, labels, reasons, attacks, arg, parts, chain)
            verdict = {"in": "in effect", "out": "defeated"}.get(label, "undecided")
            shown = {"in": _("in effect"), "out": _("defeated")}.get(label, _("undecided"))
            text = _("{ability} (side {number}) is {verdict}").format(ability=ability.display, number=side + 1, verdict=shown)
            text += _(": {reasons}").format(reasons="; ".join(parts)) if parts else _(": nothing on another side attacks it")
            verdicts.append({"side": side + 1, "ability": ability.display, "verdict": verdict, "text": text, "chain": chain})
    return verdicts


def _add_clash_parts(held: list[dict[str, _Held]], labels: dict[_Contender, str], reasons: dict[_Contender, _Reason],
                     attacks: list[_Attack], arg: Argument, parts: list[str], chain: list[EdgeEvidence | RuleSentence]) -> None:
    for clash, label in labels.items():
        if not isinstance(clash, _Clash) or arg not in (clash.first, clash.second):
            continue
        other = clash.other(arg)
        edges = _attack_edges(attacks, arg, clash)
        chain += edges
        clause = _("it and {ability} cancel each other (mutuallyCancels)").format(ability=_who(held, other)) + qualifiers(edges)
        if label == "out":
            winning, unsupported = reasons[clash]
            why = [_("{ability} defeats one of them first").format(ability=_who(held, w)) for w in winning]
            why += [_("one of them has lost the ability that granted it")] if unsupported else []
            clause += _(", but the clash does not happen: {why}").format(why="; ".join(why))
            chain += [e for w in winning for target in (clash.first, clash.second) for e in _attack_edges(attacks, target, w)]
        parts.append(clause)
