"""Benchmarks quoted in the issue notes; run with `make bench`.

Cold build: wall time of a fresh `rulegraph build` process on the seeds, as a ratio to a bare
`python -c "import rdflib, networkx"` on the same machine (so the figure travels between
machines). Then the in-process benchmarks of the other scripts in this folder.
"""

from __future__ import annotations

import runpy
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = 5


def wall_time(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - start


def median_wall_time(command: list[str]) -> float:
    wall_time(command)
    return statistics.median(wall_time(command) for _ in range(RUNS))


def main() -> None:
    python = sys.executable
    baseline = median_wall_time([python, "-c", "import rdflib, networkx"])
    bare_import = median_wall_time([python, "-c", "import rulegraph"])
    with tempfile.TemporaryDirectory() as out:
        build = median_wall_time([python, "-m", "rulegraph", "build", "--out", out])
    print(f"python -c 'import rdflib, networkx': {baseline:.3f} s (median of {RUNS})")
    print(f"python -c 'import rulegraph':         {bare_import:.3f} s")
    print(f"rulegraph build (cold process):      {build:.3f} s  = {build / baseline:.1f}x the import baseline")
    for script in sorted(Path(__file__).parent.glob("bench_*.py")):
        print(f"\n== {script.name}")
        sys.stdout.flush()
        runpy.run_path(str(script), run_name="__main__")


if __name__ == "__main__":
    main()
