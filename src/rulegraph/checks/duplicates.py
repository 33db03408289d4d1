"""duplicate-definition, identical-text and near-identical-text: the same rule written twice.

Texts are compared as sequences of folded words (:func:`rulegraph.text.tokenize` then
:func:`rulegraph.text.fold`: no case, accent or apostrophe differences), with the ability's own
name replaced by a placeholder, so that two rules that differ only by their name count as
identical.

Near-identical measure: ``difflib.SequenceMatcher(None, words_a, words_b).ratio()`` over those
word sequences, i.e. 2 × (words in matching blocks) / (words in both texts); a pair at or above
:data:`NEAR_IDENTICAL_RATIO` is reported. Only abilities of the same game are compared. Two cheap
upper bounds of that ratio (the lengths, then the words shared regardless of order) skip most
pairs before the sequences are aligned, without ever skipping one that would pass; candidate
pairs come from a prefix-filtering index (:func:`_candidates`), not from all pairs.

Findings link each near-identical text to one it resembles, not to every one: texts are taken in
file order and a text is compared only with earlier candidates not yet linked to it (a spanning
forest of the near-identical pairs). The groups are those of all pairs, and a catalogue of n
copies of a text gives n − 1 findings instead of n(n − 1)/2.
"""

from __future__ import annotations

import difflib
from collections import Counter, defaultdict
from functools import lru_cache

from rdflib import Graph, Literal, URIRef

from ..catalogue import Ability, abilities, line_of, source_of, text_of
from ..i18n import _, ngettext
from ..namespaces import RG
from ..text import fold, tokenize
from .finding import CheckId, Finding

DUPLICATE_DEFINITION = CheckId("RG003", "duplicate-definition")
IDENTICAL_TEXT = CheckId("RG004", "identical-text")
NEAR_IDENTICAL_TEXT = CheckId("RG005", "near-identical-text")

NEAR_IDENTICAL_RATIO = 0.85
#: How many differing passages a near-identical finding quotes.
SHOWN_DIFFERENCES = 3
_OWN_NAME = "<nom>"


def comparable_words(ability: Ability) -> list[str]:
    """The text as folded words, the ability's own name replaced by a placeholder."""
    return [key for key, _word in _words_of(ability)]


def _words_of(ability: Ability) -> tuple[tuple[str, str], ...]:
    """(folded key, word as written) for each word, the own name collapsed into one placeholder."""
    return _text_words(ability.text, ability.label)


@lru_cache(maxsize=1 << 16)
def _text_words(text: str, label: str) -> tuple[tuple[str, str], ...]:
    """Kept per text: identical-text and near-identical-text both read every text's words."""
    words = [(fold(t.surface), t.surface) for t in tokenize(text)]
    name = [fold(t.surface) for t in tokenize(label)]
    if not name:
        return tuple(words)
    collapsed, index = [], 0
    while index < len(words):
        if [key for key, _word in words[index: index + len(name)]] == name:
            collapsed.append((_OWN_NAME, label))
            index += len(name)
        else:
            collapsed.append(words[index])
            index += 1
    return tuple(collapsed)


def text_similarity(a: list[str], b: list[str]) -> float:
    """difflib's ratio over word sequences: 1.0 for the same words in the same order."""
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def check_duplicate_definitions(graph: Graph) -> list[Finding]:
    findings = []
    for ability in abilities(graph):
        repeats = sorted(int(line.toPython()) for line in graph.objects(ability.node, RG.duplicateLine) if isinstance(line, Literal))
        if repeats:
            lines = ", ".join(str(line) for line in [ability.line, *repeats])
            findings.append(DUPLICATE_DEFINITION.finding(
                "info", ability.label, ability.game,
                _("“{name}” is defined {count} times word for word (lines {lines}): one copy is enough.").format(
                    name=ability.label, count=1 + len(repeats), lines=lines),
                ability.source, repeats[0]))
        for definition in sorted(n for n in graph.objects(ability.node, RG.conflictingDefinition) if isinstance(n, URIRef)):
            source = source_of(graph, definition)
            line = line_of(graph, definition)
            other = text_of(graph, definition, RG.text)
            findings.append(DUPLICATE_DEFINITION.finding(
                "error", ability.label, ability.game,
                _("“{name}” has two different definitions: line {line} (“{text}”) and line {other_line} "
                  "(“{other_text}”); keep the right one.").format(
                    name=ability.label, line=ability.line, text=_excerpt(ability.text), other_line=line,
                    other_text=_excerpt(other)),
                source or ability.source, line))
    return findings


def check_identical_texts(graph: Graph) -> list[Finding]:
    findings = []
    groups: dict[tuple[str, tuple[str, ...]], list[Ability]] = defaultdict(list)
    for ability in abilities(graph):
        words = comparable_words(ability)
        if words:
            groups[(ability.game, tuple(words))].append(ability)
    for members in groups.values():
        if len(members) < 2:
            continue
        first = members[0]
        names = _join([m.label for m in members])
        lines = ", ".join(str(m.line) for m in members)
        findings.append(IDENTICAL_TEXT.finding(
            "info", first.label, first.game,
            _("{names} have exactly the same text (lines {lines}): merge them into one ability, "
              "or a text was copied without being adapted.").format(names=names, lines=lines),
            first.source, first.line))
    return findings


def check_near_identical_texts(graph: Graph) -> list[Finding]:
    by_game: dict[str, list[tuple[Ability, list[str], list[str], frozenset[tuple[str, int]]]]] = defaultdict(list)
    for ability in abilities(graph):
        pairs = _words_of(ability)
        if pairs:
            keys = [k for k, _word in pairs]
            by_game[ability.game].append((ability, keys, [w for _key, w in pairs], _tokens(keys)))
    findings = []
    for items in by_game.values():
        group = list(range(len(items)))  # union-find over the texts: linked texts share a root
        for second, earlier in enumerate(_candidates([tokens for *_rest, tokens in items])):
            for first in earlier:
                if _root(group, first) == _root(group, second):
                    continue
                found = _near_identical(items[first], items[second])
                if found is not None:
                    group[_root(group, first)] = _root(group, second)
                    findings.append(found)
    return findings


def _root(group: list[int], number: int) -> int:
    while group[number] != number:
        group[number] = group[group[number]]
        number = group[number]
    return number


def _tokens(words: list[str]) -> frozenset[tuple[str, int]]:
    """The words as a set of (word, k-th occurrence): two texts share as many words, counted
    with repeats, as these sets share members, which a set intersection counts at C speed."""
    seen: Counter[str] = Counter()
    tokens = []
    for word in words:
        tokens.append((word, seen[word]))
        seen[word] += 1
    return frozenset(tokens)


def _near_identical(first: tuple[Ability, list[str], list[str], frozenset[tuple[str, int]]],
                    second: tuple[Ability, list[str], list[str], frozenset[tuple[str, int]]]) -> Finding | None:
    """The finding for two texts at or above the ratio (cheap bounds first), else None."""
    (a, words_a, shown_a, tokens_a), (b, words_b, shown_b, tokens_b) = first, second
    total = len(words_a) + len(words_b)
    if words_a == words_b or 2 * min(len(words_a), len(words_b)) < NEAR_IDENTICAL_RATIO * total:
        return None
    shared = len(tokens_a & tokens_b)  # |a ∩ b| counted with repeats
    if 2 * shared < NEAR_IDENTICAL_RATIO * total:
        return None
    matcher = difflib.SequenceMatcher(None, words_a, words_b, autojunk=False)
    ratio = matcher.ratio()
    if ratio < NEAR_IDENTICAL_RATIO:
        return None
    differences = _differences(matcher, shown_a, shown_b)
    return NEAR_IDENTICAL_TEXT.finding(
        "info", a.label, a.game,
        _("{name} (line {line}) and {other} (line {other_line}) have almost the same text "
          "(similarity {percent}%); they differ only by {differences}. "
          "Candidates for merging, or a difference to check.").format(
            name=a.label, line=a.line, other=b.label, other_line=b.line, percent=round(ratio * 100),
            differences=differences),
        a.source, a.line)


def _candidates(token_sets: list[frozenset[tuple[str, int]]]) -> list[list[int]]:
    """For each text, the earlier texts (in order) that may reach the ratio with it: prefix
    filtering, exact, never a pair too few.

    A pair at the ratio τ shares at least τ(|a|+|b|)/2 words (counted with repeats), and the
    length bound gives |b| ≥ |a|·τ/(2−τ), so it shares at least t(a) = |a|·τ/(2−τ) words of
    a. Order every (word, k-th occurrence) token rarest first: two bags sharing t tokens share
    one among the first |x| − t + 1 tokens of each. Indexing only those prefixes finds every
    such pair while comparing a text with just the few texts that share a rare word with it."""
    tokens = [list(own) for own in token_sets]
    frequency = Counter(token for own in tokens for token in own)
    index: dict[tuple[str, int], list[int]] = defaultdict(list)
    found: list[list[int]] = []
    for number, own in enumerate(tokens):
        own.sort(key=lambda token: (frequency[token], token))
        size = len(own)
        shared = int(size * NEAR_IDENTICAL_RATIO / (2 - NEAR_IDENTICAL_RATIO))  # rounded down: a longer prefix, safe
        earlier: set[int] = set()
        for token in own[: size - shared + 1]:
            earlier.update(index[token])
            index[token].append(number)
        found.append(sorted(earlier))
    return found


def _differences(matcher: difflib.SequenceMatcher, a: list[str], b: list[str]) -> str:
    parts = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        left = _words(a[i1:i2])
        right = _words(b[j1:j2])
        if not left:
            parts.append(_("“{words}” added").format(words=right))
        elif not right:
            parts.append(_("“{words}” missing").format(words=left))
        else:
            parts.append(_("“{words}” / “{other_words}”").format(words=left, other_words=right))
    shown = "; ".join(parts[:SHOWN_DIFFERENCES])
    hidden = len(parts) - SHOWN_DIFFERENCES
    if hidden > 0:
        shown += ngettext(" (and {count} other passage)", " (and {count} other passages)", hidden).format(count=hidden)
    return shown


def _words(words: list[str]) -> str:
    return " ".join(words).replace("' ", "'").replace("’ ", "’")


def _excerpt(text: str, width: int = 80) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1].rstrip() + "…"


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])
