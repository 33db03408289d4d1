"""One ability across editions: timeline, word diff, relations and parameters per edition, CLI."""

from __future__ import annotations

import json

import pytest

from rulegraph.build import build
from rulegraph.cli import main
from rulegraph.corpus import load_manifest
from rulegraph.editions import diff_editions, edition_history, timeline
from rulegraph.errors import RulegraphError
from rulegraph.graph import serialize_turtle
from rulegraph.text import fold
from rulegraph.worddiff import diff_html, diff_segments, word_diff

from .conftest import DATA, FIXTURES

EDITIONS_MANIFEST = FIXTURES / "editions" / "corpus.toml"


@pytest.fixture(scope="module")
def venin_graph():
    return build(EDITIONS_MANIFEST).graph


def _triples(relations):
    return {(fold(r["subject"]), r["relation"], fold(r["object"])) for r in relations}


def _removed_words(text_diff):
    return " ".join(c["old"] for c in text_diff if c["op"] in ("delete", "replace"))


def _inserted_words(text_diff):
    return " ".join(c["new"] for c in text_diff if c["op"] in ("insert", "replace"))


# ---------------------------------------------------------------- seeds: Toxique


def test_toxique_timeline_has_three_editions_with_a_text_and_six_without(seed_graph):
    rows = timeline(seed_graph, "Toxique")
    assert sum(row["present"] for row in rows) == 3
    assert sum(not row["present"] for row in rows) == 6


def test_timeline_follows_the_lineage_the_manifest_declares(seed_graph):
    games, _ = load_manifest(DATA / "corpus.toml")
    lineage = games["confrontation"].lineage
    assert [fold(row["edition"]) for row in timeline(seed_graph, "toxique")] == [fold(e) for e in lineage]


def test_first_edition_with_a_text_is_new_and_absent_editions_never_change(seed_graph):
    rows = timeline(seed_graph, "Toxique", game="Confrontation")
    present = [row for row in rows if row["present"]]
    assert present[0]["status"] == "new" and present[0]["changed"]
    assert all(not row["changed"] and row["status"] == "absent" for row in rows if not row["present"])
    assert all(row["status"] in ("changed", "unchanged") for row in present[1:])


def test_diff_from_confrontation_3_to_confede_shows_the_change_of_mechanic(seed_graph):
    diff = diff_editions(seed_graph, "Toxique", "Confrontation 3", "Confédé")
    removed, inserted = _removed_words(diff["text_diff"]), _inserted_words(diff["text_diff"])
    assert "second test de Blessures" in removed
    assert "la FOR de l’attaque est égale à X" in removed
    assert "1D6" in inserted
    assert "blessure Grave supplémentaire" in inserted
    assert "blessure Légère supplémentaire" in inserted
    assert ("toxique", "modifies", "for") in _triples(diff["removed"])


def test_rooted_adds_the_structure_and_enorme_immunities_to_toxique(seed_graph):
    diff = diff_editions(seed_graph, "Toxique", "Confédé", "Rooted")
    added = _triples(diff["added"])
    assert ("structure", "immuneTo", "toxique") in added
    assert ("enorme", "immuneTo", "toxique") in added
    assert all(r["edition"] == "Rooted" and r["evidence"] and r["line"] for r in diff["added"])


def test_rooted_writes_the_structure_and_enorme_parameters(seed_graph):
    diff = diff_editions(seed_graph, "Toxique", "Confédé", "Rooted")
    assert {"Structure/X", "Énorme/X"} <= set(diff["parameters_added"])
    assert diff["parameters_removed"] == []


def test_edition_names_match_whatever_the_apostrophe(seed_graph):
    typographic = diff_editions(seed_graph, "toxique", "Rag’Narok 2", "ROOTED")
    assert typographic["from"] == "Rag'Narok 2" and not typographic["from_present"]
    assert all(chunk["op"] == "insert" for chunk in typographic["text_diff"])


def test_unknown_ability_suggests_the_close_name(seed_graph):
    with pytest.raises(RulegraphError, match="Toxique"):
        timeline(seed_graph, "Toxiqe")


def test_unknown_edition_lists_the_close_editions(seed_graph):
    with pytest.raises(RulegraphError, match="Confédé"):
        diff_editions(seed_graph, "Toxique", "Confede 2", "Rooted")


def test_ability_without_editions_says_which_abilities_have_them(seed_graph):
    with pytest.raises(RulegraphError, match="no edition texts"):
        timeline(seed_graph, "Fouisseur")


def test_history_steps_through_consecutive_editions_with_a_text(seed_graph):
    history = edition_history(seed_graph, "Toxique")
    assert [(s["from"], s["to"]) for s in history["steps"]] == [("Confrontation 3", "Confédé"), ("Confédé", "Rooted")]
    assert (history["from"], history["to"]) == ("Confrontation 3", "Rooted")


# ---------------------------------------------------------------- a fixture compendium, independent of the seeds


def test_fixture_timeline_marks_changed_and_absent_editions(venin_graph):
    rows = {row["edition"]: row["status"] for row in timeline(venin_graph, "Venin")}
    assert rows == {"Première": "new", "Seconde": "changed", "L'Aube": "changed", "Crépuscule": "absent", "Nuit": "unchanged"}


def test_a_text_that_differs_only_by_its_apostrophes_is_unchanged_across_an_absent_edition(venin_graph):
    diff = diff_editions(venin_graph, "Venin", "L'Aube", "Nuit")
    assert [c["op"] for c in diff["text_diff"]] == ["equal"]
    assert diff["added"] == [] and diff["removed"] == [] and diff["parameters_added"] == []


def test_one_added_immunity_sentence_is_one_added_edge(venin_graph):
    diff = diff_editions(venin_graph, "Venin", "Seconde", "L’Aube")
    immunities = {t for t in _triples(diff["added"]) if t[1] == "immuneTo"}
    assert immunities == {("spectre", "immuneTo", "venin")}
    assert not [r for r in diff["removed"] if r["relation"] == "immuneTo"]
    assert diff["parameters_added"] == ["Spectre/X"]
    changes = [c for c in diff["text_diff"] if c["op"] != "equal"]
    assert [c["op"] for c in changes] == ["insert"]
    assert "compétence Spectre/X sont immunisés" in changes[0]["new"]


def test_going_back_an_edition_removes_the_immunity(venin_graph):
    diff = diff_editions(venin_graph, "Venin", "L'Aube", "Seconde")
    assert ("spectre", "immuneTo", "venin") in _triples(diff["removed"])
    assert diff["parameters_removed"] == ["Spectre/X"]


def test_an_unchanged_immunity_is_neither_added_nor_removed(venin_graph):
    diff = diff_editions(venin_graph, "Venin", "Seconde", "L'Aube")
    everything = _triples(diff["added"]) | _triples(diff["removed"])
    assert ("golem", "immuneTo", "venin") not in everything


# ---------------------------------------------------------------- word diff


def test_word_diff_rebuilds_both_texts_exactly(seed_corpus):
    texts = [e.text for entry in seed_corpus.entries("confrontation") for e in entry.editions if e.present]
    assert len(texts) >= 2
    for old, new in zip(texts, texts[1:] + texts[:1]):
        diff = word_diff(old, new)
        assert "".join(c["old"] for c in diff) == old
        assert "".join(c["new"] for c in diff) == new
        assert all(c["old"] != c["new"] or c["op"] == "equal" for c in diff)


def test_word_diff_keeps_leading_and_trailing_whitespace():
    diff = word_diff("  Il lance un Dé.", "Il lance 1D6.\n")
    assert "".join(c["old"] for c in diff) == "  Il lance un Dé."
    assert "".join(c["new"] for c in diff) == "Il lance 1D6.\n"


def test_apostrophe_typography_is_not_a_change():
    diff = word_diff("Il annule l'attaque d'opportunité.", "Il annule l’attaque d’opportunité.")
    assert [c["op"] for c in diff] == ["equal"]


def test_a_replaced_phrase_is_one_chunk_with_its_punctuation_apart():
    diff = word_diff("Le joueur lance un Dé.", "Le joueur lance 1D6.")
    assert [(c["op"], c["old"], c["new"]) for c in diff if c["op"] != "equal"] == [("replace", "un Dé", "1D6")]


def test_a_short_unchanged_run_between_changes_is_merged():
    diff = word_diff("la cible perd un point de vie", "la victime perd deux points de vie")
    changes = [c for c in diff if c["op"] != "equal"]
    assert len(changes) == 1
    assert changes[0]["old"].strip() == "cible perd un point"
    assert changes[0]["new"].strip() == "victime perd deux points"


def test_elided_words_stay_whole():
    diff = word_diff("l’attaque d’opportunité", "l’attaque d’interception")
    assert [c["old"] for c in diff if c["op"] == "replace"] == ["d’opportunité"]


def test_markers_hug_the_words_and_spaces_stay_outside():
    segments = diff_segments(word_diff("lance un Dé :", "lance 1D6 :"))
    assert segments == [("equal", "lance "), ("delete", "un Dé"), ("insert", "1D6"), ("equal", " "), ("equal", ":")]


def test_html_diff_escapes_text_and_marks_changes():
    page = diff_html(word_diff("FOR <X> & RES", "FOR <Y> & RES"))
    assert "&lt;" in page and "&amp;" in page and "<X>" not in page
    assert "<del" in page and "<ins" in page


# ---------------------------------------------------------------- CLI


def test_cli_json_has_timeline_text_diff_added_removed(capsys):
    code = main(["diff", "Toxique", "--manifest", str(DATA / "corpus.toml"), "--json"])
    result = json.loads(capsys.readouterr().out)
    assert code == 0
    assert {"timeline", "text_diff", "added", "removed", "steps"} <= set(result)
    assert {"edition", "present", "changed"} <= set(result["timeline"][0])


def test_cli_pair_prints_word_diff_markers_when_not_a_terminal(capsys):
    code = main(["diff", "venin", "--manifest", str(EDITIONS_MANIFEST), "--from", "Seconde", "--to", "L'Aube"])
    out = capsys.readouterr().out
    assert code == 0
    assert "{+Les combattants dotés de la compétence Spectre/X" in out
    assert "Spectre is immune to Venin" in out


def test_cli_reads_the_ability_from_a_built_turtle_file(tmp_path, capsys, venin_graph):
    path = tmp_path / "graph.ttl"
    path.write_text(serialize_turtle(venin_graph), encoding="utf-8")
    assert main(["diff", "Venin", "--graph", str(path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [row["status"] for row in result["timeline"]] == [row["status"] for row in timeline(venin_graph, "Venin")]


def test_cli_from_without_to_is_bad_input(capsys):
    code = main(["diff", "Toxique", "--manifest", str(DATA / "corpus.toml"), "--from", "Rooted"])
    assert code == 2
    assert "--from and --to" in capsys.readouterr().err


def test_cli_unknown_ability_is_one_line_and_exit_2(capsys):
    code = main(["diff", "Toxiqe", "--manifest", str(DATA / "corpus.toml")])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Toxique" in err


def test_ability_names_are_matched_as_everywhere_else_plural_and_parameter_included(seed_graph):
    from rulegraph.editions import resolve_ability

    assert resolve_ability(seed_graph, "Toxiques") == resolve_ability(seed_graph, "toxique/X")
