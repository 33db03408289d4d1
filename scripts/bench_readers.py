"""Each reader on the Hell Dorado chapter: the plain text, and the Word, OpenDocument and PDF
versions the tests build (tests/documents.py, which needs the `test` extra for reportlab).
Reading only (no extraction), in-process, the library imported once before timing; median of a
few runs, with the number of entries each gives."""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulegraph.readers import read  # noqa: E402
from tests.documents import HD, hell_dorado_docx, hell_dorado_odt, hell_dorado_pdf  # noqa: E402

RUNS = 3


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        files = {"chapter (.txt)": HD}
        for suffix, make in (("docx", hell_dorado_docx), ("odt", hell_dorado_odt), ("pdf", hell_dorado_pdf)):
            files[f"{suffix}"] = Path(folder) / f"capacites.{suffix}"
            files[suffix].write_bytes(make())
        for label, path in files.items():
            count = len(read(path, source=path.name, game="hd").entries)
            times = []
            for _ in range(RUNS):
                start = time.perf_counter()
                read(path, source=path.name, game="hd")
                times.append(time.perf_counter() - start)
            print(f"{label:15} {count} entries  {statistics.median(times):.3f} s (median of {RUNS})")


if __name__ == "__main__":
    main()
