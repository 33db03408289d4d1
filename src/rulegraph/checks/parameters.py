"""parameter-mismatch: a parameter the text uses but the name does not declare, or the reverse.

Parameters are the placeholder letters of a heading (``X``, ``D``, ``X/D`` meaning both X and D,
``+X``, ``(XX)`` which stands for X). In the text they are capital letters standing alone as words
(``+X CBT``, ``D toises``, ``X+``). A letter written right after another ability's name
(``Immortel/ X``, ``Elite (X)`` in another rule) belongs to that ability and is not counted.

Keyword slots (``(mot-clé)``, ``(définition)``…) are used when the text refers to them: it names
the slot's word, says "indiqué(e)" or points "entre parenthèses"; a text that points "entre
parenthèses" without a slot in its name is missing one.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

from rdflib import RDF, Graph

from ..catalogue import Ability, abilities, game_of, label_of, line_containing
from ..i18n import _
from ..lang import words as lang_words
from ..namespaces import RG
from ..text import fold, of_name, tokenize
from .finding import CheckId, Finding

PARAMETER_MISMATCH = CheckId("RG006", "parameter-mismatch")

PARAMETER_LETTERS = frozenset("XYDN")
#: Words quoted on each side of a parameter the text uses, so the designer finds the place.
QUOTED_WORDS = 4
_PLACEHOLDER = re.compile(r"[A-Za-z]+")
#: Folded words by which a text points at a keyword slot of its name (lang/fr/words.toml, [parameters]).
_SLOT_POINTERS = tuple(lang_words("parameters")["slot_pointers"])
_PARENTHESES_POINTER = lang_words("parameters")["parentheses_pointer"]


def declared_letters(parameters: tuple[str, ...]) -> set[str]:
    """``X/D`` → {X, D}; ``(XX)`` → {X}; ``+X`` → {X}; numbers declare nothing."""
    letters = set()
    for parameter in parameters:
        for run in _PLACEHOLDER.findall(parameter):
            letters.update(run.upper())
    return letters


def parameter_letter(word: str) -> str | None:
    """``X``, ``XX``, ``D`` → that letter; a lone ``n`` is the ``(n)`` of a heading; else None."""
    if word == "n":
        return "N"
    if word.isupper() and len(set(word)) == 1 and word[0] in PARAMETER_LETTERS and len(word) <= 2:
        return word[0]
    return None


def used_letters(text: str, other_names: Iterable[str], own_name: str | None = None) -> dict[str, str]:
    """Parameter letters standing alone in the text → the first phrase using each, for quoting.

    ``other_names`` are the other abilities' names, folded (:func:`rulegraph.text.fold`);
    ``own_name``, folded, is left out of them (so one set of a game's names serves every text).
    """
    folded = fold(text)
    names = other_names if isinstance(other_names, (set, frozenset)) else set(other_names)
    used: dict[str, str] = {}
    tokens = tokenize(text)
    for index, token in enumerate(tokens):
        letter = parameter_letter(token.surface)
        if letter is None or letter in used:
            continue
        before = folded[max(0, token.start - 60): token.start].rstrip(" /(:")
        # "before ends with a name": each of its suffixes looked up, not each name compared.
        if any(before[start:] in names and before[start:] != own_name for start in range(len(before) + 1)):
            continue
        window = tokens[max(0, index - QUOTED_WORDS): index + QUOTED_WORDS + 1]
        used[letter] = " ".join(text[window[0].start: window[-1].end].split())
    return used


def _slot_used(slot: str, text: str) -> bool:
    folded = fold(text)
    if any(pointer in folded for pointer in _SLOT_POINTERS):
        return True
    text_keys = {t.key for t in tokenize(text)}
    return any(len(t.key) > 2 and t.key in text_keys for t in tokenize(slot))


def check_parameter_mismatches(graph: Graph) -> list[Finding]:
    defined = abilities(graph)
    names_by_game: dict[str, set[str]] = defaultdict(set)
    for ability in defined:
        names_by_game[ability.game].add(fold(ability.label))
    for node in graph.subjects(RDF.type, RG.UndefinedAbility):
        names_by_game[game_of(graph, node)[1]].add(fold(label_of(graph, node)))
    findings = []
    for ability in defined:
        if not ability.text:
            continue
        findings += _letter_findings(graph, ability, names_by_game[ability.game]) + _slot_findings(ability)
    return findings


def _letter_findings(graph: Graph, ability: Ability, game_names: set[str]) -> list[Finding]:
    declared = declared_letters(ability.parameters)
    used = used_letters(ability.text, game_names, own_name=fold(ability.label))
    heading = ability.heading or ability.label
    findings = []
    for letter in sorted(set(used) - declared):
        findings.append(PARAMETER_MISMATCH.finding(
            "warning", ability.label, ability.game,
            _("The text {of_name} uses {letter} (“{words}”) but the name “{heading}” does not declare it: "
              "write “{name} {letter}” (or replace {letter} by a value).").format(
                of_name=of_name(ability.label), letter=letter, words=used[letter], heading=heading, name=ability.label),
            ability.source, line_containing(graph, ability.node, used[letter]) or ability.line))
    for letter in sorted(declared - set(used)):
        findings.append(PARAMETER_MISMATCH.finding(
            "warning", ability.label, ability.game,
            _("“{heading}” declares the parameter {letter} but the text never uses it: "
              "remove it from the name, or say in the text what it is for.").format(heading=heading, letter=letter),
            ability.source, ability.line))
    return findings


def _slot_findings(ability: Ability) -> list[Finding]:
    heading = ability.heading or ability.label
    findings = []
    for slot in ability.slots:
        if not _slot_used(slot, ability.text):
            findings.append(PARAMETER_MISMATCH.finding(
                "warning", ability.label, ability.game,
                _("“{heading}” declares ({slot}) but the text says neither what this {slot} stands for "
                  "nor how it applies.").format(heading=heading, slot=slot),
                ability.source, ability.line))
    if not ability.slots and _PARENTHESES_POINTER in fold(ability.text):
        findings.append(PARAMETER_MISMATCH.finding(
            "warning", ability.label, ability.game,
            _("The text {of_name} points at what is given “in brackets” but the name “{heading}” "
              "has no keyword in brackets.").format(of_name=of_name(ability.label), heading=heading),
            ability.source, ability.line))
    return findings
