"""Agreement between two blind annotators of the same glossaries: tests/gold/<set>.tsv (the
writer's own annotation) against tests/gold/second-annotator/<set>.tsv (a second helper who saw only the
guide and the glossary). Scored like ``rulegraph evaluate``: per unordered pair of abilities, the
set of relations with their direction. It says how much of the typer's gap could be noise in
the gold."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from rulegraph.evaluation import load_gold, pair_labels  # noqa: E402

SECOND = ROOT / "tests" / "gold" / "second-annotator"


def main() -> None:
    totals: Counter[str] = Counter()
    disagreements: list[str] = []
    print(f"{'set':12} {'first':>5} {'second':>6} {'shared':>6} {'same type':>9} {'agreement':>9}")
    for path in sorted(SECOND.glob("*.tsv")):
        first = pair_labels(load_gold(ROOT / "tests" / "gold" / path.name))
        second = pair_labels(load_gold(path))
        shared = first.keys() & second.keys()
        same = sum(first[pair] == second[pair] for pair in shared)
        disagreements += [f"  {path.stem}: {sorted(first[p])} / {sorted(second[p])}" for p in sorted(shared, key=lambda pair: sorted(pair[1])) if first[p] != second[p]]
        print(f"{path.stem:12} {len(first):5} {len(second):6} {len(shared):6} {same:9} {same / len(shared):9.3f}")
        totals.update(first=len(first), second=len(second), shared=len(shared), same=same)
    print(f"{'all':12} {totals['first']:5} {totals['second']:6} {totals['shared']:6} {totals['same']:9} "
          f"{totals['same'] / totals['shared']:9.3f}")
    print("pairs typed differently (first / second):")
    print("\n".join(disagreements) or "  none")


if __name__ == "__main__":
    main()
