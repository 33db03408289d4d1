"""Where a file line falls among the abilities' texts, and how a place is written: what the
checks need beside the read layer's records (:mod:`rulegraph.catalogue`)."""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict

from ..catalogue import Ability


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


def place(source: str, line: int | None) -> str:
    return f"{source}:{line}" if line else source
