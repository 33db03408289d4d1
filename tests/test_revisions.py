"""One glossary across revisions: what an edit of the Hell Dorado chapter did to the graph."""

from __future__ import annotations

import json

import pytest

from rulegraph.build import build
from rulegraph.cli import main
from rulegraph.editions import diff_graphs
from rulegraph.errors import RulegraphError
from rulegraph.graph import load_graph, serialize_turtle

from .conftest import DATA

GLOSSARY = DATA / "000_10d76c9141a2b7c0.txt"
#: A sentence of Insaisissable, and the sentence after it that carries "annule l'attaque d'opportunité".
REWORDED = "Il peut donc les traverser sans générer d’effet particulier."
CANCELLING = " Cette capacité annule l’attaque d’opportunité."


def _build(tmp_path, name, text):
    copy = tmp_path / name / GLOSSARY.name
    copy.parent.mkdir()
    copy.write_text(text, encoding="utf-8")
    return build(files=[copy], game="Hell Dorado", format="chapter").graph


@pytest.fixture(scope="module")
def original_text():
    text = GLOSSARY.read_text(encoding="utf-8")
    assert text.count(REWORDED + CANCELLING) == 1
    return text


@pytest.fixture(scope="module")
def original(tmp_path_factory, original_text):
    return _build(tmp_path_factory.mktemp("revisions"), "original", original_text)


def _is_empty(diff):
    return all(not items for items in diff.values())


def test_two_builds_of_the_same_text_differ_in_nothing(tmp_path, original, original_text):
    assert _is_empty(diff_graphs(original, _build(tmp_path, "same", original_text)))


def test_one_reworded_sentence_is_exactly_one_changed_ability(tmp_path, original, original_text):
    edited = _build(tmp_path, "edited", original_text.replace(REWORDED, "Il peut donc les traverser sans effet."))
    diff = diff_graphs(original, edited)
    assert [(c["ability"], c["fields"]) for c in diff["abilities_changed"]] == [("Insaisissable", ["text"])]
    changes = [c for c in diff["abilities_changed"][0]["text_diff"] if c["op"] != "equal"]
    assert [(c["old"], c["new"]) for c in changes] == [("générer d’effet particulier", "effet")]
    assert not diff["abilities_added"] and not diff["abilities_removed"]
    assert not diff["edges_added"] and not diff["edges_removed"]


def test_removing_a_cancelling_sentence_removes_its_edge(tmp_path, original, original_text):
    edited = _build(tmp_path, "edited", original_text.replace(REWORDED + CANCELLING, REWORDED))
    diff = diff_graphs(original, edited)
    assert [c["ability"] for c in diff["abilities_changed"]] == ["Insaisissable"]
    removed = {(e["subject"], e["relation"], e["object"]) for e in diff["edges_removed"]}
    assert ("Insaisissable", "cancels", "Attaque d’opportunité") in removed
    assert all(e["subject"] == "Insaisissable" for e in diff["edges_removed"])
    assert all(e["evidence"] and e["line"] for e in diff["edges_removed"])
    assert not diff["edges_added"]


def test_a_new_entry_is_an_added_ability(tmp_path, original, original_text):
    # Among the characters' abilities: the weapons' section, last in the file, makes weapon abilities.
    addition = "\n\n- Pas de loup :\nUn personnage qui possède cette capacité annule l’attaque d’opportunité."
    edited = original_text.replace("\n\nCapacités des armes", addition + "\n\nCapacités des armes", 1)
    assert edited != original_text
    diff = diff_graphs(original, _build(tmp_path, "added", edited))
    assert [a["ability"] for a in diff["abilities_added"]] == ["Pas de loup"]
    assert [(e["subject"], e["relation"]) for e in diff["edges_added"]] == [("Pas de loup", "cancels")]
    assert not diff["abilities_changed"] and not diff["abilities_removed"]


def test_a_graph_read_back_from_turtle_equals_the_built_one(tmp_path, seed_graph):
    path = tmp_path / "graph.ttl"
    path.write_text(serialize_turtle(seed_graph), encoding="utf-8")
    assert _is_empty(diff_graphs(seed_graph, load_graph(path)))


def test_invalid_turtle_names_the_file_and_line(tmp_path):
    path = tmp_path / "broken.ttl"
    path.write_text('@prefix rg: <https://w3id.org/rulegraph#> .\nrg:a rg:b rg:c .\nrg:a rg:b "open\n', encoding="utf-8")
    with pytest.raises(RulegraphError) as caught:
        load_graph(path)
    assert caught.value.path == str(path) and caught.value.line == 3


def test_a_missing_graph_file_is_bad_input(tmp_path):
    with pytest.raises(RulegraphError, match="file not found"):
        load_graph(tmp_path / "nowhere.ttl")


def test_cli_compares_two_turtle_builds(tmp_path, capsys, original, original_text):
    old, new = tmp_path / "old.ttl", tmp_path / "new.ttl"
    old.write_text(serialize_turtle(original), encoding="utf-8")
    edited = _build(tmp_path, "edited", original_text.replace(REWORDED + CANCELLING, REWORDED))
    new.write_text(serialize_turtle(edited), encoding="utf-8")
    assert main(["diff", "--graph", str(old), "--graph", str(new), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [c["ability"] for c in result["abilities_changed"]] == ["Insaisissable"]
    assert main(["diff", "--graph", str(old), "--graph", str(new)]) == 0
    out = capsys.readouterr().out
    assert "particulier. [-Cette capacité annule l’attaque d’opportunité.-]" in out
    assert "Insaisissable cancels Attaque d’opportunité" in out


def test_cli_bad_turtle_is_exit_2_with_file_and_line(tmp_path, capsys):
    bad = tmp_path / "bad.ttl"
    bad.write_text("this is not turtle\n", encoding="utf-8")
    assert main(["diff", "--graph", str(bad), "--graph", str(bad)]) == 2
    assert f"{bad}:1:" in capsys.readouterr().err
