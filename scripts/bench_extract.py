"""Extraction of the whole seed corpus, in-process: median of several runs (the target is < 1 s).

The corpus is read once; each run builds every game's lexicon, discovers undefined names, and
extracts every statement. The first run also loads pyspellchecker's French word list (used to
flag ability names that are ordinary words), so it is reported on its own.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from rulegraph.corpus import load_corpus
from rulegraph.extract.cues import load_cues
from rulegraph.extract.extractor import extract_corpus

ROOT = Path(__file__).resolve().parents[1]
RUNS = 7


def main() -> None:
    corpus = load_corpus(ROOT / "data" / "corpus.toml")
    times = []
    for _ in range(RUNS + 1):
        start = time.perf_counter()
        statements = extract_corpus(corpus, load_cues())
        times.append(time.perf_counter() - start)
    median = statistics.median(times[1:])
    print(f"extraction of the seed corpus: {len(statements)} statements, "
          f"median {median * 1000:.0f} ms over {RUNS} runs (first run, with the French word list load: {times[0] * 1000:.0f} ms)")
    print("OK: median under 1 s" if median < 1.0 else "SLOW: median over 1 s")


if __name__ == "__main__":
    main()
