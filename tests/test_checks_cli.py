"""``rulegraph check``: report grouped by check, JSON findings, exit codes; ``rulegraph build``
writes out/report.html and out/report.md with an anchor per ability and escaped rule text."""

from __future__ import annotations

import json
from pathlib import Path

from rulegraph.cli import main
from rulegraph.render.report import anchor

CHECKS_DIR = Path(__file__).resolve().parent / "fixtures" / "checks"
KEYS = {"check", "code", "severity", "subject", "game", "message", "source", "line"}


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_json_findings_have_the_documented_keys_and_an_error_exits_1(capsys):
    code, out = run(capsys, "check", str(CHECKS_DIR / "faulty.md"), "--game", "Brumes", "--json")
    findings = json.loads(out)
    assert code == 1
    assert findings and all(set(f) == KEYS for f in findings)
    assert any(f["severity"] == "error" and f["check"] == "duplicate-definition" for f in findings)


def test_text_report_is_grouped_by_check(capsys):
    _, out = run(capsys, "check", str(CHECKS_DIR / "faulty.md"), "--game", "Brumes")
    headers = [line for line in out.splitlines() if line.startswith("RG")]
    assert headers[0].startswith("RG001 designer-note") and any("RG006 parameter-mismatch" in h for h in headers)
    assert "faulty.md:21: warning: [Brumes] Rage:" in out, "points at the line that uses X"


def test_clean_glossary_exits_0(capsys):
    code, out = run(capsys, "--lang", "fr", "check", str(CHECKS_DIR / "clean.md"), "--game", "Marées")
    assert code == 0 and "Aucune remarque" in out


def test_fail_on_lowers_the_threshold(capsys):
    manifest = str(CHECKS_DIR / "editions" / "corpus.toml")
    assert run(capsys, "check", "--manifest", manifest)[0] == 0
    assert run(capsys, "check", "--manifest", manifest, "--fail-on", "warning")[0] == 1


def test_check_option_keeps_only_the_named_checks(capsys):
    _, out = run(capsys, "check", str(CHECKS_DIR / "faulty.md"), "--game", "Brumes", "--json",
                 "--check", "RG004", "near-identical-text")
    assert {f["check"] for f in json.loads(out)} == {"identical-text", "near-identical-text"}


def test_unknown_check_is_bad_input(capsys):
    assert main(["check", str(CHECKS_DIR / "clean.md"), "--game", "Marées", "--check", "RG999"]) == 2
    assert "RG999" in capsys.readouterr().err


def test_game_option_filters_the_seed_report(capsys):
    _, out = run(capsys, "check", "--manifest", str(CHECKS_DIR.parents[2] / "data" / "corpus.toml"),
                 "--game", "epic", "--json")
    findings = json.loads(out)
    assert findings and {f["game"] for f in findings} == {"Epic"}


def test_build_writes_the_report_with_anchors_and_escaped_text(capsys, tmp_path):
    assert main(["build", str(CHECKS_DIR / "hostile.md"), "--game", "Piégé", "--out", str(tmp_path)]) == 0
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    markdown = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "<script>" not in page and "<img" not in page
    assert "&lt;script&gt;" in page
    assert f'id="{anchor("Piégé", "Leurre")}"' in page
    assert "designer-note" in markdown
