"""Exports: JSON-LD, GraphML, CSV and Turtle read back with the same content; focused exports
keep only a neighbourhood; ``rulegraph export`` writes under out/ atomically."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import networkx as nx
import pytest
from rdflib import RDF, RDFS, Graph, Literal, URIRef

from rulegraph.cli import main
from rulegraph.errors import RulegraphError
from rulegraph.exports import CSV_COLUMNS, FORMATS, default_path, export, focus_graph, to_csv, to_graphml, to_jsonld, to_turtle
from rulegraph.namespaces import RG
from rulegraph.views.atlas import neighbourhood
from rulegraph.views.networkx_view import to_networkx

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ROOT / "data" / "corpus.toml"


@pytest.fixture(scope="module")
def seed_view(seed_graph):
    return to_networkx(seed_graph)


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_csv_has_one_row_per_edge_with_the_documented_columns(seed_graph, seed_view):
    table = rows(to_csv(seed_graph))
    assert tuple(table[0]) == CSV_COLUMNS
    assert len(table) == seed_view.number_of_edges()


def test_csv_row_keeps_the_evidence_of_an_edge(seed_graph):
    [row] = [r for r in rows(to_csv(seed_graph)) if r["subject"] == "Fouisseur" and r["relation"] == "cancels"]
    assert row["object"] == "Attaque d’opportunité"
    assert row["game"] == "Hell Dorado"
    assert row["source"] == "000_10d76c9141a2b7c0.txt" and row["line"] == "103"
    assert row["sentence"].startswith("Cette capacité annule l")
    assert row["condition"] and row["method"]


def test_csv_edition_column_is_filled_for_the_compendium(seed_graph):
    editions = {r["edition"] for r in rows(to_csv(seed_graph)) if r["game"] == "Confrontation"}
    assert editions - {""}


def test_graphml_reads_back_with_scalar_attributes(seed_graph, seed_view):
    back = nx.read_graphml(io.BytesIO(to_graphml(seed_graph).encode("utf-8")), force_multigraph=True)
    assert back.number_of_nodes() == seed_view.number_of_nodes()
    assert back.number_of_edges() == seed_view.number_of_edges()
    node = next(iter(back.nodes(data=True)))[1]
    assert {"label", "kind", "game", "text", "notes", "uri"} <= set(node)
    edge = next(iter(back.edges(data=True)))[2]
    assert {"relation", "sentence", "source", "line", "condition", "method", "edition"} <= set(edge)
    assert isinstance(edge["line"], int)


def test_graphml_drops_characters_xml_cannot_hold():
    graph = Graph()
    node = URIRef("https://w3id.org/rulegraph/data/x/ability/a")
    graph.add((node, RDF.type, RG.CharacterAbility))
    graph.add((node, RDFS.label, Literal("A\x0bB")))
    graph.add((node, RG.text, Literal("texte\x01 <b>")))
    back = nx.read_graphml(io.BytesIO(to_graphml(graph).encode("utf-8")))
    assert back.nodes[str(node)]["label"] == "AB"
    assert back.nodes[str(node)]["text"] == "texte <b>"


@pytest.mark.filterwarnings("ignore:ConjunctiveGraph is deprecated:DeprecationWarning")
def test_jsonld_and_turtle_hold_the_same_triples(seed_graph):
    for text, fmt in ((to_jsonld(seed_graph), "json-ld"), (to_turtle(seed_graph), "turtle")):
        back = Graph().parse(data=text, format=fmt)
        assert len(back) == len(seed_graph), fmt


def test_jsonld_uses_the_rg_prefix(seed_graph):
    assert '"rg": "https://w3id.org/rulegraph#"' in to_jsonld(seed_graph)


def test_focus_graph_keeps_the_neighbourhood_with_its_evidence(seed_graph, seed_view):
    focused = focus_graph(seed_graph, "interception", 1)
    kept = set(neighbourhood(seed_view, "Interception", 1))
    terms = {str(s) for s in focused.subjects(RG.game, None)} & set(seed_view)
    assert terms == kept
    for statement in focused.subjects(RDF.type, RG.Statement):
        assert str(focused.value(statement, RDF.subject)) in kept and str(focused.value(statement, RDF.object)) in kept
        assert focused.value(statement, RG.sentence) is not None
    assert len(to_networkx(focused).edges) == neighbourhood(seed_view, "Interception", 1).number_of_edges()


def test_focus_graph_answers_the_readme_query(seed_graph):
    focused = focus_graph(seed_graph, "Interception", 1)
    answer = list(focused.query("""
        PREFIX rg: <https://w3id.org/rulegraph#>
        PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
        SELECT ?game ?source ?line WHERE {
          ?ability a/rdfs:subClassOf* rg:Ability ; rdfs:label ?label ; rg:game/rdfs:label ?game ;
                   rg:source/rg:path ?source ; rg:line ?line .
          FILTER(STR(?label) = "Fouisseur")
        }"""))
    assert [(str(g), str(s)) for g, s, _ in answer] == [("Hell Dorado", "000_10d76c9141a2b7c0.txt")]


def test_focus_graph_keeps_the_sentences_its_statements_cite(seed_graph):
    """evidence-word runs on a focused export as on the whole graph, over its own edges."""
    from rulegraph import queries

    focused = focus_graph(seed_graph, "Interception", 1)
    cited = set(focused.objects(None, RG.evidence))
    assert cited and cited <= set(focused.subjects(RG.sentenceKey, None))
    word = queries.load("evidence-word")
    rows = queries.run(focused, word, {"word": "opportunite"}).rows
    whole = queries.run(seed_graph, word, {"word": "opportunite"}).rows
    assert rows and all(row in whole for row in rows)


def test_focused_csv_only_has_neighbourhood_edges(seed_graph, seed_view):
    table = rows(export(seed_graph, "csv", focus="Interception", depth=1))
    assert len(table) == neighbourhood(seed_view, "Interception", 1).number_of_edges()
    assert any(r["subject"] == "Interception" for r in table)


def test_unknown_format_is_refused(seed_graph):
    with pytest.raises(RulegraphError, match="graphml"):
        export(seed_graph, "pdf")


def test_default_paths_are_under_out():
    assert default_path("csv") == Path("out/edges.csv")
    assert default_path("html", focus="Attaque d’opportunité", depth=2) == Path("out/graph-attaque-d-opportunite-2.html")
    assert {default_path(f).parent for f in FORMATS} == {Path("out")}


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_export_command_writes_the_default_path(fmt, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["export", fmt, "--manifest", str(MANIFEST)]) == 0
    path = tmp_path / default_path(fmt)
    assert path.stat().st_size > 1000
    assert str(default_path(fmt)) in capsys.readouterr().out
    assert not list(path.parent.glob(".*.tmp"))


def test_export_command_csv_starts_with_a_byte_order_mark(tmp_path):
    target = tmp_path / "edges.csv"
    assert main(["export", "csv", "--manifest", str(MANIFEST), "--out", str(target)]) == 0
    assert target.read_bytes().startswith(b"\xef\xbb\xbf")


def test_jsonld_is_the_same_bytes_in_every_process(built):
    """rdflib's JSON-LD serialiser orders subjects by hash, which changes with each process's
    hash seed; the export sorts them, so two runs give the same file."""
    import os
    import subprocess
    import sys

    code = ("import sys; from rulegraph.graph import load_graph; from rulegraph.exports import to_jsonld; "
            "sys.stdout.write(to_jsonld(load_graph(sys.argv[1])))")
    outputs = {subprocess.run([sys.executable, "-c", code, str(built)], capture_output=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(outputs) == 1 and b'"@graph"' in outputs.pop()
