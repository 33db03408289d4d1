"""The hostile inputs and faults of issue 13, each run through the CLI as a user would: every one
ends in a result (exit 0) or in one line ``file:line: what to change`` (exit 2), with no traceback,
no network access and in bounded time."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

import pytest

from rulegraph.cli import main

from .conftest import DATA

TIMES: dict[str, float] = {}


@dataclass(frozen=True)
class Case:
    name: str
    argv: tuple[str, ...]
    code: int
    says: str = ""


@pytest.fixture(scope="module")
def place(tmp_path_factory):
    """A folder with the seed graph, a small glossary with awkward names, and hostile files."""
    root = tmp_path_factory.mktemp("hostile")
    assert main(["build", "--manifest", str(DATA / "corpus.toml"), "--out", str(root / "out")]) == 0
    turtle = (root / "out" / "graph.ttl").read_text(encoding="utf-8")
    (root / "line-abc.ttl").write_text(turtle.replace("rg:line 5 ;", 'rg:line "abc" ;'), encoding="utf-8")
    (root / "ill-typed.ttl").write_text(
        turtle.replace("rg:line 5 ;", 'rg:line "5x"^^<http://www.w3.org/2001/XMLSchema#integer> ;', 1), encoding="utf-8")
    (root / "broken.ttl").write_text(turtle[: len(turtle) // 2] + " <<< oops", encoding="utf-8")
    (root / "latin1.ttl").write_bytes("@prefix é".encode("latin-1"))
    (root / "latin1.rq").write_bytes(b"SELECT * WHERE { ?s ?p \"\xe9\" }")
    (root / "loop").symlink_to(root / "loop")
    os.mkfifo(root / "fifo")
    os.mkfifo(root / "fifo.rq")
    (root / "folder").mkdir()
    long_name = "Z" * 5000
    (root / "awkward.md").write_text(
        "### Accolades {x} [y]\n\nElle annule <script>alert(1)</script>.\n\n"
        "### <script>alert(1)</script>\n\nRien.\n\n### !!!\n\nRien non plus.\n\n"
        "### =HYPERLINK\n\nIl annule Accolades {x} [y].\n\n"
        f"### {long_name}\n\nIl annule !!!.\n", encoding="utf-8")
    (root / "feeds.md").write_text("### A\n\nun\x0cdeux\u2028trois\x85quatre\x1c.\n\n### :\n\ncinq.\n", encoding="utf-8")
    (root / "cr.md").write_text("### A\r\rtexte.\r\r### :\r\rcinq.\r", encoding="utf-8")
    (root / "heading.md").write_text("### a" + " " * 2500 + "b\n\nTexte.\n", encoding="utf-8")
    (root / "one-line.md").write_text("### Long\n\n" + "mot " * 250_000 + "\n", encoding="utf-8")
    (root / "header-only.csv").write_text("nom;texte\n", encoding="utf-8")
    (root / "huge-cell.csv").write_text("nom;texte\nA;" + "x" * 200_000 + "\n", encoding="utf-8")
    (root / "latin1.md").write_bytes("### A\n\nd\xe9j\xe0\n".encode("latin-1") + b"\x81\n")
    (root / "glossary.md").write_text("### Garde\n\nElle protège.\n", encoding="utf-8")
    (root / "sub").mkdir()
    (root / "sub" / "glossary.md").write_text("### Garde\n\nElle protège.\n", encoding="utf-8")
    (root / "sub" / "escape.md").symlink_to(root / "glossary.md")
    manifests = {
        "outside": '[[game]]\nname = "G"\n[[source]]\npath = "../glossary.md"\ngame = "g"\n',
        "absolute": '[[game]]\nname = "G"\n[[source]]\npath = "/etc/passwd"\ngame = "g"\nformat = "chapter"\n',
        "symlink-out": '[[game]]\nname = "G"\n[[source]]\npath = "escape.md"\ngame = "g"\n',
        "zero": '[[game]]\nname = "G"\n[[source]]\npath = "/dev/zero"\ngame = "g"\nformat = "markdown"\n',
        "fifo": '[[game]]\nname = "G"\n[[source]]\npath = "../fifo"\ngame = "g"\nformat = "markdown"\n',
        "loop": '[[game]]\nname = "G"\n[[source]]\npath = "../loop"\ngame = "g"\n',
        "no-lexicon": '[[game]]\nname = "G"\nlexicon = "none.toml"\n[[source]]\npath = "glossary.md"\ngame = "g"\n',
        "no-source": '[[game]]\nname = "G"\n\n[[source]]\npath = "missing.md"\ngame = "g"\n',
        "end-of-document": '[[game]]\nname = "G"\n[[source]]\npath = "glossary.md"\ngame = "g"\nx = [1,\n',
        "inline": 'game = [{name = "G"}]\nsource = [{path = "glossary.md", game = "g"}]\n',
        "fine": '[[game]]\nname = "G"\n[[source]]\npath = "glossary.md"\ngame = "g"\n',
    }
    for name, text in manifests.items():
        (root / "sub" / f"{name}.toml").write_text(text, encoding="utf-8")
    return root


R = "{root}"
GRAPH = ("--graph", f"{R}/out/graph.ttl")
PATH_STAR = ("PREFIX rg: <https://w3id.org/rulegraph#> SELECT (COUNT(*) AS ?n) WHERE { "
             "?a (rg:interactsWith|^rg:interactsWith|!rg:zz)* ?b . ?c (rg:interactsWith|^rg:interactsWith|!rg:zz)* ?d }")
CASES = [
    # SPARQL: nothing reaches out, every failure is one line
    Case("service-http", ("query", "SELECT * WHERE { SERVICE <http://127.0.0.1:18099/sparql> { ?s ?p ?o } }", *GRAPH), 2, "SERVICE <http://127.0.0.1:18099/sparql> would reach outside"),
    Case("service-file", ("query", "SELECT * WHERE { SERVICE <file:///etc/hostname> { ?s ?p ?o } }", *GRAPH), 2, "--allow-endpoint"),
    Case("service-variable", ("query", "SELECT * WHERE { ?s ?p ?o OPTIONAL { SERVICE ?x { ?a ?b ?c } } }", *GRAPH), 2, "SERVICE ?x"),
    Case("service-in-subquery", ("query", "SELECT * WHERE { { SELECT ?s WHERE { SERVICE <http://127.0.0.1:1/> { ?s ?p ?o } } } }", *GRAPH), 2, "SERVICE"),
    Case("service-not-allowed-endpoint", ("query", "SELECT * WHERE { SERVICE <http://127.0.0.1:1/a> { ?s ?p ?o } }", "--allow-endpoint", "http://127.0.0.1:1/b", *GRAPH), 2, "SERVICE"),
    Case("from-file", ("query", "SELECT * FROM <file:///etc/hostname> WHERE { ?s ?p ?o }", *GRAPH), 2, "FROM"),
    Case("from-named", ("query", "SELECT * FROM NAMED <http://127.0.0.1:1/g> WHERE { ?s ?p ?o }", *GRAPH), 2, "FROM"),
    Case("graph-variable", ("query", "SELECT ?g WHERE { GRAPH ?g { ?s ?p ?o } }", *GRAPH), 2, "GRAPH needs named graphs"),
    # On the store (built beside graph.ttl), SPARQL's own rule applies: an aggregate over IRIs is
    # an error value, so ?x is unbound; rdflib alone fails, and says SUM (see the no-store case).
    Case("sum-over-iris", ("query", "SELECT (SUM(?o) AS ?x) WHERE { ?s a ?o }", *GRAPH), 2, "SUM"),
    Case("rq-not-utf8", ("query", f"{R}/latin1.rq", *GRAPH), 2, "latin1.rq:1: is not UTF-8"),
    Case("rq-fifo", ("query", f"{R}/fifo.rq", *GRAPH), 2, "fifo.rq: is not a regular file"),
    Case("rq-missing", ("query", f"{R}/missing.rq", *GRAPH), 2, "missing.rq: file not found"),
    Case("update-delete", ("query", "DELETE WHERE { ?s ?p ?o }", *GRAPH), 2, ""),
    Case("update-load", ("query", "LOAD <http://127.0.0.1:1/x>", *GRAPH), 2, ""),
    Case("syntax-error", ("query", "SELECT * WHERE { ?s ?p }", *GRAPH), 2, "SPARQL syntax error"),
    Case("path-timeout", ("query", PATH_STAR, "--timeout", "0.2", *GRAPH), 2, "ran longer than 0.2 s"),
    Case("timeout-zero", ("query", "SELECT * WHERE { ?s ?p ?o }", "--timeout", "0", *GRAPH), 2, "--timeout"),
    Case("query-csv-formula", ("query", 'SELECT ("=1+1" AS ?x) WHERE {}', "--csv", *GRAPH), 0, "'=1+1"),
    Case("plain-query-still-works", ("query", "SELECT (COUNT(*) AS ?n) WHERE { ?s a ?o }", *GRAPH), 0),
    # sources and manifests
    Case("source-symlink-loop", ("build", f"{R}/loop", "--game", "G", "--out", f"{R}/o"), 2, "loop of symbolic links"),
    Case("manifest-symlink-loop", ("build", "--manifest", f"{R}/loop", "--out", f"{R}/o"), 2, "loop of symbolic links"),
    Case("source-fifo", ("build", f"{R}/fifo", "--game", "G", "--out", f"{R}/o"), 2, "not a regular file"),
    Case("manifest-fifo", ("build", "--manifest", f"{R}/fifo", "--out", f"{R}/o"), 2, "not a regular file"),
    Case("source-dev-zero", ("build", "/dev/zero", "--game", "G", "--format", "markdown", "--out", f"{R}/o"), 2, "not a regular file"),
    Case("manifest-dev-zero", ("build", "--manifest", f"{R}/sub/zero.toml", "--allow-outside", "--out", f"{R}/o"), 2, "zero.toml:4: /dev/zero: is not a regular file"),
    Case("manifest-fifo-source", ("build", "--manifest", f"{R}/sub/fifo.toml", "--allow-outside", "--out", f"{R}/o"), 2, "fifo.toml:4:"),
    Case("manifest-loop-source", ("build", "--manifest", f"{R}/sub/loop.toml", "--allow-outside", "--out", f"{R}/o"), 2, "loop.toml:4:"),
    Case("source-folder", ("build", f"{R}/folder", "--game", "G", "--out", f"{R}/o"), 2, "is a folder"),
    Case("source-over-max-size", ("build", f"{R}/glossary.md", "--game", "G", "--max-size", "0.00001", "--out", f"{R}/o"), 2, "--max-size"),
    Case("source-over-lowered-size", ("build", f"{R}/one-line.md", "--game", "G", "--max-size", "0.5", "--out", f"{R}/o"), 2, "larger than 0.5 MB"),
    Case("manifest-dotdot", ("build", "--manifest", f"{R}/sub/outside.toml", "--out", f"{R}/o"), 2, "outside.toml:4: path '../glossary.md' leads outside"),
    Case("manifest-dotdot-allowed", ("build", "--manifest", f"{R}/sub/outside.toml", "--allow-outside", "--out", f"{R}/o"), 0),
    Case("manifest-absolute", ("build", "--manifest", f"{R}/sub/absolute.toml", "--out", f"{R}/o"), 2, "leads outside"),
    Case("manifest-symlink-out", ("check", "--manifest", f"{R}/sub/symlink-out.toml"), 2, "leads outside"),
    Case("manifest-missing-lexicon", ("build", "--manifest", f"{R}/sub/no-lexicon.toml", "--out", f"{R}/o"), 2, "no-lexicon.toml:3: lexicon file 'none.toml'"),
    Case("manifest-missing-source", ("build", "--manifest", f"{R}/sub/no-source.toml", "--out", f"{R}/o"), 2, "no-source.toml:5:"),
    Case("manifest-end-of-document", ("build", "--manifest", f"{R}/sub/end-of-document.toml", "--out", f"{R}/o"), 2, "end-of-document.toml:6: invalid TOML"),
    Case("manifest-inline-tables", ("build", "--manifest", f"{R}/sub/inline.toml", "--out", f"{R}/o"), 0),
    Case("csv-header-only", ("build", f"{R}/header-only.csv", "--game", "G", "--out", f"{R}/o"), 2, "header-only.csv:2: the table has a header but no ability rows"),
    Case("csv-over-field-limit", ("build", f"{R}/huge-cell.csv", "--game", "G", "--out", f"{R}/o"), 2, "huge-cell.csv:2: malformed row: a cell is longer than"),
    Case("unknown-format", ("build", f"{R}/glossary.md", "--game", "G", "--format", "docz", "--out", f"{R}/o"), 2, "--format 'docz' is unknown"),
    Case("not-utf8", ("build", f"{R}/latin1.md", "--game", "G", "--out", f"{R}/o"), 2, "latin1.md:3: is neither UTF-8 nor Windows-1252"),
    Case("form-feeds-keep-lines", ("build", f"{R}/feeds.md", "--game", "G", "--out", f"{R}/o"), 2, "feeds.md:5: an entry has no name"),
    Case("carriage-returns-count-lines", ("build", f"{R}/cr.md", "--game", "G", "--out", f"{R}/o"), 2, "cr.md:5: an entry has no name"),
    # time
    Case("heading-with-long-spaces", ("build", f"{R}/heading.md", "--game", "G", "--out", f"{R}/o"), 0),
    Case("megabyte-line", ("build", f"{R}/one-line.md", "--game", "G", "--out", f"{R}/o"), 2, "one-line.md:3: a sentence of 999,999 characters"),
    # graphs given with --graph
    Case("graph-line-abc-interactions", ("interactions", "Fouisseur", "Attaque d'opportunité", "--graph", f"{R}/line-abc.ttl"), 2, "rg:line is 'abc', not a whole number"),
    Case("graph-line-abc-resolve", ("resolve", "--side", "Fouisseur", "--side", "Interception", "--graph", f"{R}/line-abc.ttl"), 2, "line-abc.ttl:"),
    Case("graph-line-abc-diff", ("diff", "--graph", f"{R}/line-abc.ttl", "--graph", f"{R}/out/graph.ttl"), 2, "not a whole number"),
    Case("graph-ill-typed", ("interactions", "Fouisseur", "Interception", "--graph", f"{R}/ill-typed.ttl"), 2, "rg:line is '5x'"),
    Case("graph-broken", ("query", "cancelled-by", "--param", "ability=Fouisseur", "--graph", f"{R}/broken.ttl"), 2, "invalid Turtle"),
    Case("graph-not-utf8", ("interactions", "A", "B", "--graph", f"{R}/latin1.ttl"), 2, "not UTF-8"),
    Case("graph-dev-zero", ("interactions", "A", "B", "--graph", "/dev/zero"), 2, "not a regular file"),
    Case("graph-fifo", ("interactions", "A", "B", "--graph", f"{R}/fifo"), 2, "not a regular file"),
    Case("graph-loop", ("interactions", "A", "B", "--graph", f"{R}/loop"), 2, "loop of symbolic links"),
    # names
    Case("lookup-brackets-and-markup", ("interactions", "Accolades {x} [y]", "<script>alert(1)</script>", "--graph", f"{R}/awk/graph.ttl"), 0, "Accolades {x} [y] ↔ <script>alert(1)</script>"),
    Case("lookup-only-punctuation", ("interactions", "!!!", "=HYPERLINK", "--graph", f"{R}/awk/graph.ttl"), 0, ""),
    Case("lookup-5000-characters", ("interactions", "Z" * 5000, "!!!", "--graph", f"{R}/awk/graph.ttl"), 0, ""),
    Case("unknown-5000-characters", ("interactions", "Y" * 5000, "!!!", "--graph", f"{R}/awk/graph.ttl"), 2, "unknown name"),
    Case("focus-5000-characters", ("export", "html", f"{R}/awkward.md", "--game", "W", "--focus", "Z" * 5000), 0, ""),
    Case("focus-ttl-5000-characters", ("export", "ttl", f"{R}/awkward.md", "--game", "W", "--focus", "Z" * 5000), 0, ""),
]


@pytest.fixture(scope="module")
def awkward_graph(place):
    assert main(["build", str(place / "awkward.md"), "--game", "W", "--out", str(place / "awk")]) == 0
    return place / "awk"


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_each_hostile_case_ends_in_a_result_or_one_line(case, place, awkward_graph, capsys, monkeypatch):
    monkeypatch.chdir(place)
    argv = [part.replace(R, str(place)) for part in case.argv]
    started = time.perf_counter()
    code = main(argv)
    TIMES[case.name] = time.perf_counter() - started
    captured = capsys.readouterr()
    assert code == case.code, captured.err
    assert "Traceback" not in captured.err and "Traceback" not in captured.out
    if case.code == 2:
        assert len(captured.err.strip().splitlines()) == 1, captured.err
    else:
        assert captured.err.strip() == "", captured.err
    assert case.says.replace(R, str(place)) in (captured.err if case.code == 2 else captured.out)


def test_a_focused_export_of_a_long_name_gets_a_short_file_name(place, awkward_graph, monkeypatch):
    monkeypatch.chdir(place)
    written = sorted(path.name for path in (place / "out").glob("graph-z*"))
    assert written and all(len(name) < 120 for name in written)


def test_report_md_shows_markup_as_text_and_csv_cells_cannot_run(place, tmp_path, monkeypatch):
    glossary = tmp_path / "g.md"
    glossary.write_text("### Garde\n\nElle annule =HYPERLINK et -Piège.\n\n### =HYPERLINK\n\nRien.\n\n"
                        "### -Piège\n\nRien.\n\n### Garde\n\nAutre texte.\n", encoding="utf-8")
    assert main(["build", str(glossary), "--game", "<img src=x onerror=alert(1)>", "--out", str(tmp_path / "out")]) == 0
    report = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    assert "<img" not in report and "&lt;img src=x onerror=alert(1)&gt;" in report
    assert main(["export", "csv", str(glossary), "--game", "Jeu", "--out", str(tmp_path / "edges.csv")]) == 0
    import csv

    with open(tmp_path / "edges.csv", encoding="utf-8-sig", newline="") as stream:
        cells = [cell for row in csv.reader(stream) for cell in row]
    assert "'=HYPERLINK" in cells and "'-Piège" in cells
    assert not any(cell.startswith(("=", "+", "-", "@")) for cell in cells)


def test_an_allowed_endpoint_is_the_only_service_let_through():
    from rdflib.plugins.sparql import prepareQuery

    from rulegraph.errors import RulegraphError
    from rulegraph.queries import adhoc, refuse_remote_access

    text = "SELECT * WHERE { SERVICE <http://127.0.0.1:1/a> { ?s ?p ?o } }"
    query = adhoc(text)
    refuse_remote_access(prepareQuery(text).algebra, query, ("http://127.0.0.1:1/a",))
    with pytest.raises(RulegraphError):
        refuse_remote_access(prepareQuery(text).algebra, query, ("http://127.0.0.1:1/b",))


def test_no_hostile_case_reaches_the_network(place, awkward_graph, capsys, monkeypatch):
    """Every SPARQL case again, with sockets that fail the test if anything connects."""
    import socket

    def refuse(*args, **kwargs):
        raise AssertionError(f"network access: {args}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.chdir(place)
    for case in CASES:
        if case.argv[0] == "query" and "timeout" not in case.name:
            assert main([part.replace(R, str(place)) for part in case.argv]) == case.code
    capsys.readouterr()


def test_zz_report_cases_and_the_worst_time(capsys):
    worst = max(TIMES, key=TIMES.get)
    with capsys.disabled():
        print(f"\n[test_hostile] cases: {len(TIMES)}; worst: {worst} {TIMES[worst]:.2f} s")
    assert len(TIMES) == len(CASES)
