"""Relation cues and the few French words the extractor reads them with, from a TOML data file.

The file (``rulegraph/lang/fr/cues.toml``) is the place to extend: a ``[[cue]]`` per way of
saying an interaction, and a ``[language]`` table of word lists (bearers, triggers, self
references, opponent scope...). Nothing about French phrasing is written in the code.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from ..errors import RulegraphError
from ..i18n import _
from ..lang import display_path, read_text
from ..namespaces import INTERACTIONS
from ..text import fold

DIRECTIONS = ("auto", "forward", "backward", "reverse", "passive", "mutual", "condition")
_RESOURCE = display_path("cues.toml")


@dataclass(frozen=True, slots=True)
class Cue:
    relation: str
    pattern: re.Pattern[str]
    direction: str = "auto"
    opponent_relation: str | None = None
    reach: int | None = None
    #: False for a cue that states a fact only in a main clause ("est Furtif"): inside a
    #: condition ("si la cible est Furtive") it tests a state and governs nothing.
    in_conditions: bool = True


@dataclass(frozen=True, slots=True)
class CueMatch:
    cue: Cue
    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class Language:
    """Compiled word lists from the ``[language]`` table; each regex works on folded text."""

    bearer_before: re.Pattern[str]
    trigger_before: re.Pattern[str]
    bare_object_before: re.Pattern[str]
    action_before: re.Pattern[str]
    common_noun_before: re.Pattern[str]
    self_nouns: tuple[str, ...]
    anaphor: re.Pattern[str]
    pair_anaphor: re.Pattern[str]
    opponent_scope: re.Pattern[str]
    opponent_recipient: re.Pattern[str]
    ally_recipient: re.Pattern[str]
    back_reference: re.Pattern[str]
    condition: re.Pattern[str]
    scope: re.Pattern[str]
    not_condition_before: re.Pattern[str]
    name_function_words: tuple[str, ...]
    name_trigger: re.Pattern[str]
    name_stop_words: frozenset[str]
    frequent_word: int
    modifying_before: re.Pattern[str]
    amount_before: re.Pattern[str]
    list_glue: re.Pattern[str]
    grant_negated_before: re.Pattern[str]
    grant_negated_after: re.Pattern[str]
    exclusion_negated_before: re.Pattern[str]
    recipient_before: re.Pattern[str]
    recipient_phrase: re.Pattern[str]
    effect_negation: re.Pattern[str]
    extends_previous: re.Pattern[str]
    negated_condition: re.Pattern[str]
    amount_negated: re.Pattern[str]


def _compile(pattern: str, *, path: str, what: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except re.error as error:
        raise RulegraphError(_('{what}: bad pattern {pattern!r} ({error})').format(what=what, pattern=pattern, error=error), path=path) from None


def _alternatives(words: list[str]) -> str:
    return "|".join(f"(?:{w})" for w in words)


def parse_language(data: dict[str, Any], *, path: str) -> Language:
    raw = data.get("language", {})

    def words(key: str) -> list[str]:
        value = raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise RulegraphError(_('[language] {key} must be a list of strings').format(key=key), path=path)
        return value

    def combined(key: str, template: str) -> re.Pattern[str]:
        items = words(key)
        return _compile(template.format(_alternatives(items)) if items else r"(?!x)x", path=path, what=f"[language] {key}")

    article = "(?:" + _alternatives(words("trigger_articles")) + ")?"
    return Language(
        bearer_before=combined("bearers", r"\b(?:{})s?\s+$"),
        trigger_before=combined("triggers", r"\b(?:{})\s*" + article + r"$"),
        bare_object_before=combined("bare_object_verbs", r"\b(?:{})\s+$"),
        action_before=combined("action_markers", r"\b(?:{})\s*$"),
        common_noun_before=combined("common_noun_determiners", r"(?<![\w'])(?:{})(?:(?<=')|\s+)$"),
        self_nouns=tuple(words("self_nouns")),
        anaphor=combined("anaphors", r"\b(?:{})\b"),
        pair_anaphor=combined("pair_anaphors", "{}"),
        opponent_scope=combined("opponent_scope", "{}"),
        opponent_recipient=combined("opponent_recipient", "{}"),
        ally_recipient=combined("ally_recipient", "{}"),
        back_reference=combined("back_references", "{}"),
        condition=combined("condition_openers", r"(?<![\w'])(?:{})(?:(?<=')|(?!\w))[^,;:.()]*"),
        scope=combined("scope_openers", r"(?<![\w'])(?:{})(?!\w)[^,;:.()]*"),
        not_condition_before=combined("not_condition_after", r"\b(?:{})\s+$"),
        name_function_words=tuple(words("name_function_words")),
        name_trigger=combined("name_triggers", r"(?<![\w'])(?:{})(?:(?<=')|\s+)"),
        name_stop_words=frozenset(words("name_stop_words")),
        frequent_word=int(raw.get("frequent_word", 0)),
        modifying_before=combined("modifying_words", r"(?:{})\w*[^.]{{0,40}}$"),
        amount_before=combined("amount_links", r"([+\-−–]\s?(?:\d+|[xyd]))\s*(?:{})?$"),
        grant_negated_before=combined("grant_negated_before", "{}"),
        grant_negated_after=combined("grant_negated_after", "{}"),
        exclusion_negated_before=combined("exclusion_negated_before", "{}"),
        list_glue=combined("list_conjunctions", r"^\s*(?:,|\b(?:{})\b)?\s*(?:" + _alternatives(words("list_articles")) + ")?$"),
        recipient_before=combined("recipient_markers", r"\b(?:{})\s*$"),
        recipient_phrase=combined("recipient_markers", r"\b(?:{})\s*[^,;:.]{{0,40}}"),
        extends_previous=combined("extends_previous", "{}"),
        negated_condition=combined("condition_negations", "{}"),
        amount_negated=combined("amount_negations", r"(?:{})[^.;:]*$"),
        effect_negation=_effect_negation(words("negation_openers"), words("effect_negations"), words("effect_words"), path=path),
    )


def _effect_negation(openers: list[str], negations: list[str], effects: list[str], *, path: str) -> re.Pattern[str]:
    """"ne ... pas" with an effect word at most three words from the negation, either side
    ("ne s'appliquent pas", "n'en ressent aucunement l'effet", "ne se laisse jamais affecter")."""
    if not openers or not negations or not effects:
        return re.compile(r"(?!x)x")
    opener = r"\b(?:" + _alternatives(openers) + ")"
    negation = opener + r"(?:[\w']+ ){0,3}?(?:" + _alternatives(negations) + r")\b"
    effect = r"\b(?:" + _alternatives(effects) + r")\w*"
    return _compile(rf"{negation}(?: [\w']+){{0,3}}? {effect}|{opener}(?:[\w']+ ){{0,2}}?{effect}(?: [\w']+){{0,1}} (?:"
                    + _alternatives(negations) + r")\b", path=path, what="[language] effect_negations / effect_words")


def parse_cues(text: str, *, path: str) -> list[Cue]:
    return _cues_from(_load(text, path), path)


def _cues_from(data: dict[str, Any], path: str) -> list[Cue]:
    cues = []
    for index, raw in enumerate(data.get("cue", []), start=1):
        relation, direction = raw.get("relation"), raw.get("direction", "auto")
        opponent = raw.get("opponent_relation")
        for key, value in (("relation", relation), ("opponent_relation", opponent)):
            if value is not None and value not in INTERACTIONS or (key == "relation" and value is None):
                raise RulegraphError(_('cue #{index}: {key} {value!r} must be one of {interactions}').format(index=index, key=key, value=value, interactions=', '.join(INTERACTIONS)), path=path)
        if direction not in DIRECTIONS:
            raise RulegraphError(_('cue #{index}: direction {direction!r} must be one of {directions}').format(index=index, direction=direction, directions=', '.join(DIRECTIONS)), path=path)
        if "pattern" not in raw:
            raise RulegraphError(_('cue #{index}: missing pattern').format(index=index), path=path)
        reach = raw.get("reach")
        if reach is not None and (not isinstance(reach, int) or reach < 0):
            raise RulegraphError(_('cue #{index}: reach must be a whole number of characters').format(index=index), path=path)
        in_conditions = raw.get("in_conditions", True)
        if not isinstance(in_conditions, bool):
            raise RulegraphError(_('cue #{index}: in_conditions must be true or false').format(index=index), path=path)
        cues.append(Cue(relation, _compile(raw["pattern"], path=path, what=f"cue #{index}"), direction, opponent, reach, in_conditions))
    return cues


def _load(text: str, path: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RulegraphError(_('invalid TOML: {error}').format(error=error), path=path) from None


@cache
def _shipped_data() -> dict[str, Any]:
    """The shipped file, parsed once for both its cues and its words."""
    return _load(read_text("cues.toml"), _RESOURCE)


@cache
def _shipped_cues() -> tuple[Cue, ...]:
    return tuple(_cues_from(_shipped_data(), _RESOURCE))


def default_cues() -> list[Cue]:
    return list(_shipped_cues())


@cache
def default_language() -> Language:
    return parse_language(_shipped_data(), path=_RESOURCE)


def load_cues(path: Path | None = None) -> list[Cue]:
    if path is None:
        return default_cues()
    return parse_cues(path.read_text(encoding="utf-8"), path=str(path))


def find_cues(folded: str, cues: list[Cue]) -> list[CueMatch]:
    """Cue matches, earliest first; where two overlap, the one listed first in the file wins."""
    found: list[CueMatch] = []
    for cue in cues:
        for match in cue.pattern.finditer(folded):
            if any(m.start < match.end() and match.start() < m.end for m in found):
                continue
            found.append(CueMatch(cue, match.start(), match.end(), match.group()))
    return sorted(found, key=lambda m: m.start)


#: A legend line that says what a symbol means: "✗ : incompatible avec", "◊ = immunisé à".
_LEGEND_LINE = re.compile(r"^[ \t]*(?P<symbol>[^\w\s]{1,2})[ \t]*[:=][ \t]*(?P<meaning>\S.*)$", re.M)
#: How far into a legend's meaning the cue it opens with may start ("est immunisé à").
_MEANING_OPENING = 12


def declared_symbol_cues(texts: Iterable[str], cues: list[Cue]) -> list[Cue]:
    """The symbols a glossary declares in a legend ("✗ : incompatible avec", "◊ : immunisé à,
    ignore", "★ : réservé aux fig. ayant…"), each as a cue: the one its meaning opens with, with
    that cue's relation and direction. Only symbols count (not letters, digits or ASCII
    punctuation), and the first meaning given for each."""
    declared: dict[str, Cue] = {}
    for text in texts:
        for match in _LEGEND_LINE.finditer(text):
            symbol = match.group("symbol")
            if symbol in declared or not all(not c.isascii() and unicodedata.category(c) in ("So", "Sm") for c in symbol):
                continue
            opening = next((m for m in find_cues(fold(match.group("meaning")), cues) if m.start <= _MEANING_OPENING), None)
            if opening is not None:
                declared[symbol] = replace(opening.cue, pattern=re.compile(re.escape(symbol)), reach=None)
    return list(declared.values())
