"""The build command end to end: counts on the seeds, SPARQL access, determinism, bad input."""

from __future__ import annotations

import shutil

import pytest
from rdflib import RDF

from rulegraph.cli import main
from rulegraph.namespaces import RG

from .conftest import DATA

README_QUERY = """
PREFIX rg: <https://w3id.org/rulegraph#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
SELECT ?label ?game ?source ?line WHERE {
  ?ability a/rdfs:subClassOf* rg:Ability ; rdfs:label ?label ; rg:game/rdfs:label ?game ;
           rg:source/rg:path ?source ; rg:line ?line .
  FILTER(STR(?label) = "Fouisseur")
}
"""


def _count(graph, cls, game):
    return sum(1 for n in graph.subjects(RDF.type, cls) if str(graph.value(n, RG.game)).endswith("/" + game))


def test_seed_graph_counts(seed_graph):
    assert _count(seed_graph, RG.CharacterAbility, "hell-dorado") == 78
    assert _count(seed_graph, RG.WeaponAbility, "hell-dorado") == 9
    assert _count(seed_graph, RG.CharacterAbility, "epic") == 14
    assert len(list(seed_graph.subjects(RDF.type, RG.DesignerNote))) == 4


def test_epic_rows_each_appear_twice(seed_corpus):
    assert {e.occurrences for e in seed_corpus.entries("epic")} == {2}


def test_toxique_editions_in_graph(seed_graph):
    rows = list(seed_graph.query("""
        PREFIX rg: <https://w3id.org/rulegraph#>
        PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
        SELECT ?edition ?present WHERE {
          ?a rdfs:label "Toxique"@fr ; rg:hasEditionText ?t . ?t rg:edition/rdfs:label ?edition ; rg:present ?present }"""))
    present = sorted(str(e) for e, p in rows if p.toPython())
    assert present == ["Confrontation 3", "Confédé", "Rooted"]
    assert len(rows) == 9


def test_readme_sparql_example_runs_as_shown(seed_graph):
    rows = [tuple(map(str, row)) for row in seed_graph.query(README_QUERY)]
    assert rows == [("Fouisseur", "Hell Dorado", "000_10d76c9141a2b7c0.txt", "102")]


def test_names_are_scoped_by_game(seed_graph):
    terreurs = list(seed_graph.query("""
        PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
        SELECT ?t WHERE { ?t rdfs:label "Terreur"@fr }"""))
    assert len(terreurs) == 2


def test_build_writes_deterministic_turtle_and_offline_html(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("RULEGRAPH_CACHE", str(tmp_path / "cache-a"))
    assert main(["build", "--manifest", str(DATA / "corpus.toml"), "--out", str(tmp_path / "a")]) == 0
    monkeypatch.setenv("RULEGRAPH_CACHE", str(tmp_path / "cache-b"))
    assert main(["build", "--manifest", str(DATA / "corpus.toml"), "--out", str(tmp_path / "b"), "--progress"]) == 0
    first = (tmp_path / "a" / "graph.ttl").read_bytes()
    assert first == (tmp_path / "b" / "graph.ttl").read_bytes()
    page = (tmp_path / "a" / "graph.html").read_text(encoding="utf-8")
    assert 'src="http' not in page and 'href="http' not in page
    captured = capsys.readouterr()
    assert "Hell Dorado: 87 abilities (character abilities 78, weapon abilities 9), 4 designer notes" in captured.out
    # --progress: one plain line per step on stderr when it is not a terminal, each check named.
    steps = captured.err.splitlines()
    assert any(line.endswith("loading the store…") for line in steps) and "\033" not in captured.err
    assert any("check RG013 shacl" in line for line in steps)
    # The same content built again: its atlas and report are read back, the checks not run.
    assert main(["build", "--manifest", str(DATA / "corpus.toml"), "--out", str(tmp_path / "c"), "--progress"]) == 0
    again = capsys.readouterr().err.splitlines()
    assert any(line.endswith("reading back the atlas and the report of this content…") for line in again)
    assert not any("check RG" in line for line in again)
    for name in ("graph.html", "report.html", "report.md"):
        assert (tmp_path / "c" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def _copy_corpus(tmp_path):
    target = tmp_path / "data"
    shutil.copytree(DATA, target)
    return target


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (lambda t: t.replace('format = "csv"', 'format = "excel"'), "corpus.toml:36: unknown format 'excel'"),
        (lambda t: t.replace('game = "epic"', 'game = "epik"'), "corpus.toml:35: game 'epik' is not declared"),
        (lambda t: t.replace("[[source]]\npath = \"000", "[[source]\npath = \"000"), "corpus.toml:24: invalid TOML"),
        (lambda t: t.replace('path = "000_10d76c9141a2b7c0.txt"', 'path = "missing.txt"'), "missing.txt: file not found"),
        (lambda t: t.replace('delimiter = ";"', 'delimiter = ";;"'), "corpus.toml:38: delimiter must be one character in quotes"),
        (lambda t: t.replace('path = "000_10d76c9141a2b7c0.txt"', "path = 5"), "corpus.toml:25: path must be a quoted text"),
        (lambda t: t.replace('lineage = [', 'lineage = "Confrontation 1"\nold_lineage = ['), "corpus.toml:19: lineage must be a list of quoted texts"),
        (lambda t: t.replace('default_category = "character"', 'default_category = "weapn"'), "corpus.toml:41: default_category must be one of"),
        (lambda t: t.replace('id = "epic"', 'id = "hell-dorado"'), "corpus.toml:10: game id 'hell-dorado' is declared twice"),
    ],
)
def test_bad_manifest_is_one_clear_line_exit_2_and_out_untouched(tmp_path, capsys, edit, expected):
    data = _copy_corpus(tmp_path)
    manifest = data / "corpus.toml"
    manifest.write_text(edit(manifest.read_text(encoding="utf-8")), encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    (out / "graph.ttl").write_text("previous build", encoding="utf-8")
    assert main(["build", "--manifest", str(manifest), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and expected in err
    assert (out / "graph.ttl").read_text(encoding="utf-8") == "previous build"
    assert sorted(p.name for p in out.iterdir()) == ["graph.ttl"]


def test_build_from_files_without_manifest(tmp_path, capsys):
    assert main(["build", str(DATA / "001_a17175775154b8fb.txt"), "--game", "Epic", "--out", str(tmp_path)]) == 0
    assert "Epic: 14 abilities" in capsys.readouterr().out


def test_files_without_game_is_a_clear_error(tmp_path, capsys):
    assert main(["build", str(DATA / "001_a17175775154b8fb.txt"), "--out", str(tmp_path)]) == 2
    assert "--game" in capsys.readouterr().err


def test_python_dash_m_entry_point():
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "rulegraph", "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "build" in result.stdout


def test_two_build_processes_with_different_hash_seeds_write_identical_files(tmp_path):
    import os
    import subprocess
    import sys

    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run([sys.executable, "-m", "rulegraph", "build", "--out", str(tmp_path / seed)],
                       cwd=DATA.parent, env=env, check=True, capture_output=True)
    for name in ("graph.ttl", "graph.html", "report.md", "report.html"):
        assert (tmp_path / "1" / name).read_bytes() == (tmp_path / "2" / name).read_bytes(), name


def test_an_unusable_output_folder_is_a_clear_error(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    assert main(["build", "--out", str(blocker / "out")]) == 2
    assert "cannot write here" in capsys.readouterr().err
    assert blocker.read_text(encoding="utf-8") == "not a folder"


def test_check_on_an_unknown_game_is_bad_input(capsys):
    assert main(["check", "--game", "Warhammer"]) == 2
    assert "unknown game 'Warhammer'" in capsys.readouterr().err


def test_the_cli_parser_loads_no_heavy_library():
    import subprocess
    import sys

    code = ("import sys, rulegraph.cli; rulegraph.cli.make_parser(); "
            "print(sorted(m for m in ('rdflib', 'networkx', 'pyvis', 'pyshacl', 'ipywidgets') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_the_summary_says_when_a_game_has_no_lexicon_file(tmp_path, capsys):
    glossary = tmp_path / "g.md"
    glossary.write_text("## Capacités\n\n### Garde\n\nElle protège.\n", encoding="utf-8")
    assert main(["build", str(glossary), "--game", "Jeu", "--out", str(tmp_path / "out")]) == 0
    assert "no lexicon file" in capsys.readouterr().out


def test_outside_the_project_the_missing_manifest_says_how_to_name_one(tmp_path):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "rulegraph", "build"], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 2
    assert "data/corpus.toml" in done.stderr and "--manifest PATH" in done.stderr and "Traceback" not in done.stderr
