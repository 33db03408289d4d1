"""Evaluation against the hand-written gold: the scoring rules on tiny cases, and the extractor's
scores on the seeds (the thresholds the issue asks for)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rulegraph.cli import main
from rulegraph.errors import RulegraphError
from rulegraph.evaluation import Edge, default_sets, evaluate, evaluate_manifest, format_evaluation, load_gold

from .conftest import ROOT


def edge(subject, relation, obj, game="g"):
    return Edge(game, subject, relation, obj, 1, "phrase")


def test_links_are_unordered_pairs_compared_through_fold():
    result = evaluate("t", [edge("Frappe rapide", "mutuallyCancels", "Riposte rapide")],
                      [edge("riposte RAPIDE", "mutuallyCancels", "Frappe rapide")])
    assert (result.overall.precision, result.overall.recall, result.overall.typed_accuracy) == (1.0, 1.0, 1.0)


def test_direction_counts_for_non_symmetric_relations():
    result = evaluate("t", [edge("A", "immuneTo", "B")], [edge("B", "immuneTo", "A")])
    assert result.overall.recall == 1.0 and result.overall.typed_accuracy == 0.0
    assert len(result.mistyped) == 1


def test_a_typed_edge_outweighs_a_references_edge_for_the_same_pair():
    result = evaluate("t", [edge("A", "grants", "B")], [edge("A", "references", "B"), edge("A", "grants", "B")])
    assert result.overall.typed_accuracy == 1.0


def test_misses_and_false_alarms_are_listed_by_game_and_relation():
    gold = [edge("A", "grants", "B"), edge("A", "cancels", "C", game="h")]
    found = [edge("A", "grants", "B"), edge("A", "references", "D")]
    result = evaluate("t", gold, found)
    assert [(e.subject, e.object) for e in result.misses] == [("A", "C")]
    assert [(e.subject, e.object) for e in result.false_alarms] == [("A", "D")]
    assert result.overall.precision == 0.5 and result.overall.recall == 0.5
    assert result.by_game["h"].recall == 0.0 and result.by_relation["grants"].recall == 1.0
    report = format_evaluation(result)
    assert "misses (1)" in report and "false alarms (1)" in report


def test_per_relation_rows_keep_the_gold_side_and_the_found_side_apart():
    """A gold grant found as a mere reference: the grants row says it was found but mistyped,
    the references row says a found reference is a true link but not the gold's type."""
    result = evaluate("t", [edge("A", "grants", "B"), edge("A", "cancels", "C")],
                      [edge("A", "references", "B"), edge("A", "cancels", "C"), edge("A", "cancels", "D")])
    grants, references, cancels = (result.by_relation[r] for r in ("grants", "references", "cancels"))
    assert (grants.gold, grants.recalled, grants.typed, grants.found) == (1, 1, 0, 0)
    assert (grants.recall, grants.typed_accuracy) == (1.0, 0.0)
    assert (references.gold, references.found, references.in_gold, references.typed_right) == (0, 1, 1, 0)
    assert (references.precision, references.typed_precision) == (1.0, 0.0)
    assert (cancels.gold, cancels.found, cancels.in_gold, cancels.typed_right) == (1, 2, 1, 1)
    assert cancels.precision == 0.5 and cancels.typed_accuracy == 1.0
    report = format_evaluation(result)
    assert "gold links of this relation" in report and "found links typed with this relation" in report


def test_help_exits_zero():
    completed = subprocess.run([sys.executable, "-m", "rulegraph", "evaluate", "--help"], capture_output=True, text=True)
    assert completed.returncode == 0 and "GOLD" in completed.stdout.upper()


def test_one_path_without_the_other_is_refused(capsys):
    assert main(["evaluate", "gold.tsv"]) == 2
    assert "both" in capsys.readouterr().err


def test_gold_rows_are_checked_with_their_line(tmp_path):
    gold = tmp_path / "gold.tsv"
    gold.write_text("game\tsubject\trelation\tobject\tline\tevidence\n# comment\ng\tA\tannule\tB\t3\tx\n", encoding="utf-8")
    with pytest.raises(RulegraphError) as caught:
        load_gold(gold)
    assert caught.value.line == 3


def test_seed_gold_is_well_formed():
    rows = load_gold(default_sets(ROOT)["seeds"][0])
    assert len(rows) >= 30 and {r.game for r in rows} == {"hell-dorado", "epic", "confrontation"}


def test_extraction_meets_the_thresholds_on_the_seed_gold():
    gold, manifest = default_sets(ROOT)["seeds"]
    result = evaluate_manifest("seeds", gold, manifest)
    assert result.overall.precision >= 0.95
    assert result.overall.recall >= 0.95
    assert result.overall.typed_accuracy >= 0.9
    assert result.extraction_alone is None or result.extraction_alone.typed_accuracy >= 0.9


def test_invented_glossary_keeps_its_links():
    gold, manifest = default_sets(ROOT)["brumes"]
    result = evaluate_manifest("brumes", gold, manifest)
    assert result.overall.precision >= 0.9 and result.overall.recall >= 0.9


def test_make_eval_prints_every_set(capsys):
    assert main(["evaluate"]) == 0
    out = capsys.readouterr().out
    assert all(f"== {name} ==" in out for name in default_sets(ROOT))
    assert "precision" in out and "typed" in out


def test_the_shipped_sets_are_found_under_the_root_given_not_next_to_the_package(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["evaluate"]) == 2
    assert "data/corpus.toml: file not found" in capsys.readouterr().err
    assert default_sets(ROOT)["seeds"] == (ROOT / "tests" / "gold" / "seeds.tsv", ROOT / "data" / "corpus.toml")
    assert all(gold.is_file() and manifest.is_file() for gold, manifest in default_sets(ROOT).values())


def test_the_second_annotations_name_shipped_sets_and_load():
    """tests/gold/second-annotator holds a second blind annotation of some shipped sets (scripts/agreement.py):
    each file is a well-formed gold file of a set that exists, about the same game."""
    from rulegraph.evaluation import GOLD_SETS, load_gold, pair_labels

    second = ROOT / "tests" / "gold" / "second-annotator"
    files = sorted(second.glob("*.tsv"))
    assert len(files) >= 6
    for path in files:
        assert path.stem in GOLD_SETS
        edges = load_gold(path)
        assert {edge.game for edge in edges} == {path.stem}
        first = pair_labels(load_gold(ROOT / "tests" / "gold" / path.name))
        assert len(first.keys() & pair_labels(edges).keys()) >= len(first) // 2
