"""The figures of issue 12 (a studio's whole catalogue), side by side in one run; `make bench-scale`.

    python scripts/bench_scale.py [--copies 100] [--work /tmp/rulegraph-scale] [--reuse]

1. the floor (`python -c "import rdflib, networkx"`) and a cold `rulegraph build` of the seeds;
2. the synthetic catalogue (scripts/synthetic_corpus.py: the Hell Dorado chapter copied N times,
   renamed, as one game) built by a fresh process: wall time and peak memory;
3. `rulegraph interactions … --graph` cold from the CLI on that graph (it opens the store);
4. warm, in-process: interactions and resolve on the seeds and at scale, every named query at scale;
5. `rulegraph serve`: a COUNT of abilities over /sparql against the local count;
6. `rulegraph publish` into an Oxigraph server (when the `oxigraph` command is installed);
7. the size of the atlas and of the reports, and how long headless Chromium takes to load the
   atlas and settle its first view (when `chromium` is installed).
--reuse keeps an earlier build in --work (the spaCy parse cache makes a second build faster);
--growth-from N (25 unless told) also builds N copies and prints the exponent k of build time ~ n^k.
The large builds are timed from a cache folder holding only the sentence parses and the word
list (every other cache cold, as after an upgrade), after a first build that fills the parses.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import runpy
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tests.servers: the SPARQL servers the publish tests start
PYTHON = sys.executable
RULEGRAPH = [PYTHON, "-m", "rulegraph"]
COUNT = ("PREFIX rg: <https://w3id.org/rulegraph#> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> "
         "SELECT (COUNT(DISTINCT ?a) AS ?n) WHERE { ?a a/rdfs:subClassOf* rg:Ability }")


def wall(command: list[str], cache: Path | None = None) -> float:
    """Seconds the command takes; ``cache``: the cache folder it uses instead of the user's."""
    environment = {**os.environ, "RULEGRAPH_CACHE": str(cache)} if cache is not None else None
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True, env=environment)
    return time.perf_counter() - start


def parses_only(work: Path) -> Path:
    """A new cache folder holding only the user's sentence parses and French word list."""
    from rulegraph.text import cache_folder

    folder = Path(tempfile.mkdtemp(dir=work, prefix="cache-"))
    for kept in [cache_folder() / "parses.sqlite", *cache_folder().glob("french-words-*.marshal")]:
        if kept.exists():
            shutil.copy2(kept, folder / kept.name)
    return folder


def median_wall(command: list[str], runs: int = 3) -> float:
    wall(command)
    return statistics.median(wall(command) for _ in range(runs))


def warm(call, runs: int = 5) -> float:
    call()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=100)
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "rulegraph-scale")
    parser.add_argument("--reuse", action="store_true", help="reuse the build already in --work")
    parser.add_argument("--growth-from", type=int, default=25, metavar="COPIES",
                        help="also build this many copies, and print the growth exponent k of build time ~ n^k (0: skip)")
    args = parser.parse_args()

    from rulegraph import queries
    from rulegraph.interactions import interactions
    from rulegraph.resolve import resolve
    from rulegraph.store import as_rdflib, open_store

    floor = median_wall([PYTHON, "-c", "import rdflib, networkx"])
    seeds_out = args.work / "seeds"
    seeds = median_wall([*RULEGRAPH, "build", "--out", str(seeds_out)])
    print(f"floor (import rdflib, networkx):   {floor:6.3f} s")
    print(f"cold build of the seeds:           {seeds:6.3f} s = {seeds / floor:.1f}x the floor (goal <= 3x)")
    derived = statistics.median(wall([*RULEGRAPH, "build", "--out", str(seeds_out)], cache=parses_only(args.work))
                                for _ in range(3))
    print(f"  the same, derived caches empty:  {derived:6.3f} s = {derived / floor:.1f}x the floor (parses kept; as after an upgrade)")

    generator = runpy.run_path(str(ROOT / "scripts" / "synthetic_corpus.py"))
    out = args.work / f"x{args.copies}" / "out"
    graph_path = out / "graph.ttl"
    if not (args.reuse and graph_path.exists()):
        manifest = generator["write_corpus"](args.work / f"x{args.copies}", args.copies)
        # A first build fills the user's cache with the sentences' parses (minutes the first time,
        # spaCy's work); the timed builds then start from a cache folder holding only those
        # parses and the word list, as after a change of rulegraph: every derived cache is cold.
        wall([*RULEGRAPH, "build", "--manifest", str(manifest), "--out", str(out)])
        rebuilt = wall([*RULEGRAPH, "build", "--manifest", str(manifest), "--out", str(out)])
        cpu = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
        seconds = wall([*RULEGRAPH, "build", "--manifest", str(manifest), "--out", str(out)], cache=parses_only(args.work))
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        print(f"build of {args.copies}x as one game:       {seconds:6.1f} s, peak {usage.ru_maxrss / 1024:.0f} MB (goal <= 60 s, <= 1 GB)"
              f"; {usage.ru_utime - cpu:.1f} s of CPU (wall time counts other work on the machine)")
        print(f"  the same, every cache warm:      {rebuilt:6.1f} s (nothing changed since the last build)")
        if args.growth_from:
            small = args.work / f"x{args.growth_from}"
            small_manifest = generator["write_corpus"](small, args.growth_from)
            small_seconds = wall([*RULEGRAPH, "build", "--manifest", str(small_manifest), "--out", str(small / "out")],
                                 cache=parses_only(args.work))
            exponent = math.log(seconds / small_seconds) / math.log(args.copies / args.growth_from)
            print(f"build of {args.growth_from}x as one game:        {small_seconds:6.1f} s; growth n^{exponent:.2f} (goal n^1.1 or better)")
    a, b = "Fouisseur K7", "Attaque d'opportunité K7"
    cli = median_wall([*RULEGRAPH, "interactions", a, b, "--graph", str(graph_path)], runs=1)
    print(f"interactions --graph, cold CLI:    {cli:6.2f} s (goal <= 2 s)")

    seed_graph = as_rdflib(open_store(seeds_out / "graph.ttl"))
    start = time.perf_counter()
    scale_graph = as_rdflib(open_store(graph_path))
    print(f"open the {args.copies}x store:              {(time.perf_counter() - start) * 1000:6.1f} ms")
    cases = {
        "seeds interactions": lambda: interactions(seed_graph, "Fouisseur", "Attaque d'opportunité"),
        "seeds resolve": lambda: resolve(seed_graph, ["Frappe rapide", "Riposte rapide"]),
        f"{args.copies}x interactions": lambda: interactions(scale_graph, a, b),
        f"{args.copies}x resolve": lambda: resolve(scale_graph, ["Fouisseur K7", "Attaque d'opportunité K7, Interception K7"]),
    }
    parameters = {"cancelled-by": {"ability": "Fouisseur K7"}, "grants": {"ability": "Illuminé K7"},
                  "reads-state": {"state": "Blessé"}, "modifies-during": {"characteristic": "CBT", "action": "Charge"},
                  "evidence-word": {"word": "annule"}}
    for query in queries.available():
        cases[f"{args.copies}x query {query.name}"] = (
            lambda q=query: queries.run(scale_graph, q, parameters.get(q.name, {})))
    for label, call in cases.items():
        first = time.perf_counter()
        call()
        first = time.perf_counter() - first
        print(f"warm {label:<28} {warm(call) * 1000:8.1f} ms (first call {first * 1000:.0f} ms)")

    print(f"serve: COUNT of abilities over /sparql = {served_count(seeds_out)}, "
          f"local = {queries.run(seed_graph, queries.adhoc(COUNT)).rows[0]['n']}")
    from tests.servers import oxigraph_server, virtuoso_server

    print(f"publish into an Oxigraph server: {published_count(graph_path, oxigraph_server)}")
    print(f"publish into Virtuoso:           {published_count(graph_path, virtuoso_server)}")
    for name in ("graph.ttl", "graph.html", "report.html", "report.md"):
        print(f"{args.copies}x {name}: {(out / name).stat().st_size / 1e6:.1f} MB")
    print(f"{args.copies}x atlas in headless Chromium: {atlas_first_view(out / 'graph.html')}")


def atlas_first_view(page: Path) -> str:
    """Seconds from starting headless Chromium to the DOM of a page whose layout has settled,
    with what the page's status says (the overview's size, the time its layout took)."""
    import html
    import re

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        return "chromium is not installed"
    with tempfile.TemporaryDirectory() as profile:
        start = time.perf_counter()
        done = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                               "--virtual-time-budget=3000", "--dump-dom", page.resolve().as_uri()],
                              capture_output=True, text=True, timeout=600)
        seconds = time.perf_counter() - start
    tag = re.search(r'<div id="status"[^>]*>', done.stdout)
    status = dict(re.findall(r'data-([\w-]+)="([^"]*)"', html.unescape(tag.group()))) if tag else {}
    return (f"{seconds:.1f} s, layout settled: {status.get('stabilised') == '1'} in {status.get('stabilisation-ms')} ms, "
            f"nodes drawn {status.get('nodes-visible')} (overview of {status.get('overview', 'no overview')} abilities)")


def served_count(out: Path) -> str:
    from rulegraph.server import SparqlApp
    from tests.servers import wsgi_server

    with wsgi_server(SparqlApp(out / "graph.oxigraph", out=out)) as base:
        url = f"{base}/sparql?" + urllib.parse.urlencode({"query": COUNT})
        request = urllib.request.Request(url, headers={"Accept": "text/csv"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.read().decode().splitlines()[1]


def published_count(graph_path: Path, server) -> str:
    """Seconds to publish the graph into a server started here, then its COUNT of abilities."""
    from rulegraph import queries
    from rulegraph.remote import Endpoint, publish, run
    from tests.servers import ServerMissing

    try:
        with tempfile.TemporaryDirectory() as location, server(Path(location)) as found:
            start = time.perf_counter()
            publish(Endpoint(found["store"], user=found["user"], password=found.get("password")),
                    graph_path.read_bytes(), "urn:rulegraph:bench")
            seconds = time.perf_counter() - start
            rows = run(Endpoint(found["query"], graph_iri="urn:rulegraph:bench"), queries.adhoc(COUNT)).rows
            return f"{seconds:.1f} s, then COUNT of abilities on the server = {rows[0]['n']}"
    except ServerMissing as missing:
        return f"skipped: {missing}"


if __name__ == "__main__":
    main()
