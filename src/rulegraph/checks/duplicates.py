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
pairs come from a prefix-filtering index of groups with pivots (:func:`spanning_links`), not
from all pairs.

Findings link each near-identical text to one it resembles, not to every one: texts are taken in
file order and a text is compared only with earlier candidates not yet linked to it (a spanning
forest of the near-identical pairs). The groups are those of all pairs, and a catalogue of n
copies of a text gives n − 1 findings instead of n(n − 1)/2. Texts that are word for word the
same are compared once, as the first of them (identical-text lists them all).
"""

from __future__ import annotations

import difflib
from collections import Counter, defaultdict
from collections.abc import Callable
from functools import lru_cache
from typing import TypeVar

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
    """Texts written word for word alike are compared once, as their first ability: identical-text
    reports them, and a catalogue of copies would otherwise offer each one to every group."""
    by_game: dict[str, list[tuple[Ability, list[str], list[str], frozenset[tuple[str, int]]]]] = defaultdict(list)
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for ability in abilities(graph):
        pairs = _words_of(ability)
        keys = [k for k, _word in pairs]
        text = (ability.game, tuple(keys))
        if pairs and text not in seen:
            seen.add(text)
            by_game[ability.game].append((ability, keys, [w for _key, w in pairs], _tokens(keys)))
    findings: list[Finding] = []
    for items in by_game.values():
        def link(first: int, second: int, items: list = items) -> Finding | None:
            return _near_identical(items[first], items[second])
        findings.extend(spanning_links([tokens for *_rest, tokens in items], link))
    return findings


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


Link = TypeVar("Link")


def spanning_links(bags: list[frozenset[tuple[str, int]]], link: Callable[[int, int], Link | None]) -> list[Link]:
    """A spanning forest of the pairs that ``link`` joins: each text, in order, is offered every
    earlier text not yet in its group, in order, and the results ``link`` gives are returned.
    ``link`` must return None for every pair whose bags (sets of (word, k-th occurrence)) share
    fewer than the ratio's words, as the near-identical ratio does.

    Only some pairs are offered, never one fewer than all pairs would link:

    - Prefix filtering. A pair at the ratio τ shares at least τ(|a|+|b|)/2 words, and the length
      bound gives |b| ≥ |a|·τ/(2−τ), so it shares at least t(a) = |a|·τ/(2−τ) words of a. With
      every token ordered rarest first, two bags sharing t tokens share one among the first
      |x| − t + 1 tokens of each, so only groups holding a text that shares one of those tokens
      are looked at. The index keeps one entry per group, not per text: a catalogue of copies
      makes every rare word common to a hundred texts, which pairwise indexes compare again and
      again.
    - Pivots. Each group keeps a pivot text and a radius, the largest number of words that
      differ between the pivot and any text of the group (|x Δ y| over the bags, a distance). A
      text farther from the pivot than the radius plus what the ratio allows the group's longest
      text cannot reach the ratio with any of them (triangle inequality), so the group is passed
      after one set intersection."""
    groups = _Groups(bags)
    frequency = Counter(token for bag in bags for token in bag)
    index: dict[tuple[str, int], list[int]] = defaultdict(list)
    links: list[tuple[int, Link]] = []
    ratio = NEAR_IDENTICAL_RATIO
    for second, bag in enumerate(bags):
        size = len(bag)
        ordered = sorted(bag, key=lambda token: (frequency[token], token))
        shared = int(size * ratio / (2 - ratio))  # rounded down: a longer prefix, safe
        candidates: dict[int, None] = {}
        for token in ordered[: size - shared + 1]:
            roots = list(dict.fromkeys(groups.root(member) for member in index[token]))
            candidates.update(dict.fromkeys(roots))
            index[token] = [*roots, second]
        found: list[tuple[int, Link]] = []
        for root in candidates:
            root = groups.root(root)
            if root == groups.root(second) or groups.too_far(root, bag):
                continue
            for first in sorted(groups.members[root]):
                result = link(first, second)
                if result is not None:
                    groups.join(root, second)
                    found.append((first, result))
                    break
        links.extend(sorted(found, key=lambda item: item[0]))
    return [result for _first, result in links]


class _Groups:
    """Union-find over texts where each group knows its members, its shortest and longest bag,
    a pivot and a radius (see :func:`spanning_links`)."""

    def __init__(self, bags: list[frozenset[tuple[str, int]]]) -> None:
        self.bags = bags
        self.parent = list(range(len(bags)))
        self.members = [[number] for number in range(len(bags))]
        self.shortest = [len(bag) for bag in bags]
        self.longest = list(self.shortest)
        self.pivot = list(range(len(bags)))
        self.radius = [0] * len(bags)

    def root(self, number: int) -> int:
        parent = self.parent
        while parent[number] != number:
            parent[number] = parent[parent[number]]
            number = parent[number]
        return number

    def too_far(self, root: int, bag: frozenset[tuple[str, int]]) -> bool:
        """No text of the group can share the ratio's words with ``bag``."""
        ratio, size = NEAR_IDENTICAL_RATIO, len(bag)
        # The length bound 2·min(|a|, |b|) ≥ τ(|a| + |b|) holds only for lengths in [low, high].
        low, high = size * ratio / (2 - ratio), size * (2 - ratio) / ratio
        if self.longest[root] < low - 1e-9 or self.shortest[root] > high + 1e-9:
            return True
        distance = len(bag ^ self.bags[self.pivot[root]])  # words in one bag only
        return distance - self.radius[root] > (1 - ratio) * (size + self.longest[root]) + 1e-9

    def join(self, root: int, other: int) -> None:
        big, small = self.root(root), self.root(other)
        if len(self.members[big]) < len(self.members[small]):
            big, small = small, big
        between = len(self.bags[self.pivot[big]] ^ self.bags[self.pivot[small]])
        self.radius[big] = max(self.radius[big], between + self.radius[small])
        self.shortest[big] = min(self.shortest[big], self.shortest[small])
        self.longest[big] = max(self.longest[big], self.longest[small])
        self.members[big].extend(self.members[small])
        self.members[small] = []
        self.parent[small] = big


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
