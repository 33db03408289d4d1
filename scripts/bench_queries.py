"""Warm latency of the interaction queries on the seed graph: median of several runs after a
warm-up, in-process (the graph is built once; building it is benchmarked elsewhere)."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from rulegraph import queries
from rulegraph.build import build
from rulegraph.interactions import interactions
from rulegraph.resolve import resolve

ROOT = Path(__file__).resolve().parents[1]
RUNS = 15


def median_seconds(call) -> float:
    call()
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    graph = build(ROOT / "data" / "corpus.toml").graph
    cases = {
        "interactions Fouisseur / Attaque d'opportunité": lambda: interactions(graph, "Fouisseur", "Attaque d'opportunité"),
        "interactions Interception / Insaisissable": lambda: interactions(graph, "Interception", "Insaisissable"),
        "resolve Fouisseur vs Attaque d'opportunité, Interception":
            lambda: resolve(graph, ["Fouisseur", "Attaque d'opportunité, Interception"]),
        "resolve Frappe rapide vs Riposte rapide": lambda: resolve(graph, ["Frappe rapide", "Riposte rapide"]),
        "resolve Illuminé, Régénération 2, Régénération +2 vs Fouisseur":
            lambda: resolve(graph, ["Illuminé, Régénération 2, Régénération +2", "Fouisseur"], game="Hell Dorado"),
    }
    for query in queries.available():
        parameters = {p.name: _example(p.kind) for p in query.parameters if not p.optional}
        if query.name == "modifies-during":
            parameters["game"] = "Hell Dorado"
        cases[f"query {query.name}"] = lambda q=query, p=parameters: queries.run(graph, q, p)
    width = max(map(len, cases))
    for label, call in cases.items():
        print(f"{label:<{width}}  {median_seconds(call) * 1000:7.1f} ms  (median of {RUNS}, warm)")


def _example(kind: str) -> str:
    return {"ability": "Attaque d’opportunité", "state": "Blessé", "characteristic": "CBT", "action": "Charge",
            "text": "annule", "folded": "annule"}[kind]


if __name__ == "__main__":
    main()
