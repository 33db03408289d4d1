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

import networkx as nx
from rdflib import Graph, URIRef

from .catalogue import ABILITY_KINDS as ABILITY_KINDS
from .catalogue import KIND_ORDER as KIND_ORDER
from .catalogue import RuleGraph, Term, common_game, game_node, text_of
from .catalogue import find_game as find_game
from .catalogue import find_term as find_term
from .catalogue import graph_terms as graph_terms
from .catalogue import match_name as match_name
from .errors import RulegraphError
from .interactions import edge_record as edge_record
from .interactions import interactions as interactions
from .names import parse_heading
from .namespaces import RG
from .text import fold, split_sentences

#: Relations that act as attacks in the resolver; mutuallyCancels switches both sides off.
ATTACKS = ("cancels", "negates")
MUTUAL = "mutuallyCancels"
_SIDE_SEPARATORS = re.compile(r"[,;]")


# --- stacking ----------------------------------------------------------------------------

#: Words (folded) by which a game's general rules say how an acquired ability stacks.
HIGHEST_CUES = ("plus eleve", "plus haut", "plus fort", "plus grand")
#: Words for what is compared when copies stack: "le paramètre le plus élevé", "la valeur la plus haute".
QUANTITY_WORDS = ("parametre", "valeur", "niveau", "rang")
ADDS_CUES = ("additionn", "s'ajoute", "se cumulent en")


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
    game_id = common_game(graph, [p.name for side in parsed for p in side], game, ABILITY_KINDS)
    rule = stacking_rule(graph, game_id)
    view = RuleGraph(graph).networkx()
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
        recipient = text_of(graph, URIRef(key), RG.recipient) or "bearer"
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
