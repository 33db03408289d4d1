"""Train the relation typer on every annotated glossary and write the model shipped in the
package (``make train``). Same data, same bytes: the solver is deterministic and the seed fixed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rulegraph.evaluation import default_sets
from rulegraph.extract.analysis import Analyser
from rulegraph.extract.training import load_gold_set, train
from rulegraph.extract.typer import MODEL_RESOURCE

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "src" / "rulegraph" / "resources" / MODEL_RESOURCE


def main() -> int:
    analyser = Analyser(progress=lambda done, total: print(f"  parsed {done}/{total} sentences", file=sys.stderr))
    sets = [load_gold_set(name, gold, manifest, analyser) for name, (gold, manifest) in default_sets(ROOT).items()]
    print(f"training on {len(sets)} sets, {sum(len(s.examples) for s in sets)} examples", file=sys.stderr)
    model, _ = train(sets, analyser)
    TARGET.write_text(model.to_json(), encoding="utf-8")
    print(f"wrote {TARGET} ({len(model.weights)} features, {len(model.classes)} classes, threshold {model.threshold:.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
