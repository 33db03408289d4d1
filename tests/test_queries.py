"""Named SPARQL queries: each one on the tiny two-game fixture, safe parameter binding, errors
that point at the query's line, and the query command's outputs."""

from __future__ import annotations

import csv
import io
import json

import pytest

from rulegraph import queries
from rulegraph.cli import main
from rulegraph.errors import RulegraphError
from rulegraph.graph import add_search_keys, new_graph

from .conftest import DATA, FIXTURES

FIXTURE = FIXTURES / "queries" / "two_games.ttl"
#: The shipped queries this file tests; a new .rq file fails the suite until it has a test here.
TESTED_QUERIES = {
    "cancelled-by", "grants", "reads-state", "modifies-during", "undefined-names", "designer-notes",
    "evidence-word", "homonyms",
}


@pytest.fixture(scope="module")
def fixture_graph():
    return add_search_keys(new_graph().parse(FIXTURE, format="turtle"))


def run(graph, name, **params):
    return queries.run(graph, queries.load(name), params).rows


def test_cancelled_by_matches_a_straight_apostrophe_against_a_typographic_label(fixture_graph):
    rows = run(fixture_graph, "cancelled-by", ability="bouclier d'EPINES")
    assert [(r["by"], r["relation"], r["line"]) for r in rows] == [("Pas feutré", "cancels", 6)]
    assert rows[0]["condition"] == "s’il termine son déplacement au contact"


def test_cancelled_by_reads_mutually_cancels_both_ways(fixture_graph):
    assert [(r["by"], r["relation"]) for r in run(fixture_graph, "cancelled-by", ability="Tonnerre")] == [("Éclair", "mutuallyCancels")]
    assert [(r["by"], r["relation"]) for r in run(fixture_graph, "cancelled-by", ability="eclair")] == [("Tonnerre", "mutuallyCancels")]


def test_grants_follows_chains_of_grants(fixture_graph):
    rows = run(fixture_graph, "grants", ability="Ferveur")
    assert [(r["granted"], r["by"], r["line"]) for r in rows] == [("Transe", "Zèle", 14), ("Zèle", "Ferveur", 12)]
    assert rows[1]["condition"] == "Tant que la ferveur dure"


def test_reads_state_matches_a_plural(fixture_graph):
    assert [r["ability_name"] for r in run(fixture_graph, "reads-state", state="blessés")] == ["Rage"]


def test_modifies_during_puts_one_sentence_statements_first(fixture_graph):
    rows = run(fixture_graph, "modifies-during", characteristic="cbt", action="charge", game="Jeu A")
    assert [(r["ability_name"], r["same_sentence"], r["amount"]) for r in rows] == [("Rage", True, "+1"), ("Élan", False, "+2")]


def test_a_name_found_in_two_games_needs_the_game(fixture_graph):
    with pytest.raises(RulegraphError, match="Jeu A, Jeu B"):
        run(fixture_graph, "modifies-during", characteristic="CBT", action="Charge")


def test_undefined_names_lists_who_uses_them(fixture_graph):
    rows = run(fixture_graph, "undefined-names")
    assert [(r["name"], r["used_by"], r["relation"], r["line"]) for r in rows] == [("Vol plané", "Pas feutré", "references", 6)]
    assert run(fixture_graph, "undefined-names", game="jeu-b") == []


def test_designer_notes_with_the_sentence_they_question(fixture_graph):
    rows = run(fixture_graph, "designer-notes")
    assert [(r["ability_name"], r["note"], r["questions"], r["line"]) for r in rows] == [
        ("Rage", "à revoir ?", "Rage donne +1 CBT en charge.", 22)]


@pytest.mark.parametrize(("word", "lines"), [
    ('"}', [4]),
    ("ANNULE", [4, 6, 8, 14, 29, 31]),
    ("epines", [6]),
    ("d'épines", [6]),
])
def test_evidence_word_ignores_case_accents_and_apostrophes(fixture_graph, word, lines):
    assert [r["line"] for r in run(fixture_graph, "evidence-word", word=word)] == lines


def test_homonyms_fold_case_and_accents_across_games(fixture_graph):
    rows = run(fixture_graph, "homonyms")
    assert [(r["name"], r["game_name"], r["homonym"], r["other_game_name"]) for r in rows] == [
        ("REGENERATION", "Jeu B", "Régénération", "Jeu A"), ("Régénération", "Jeu A", "REGENERATION", "Jeu B")]
    assert [r["game_name"] for r in run(fixture_graph, "homonyms", game="jeu b")] == ["Jeu B"]


def test_every_shipped_query_has_a_description_and_a_test():
    shipped = queries.available()
    assert all(q.description for q in shipped)
    assert {q.name for q in shipped} == TESTED_QUERIES


def test_unknown_name_suggests_close_matches(fixture_graph):
    with pytest.raises(RulegraphError, match="did you mean.*Bouclier"):
        run(fixture_graph, "cancelled-by", ability="Bouclier de glace")


def test_unknown_parameter_and_missing_parameter_are_errors(fixture_graph):
    with pytest.raises(RulegraphError, match="no parameter colour"):
        queries.run(fixture_graph, queries.load("grants"), {"ability": "Ferveur", "colour": "red"})
    with pytest.raises(RulegraphError, match="needs --param ability"):
        queries.run(fixture_graph, queries.load("grants"), {})


def test_a_parameter_cannot_change_the_query(fixture_graph):
    text = """PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
SELECT ?x WHERE { ?x rdfs:label ?label FILTER(STR(?label) = ?name) }"""
    injected = 'Rage" ) } UNION { ?x ?p ?o } #'
    assert queries.run(fixture_graph, queries.adhoc(text), {"name": injected}).rows == []
    assert len(queries.run(fixture_graph, queries.adhoc(text), {"name": "Rage"}).rows) == 1


def test_syntax_error_names_the_file_and_line(fixture_graph, tmp_path):
    path = tmp_path / "broken.rq"
    path.write_text("# Broken on purpose.\nSELECT ?x WHERE {\n  ?x ?y .\n}\n", encoding="utf-8")
    with pytest.raises(RulegraphError) as error:
        queries.run(fixture_graph, queries.from_file(path))
    assert error.value.path == str(path) and error.value.line == 3


def test_unknown_query_name_suggests_the_close_one():
    with pytest.raises(RulegraphError, match="cancelled-by"):
        queries.load("canceled-by")


def test_seed_query_with_a_typographic_apostrophe(seed_graph):
    rows = queries.run(seed_graph, queries.load("cancelled-by"), {"ability": "Attaque d’opportunité"}).rows
    assert ("Fouisseur", "cancels") in {(r["by"], r["relation"]) for r in rows}


def test_seed_query_with_quote_and_brace_in_the_value(seed_graph):
    rows = queries.run(seed_graph, queries.load("evidence-word"), {"word": 'zone "}'}).rows
    assert rows == []


def test_cli_json_csv_and_table(capsys):
    args = ["query", "cancelled-by", "--param", "ability=Bouclier d’épines", "--graph", str(FIXTURE)]
    assert main([*args, "--json"]) == 0
    assert [r["by"] for r in json.loads(capsys.readouterr().out)] == ["Pas feutré"]
    assert main([*args, "--csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["by"], r["line"]) for r in rows] == [("Pas feutré", "6")]
    assert main(args) == 0
    assert "Pas feutré" in capsys.readouterr().out


def test_cli_runs_a_query_text_and_lists_names(capsys):
    text = 'PREFIX rg: <https://w3id.org/rulegraph#>\nSELECT ?path WHERE { ?s rg:path ?path } ORDER BY ?path'
    assert main(["query", text, "--graph", str(FIXTURE), "--json"]) == 0
    assert [r["path"] for r in json.loads(capsys.readouterr().out)] == ["a.txt", "b.txt"]
    assert main(["query", "--list"]) == 0
    listing = capsys.readouterr().out
    assert all(q.name in listing for q in queries.available())


def test_cli_bad_query_is_exit_2_with_the_line(capsys):
    assert main(["query", "SELECT ?x WHERE {\n ?x ?y\n}", "--graph", str(FIXTURE)]) == 2
    assert "<query>:2:" in capsys.readouterr().err


def test_cli_builds_the_seed_graph_from_the_manifest(capsys):
    args = ["query", "cancelled-by", "--param", "ability=Attaque d’opportunité", "--manifest", str(DATA / "corpus.toml"), "--json"]
    assert main(args) == 0
    assert "Fouisseur" in {r["by"] for r in json.loads(capsys.readouterr().out)}


def test_a_query_table_keeps_its_columns_aligned_and_says_when_it_cuts():
    from rulegraph.render.tables import CELL_WIDTH, format_table

    rows = [{"a": "x" * 200, "b": "court"}, {"a": "y", "b": "z"}]
    lines = format_table(rows).splitlines()
    assert len({line.index("court") if "court" in line else line.index("z") for line in lines[2:4]}) == 1
    assert lines[2].startswith("x" * (CELL_WIDTH - 1) + "…")
    assert "--csv" in lines[-1]


def test_undefined_names_say_who_uses_them_whichever_end_they_are(seed_graph):
    rows = run(seed_graph, "undefined-names", game="confrontation")
    used = {(str(r["name"]), str(r["used_by"])) for r in rows}
    assert ("Mort-vivant", "Toxique") in used and ("Énorme", "Toxique") in used
    assert all(r["evidence"] for r in rows)
