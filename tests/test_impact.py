"""What moves when a designer changes an ability, or edits a copy of the Hell Dorado glossary."""

from __future__ import annotations

import json

import pytest

from rulegraph.build import build
from rulegraph.catalogue import find_term
from rulegraph.cli import main
from rulegraph.errors import RulegraphError
from rulegraph.impact import edited_source, encounter_pairs, impact, impact_of_edit, summary_line, without_ability
from rulegraph.namespaces import RG
from rulegraph.views.networkx_view import to_networkx

from .conftest import DATA

GLOSSARY = DATA / "000_10d76c9141a2b7c0.txt"
#: The sentence of Insaisissable that makes it cancel Attaque d'opportunité (line 146).
CANCELLING = " Cette capacité annule l’attaque d’opportunité.\n"
AOO = "Attaque d’opportunité"


def _moves(result):
    return {item["ability"]: item["reasons"] for item in result["moves"]}


@pytest.fixture(scope="module")
def fouisseur(seed_graph):
    return impact(seed_graph, "fouisseur")


def test_fouisseur_moves_the_abilities_the_done_when_names_with_their_reasons(fouisseur):
    moves = _moves(fouisseur)
    assert {AOO, "Interception", "Insaisissable", "Téléportation", "Volant"} <= set(moves)
    assert f"Fouisseur cancels {AOO} (line 103)" in moves[AOO]
    assert "Interception negates Fouisseur (line 158)" in moves["Interception"]
    assert f"Insaisissable cancels {AOO} too (line 146)" in moves["Insaisissable"]
    for twin in ("Téléportation", "Volant"):
        assert any(r.startswith("RG004 identical-text") and "Fouisseur, Téléportation and Volant" in r for r in moves[twin])


def test_direct_layer_keeps_direction_and_evidence(fouisseur):
    direct = {(d["direction"], d["relation"], d["ability"]): d for d in fouisseur["direct"]}
    cancels = direct[("out", "cancels", AOO)]
    assert cancels["evidence"].startswith("Cette capacité annule l’attaque d’opportunité si")
    assert (cancels["source"], cancels["line"]) == (GLOSSARY.name, 103)
    assert cancels["condition"].startswith("si le personnage qui la possède termine")
    assert ("in", "negates", "Interception") in direct


def test_removing_fouisseurs_relations_changes_two_encounter_verdicts(fouisseur):
    changes = {(tuple(e["sides"]), c["ability"]): (c["before"], c["after"]) for e in fouisseur["encounters"] for c in e["changes"]}
    assert changes[(("Fouisseur", AOO), AOO)] == ("defeated", "in effect")
    assert changes[(("Fouisseur", "Interception"), "Fouisseur")] == ("defeated", "in effect")
    assert summary_line(fouisseur) == f"changing Fouisseur (Hell Dorado) moves {len(fouisseur['moves'])} other abilities and 2 encounter verdicts"


def test_grant_closure_both_ways(seed_graph):
    illumine = impact(seed_graph, "Illuminé", encounters=False)
    assert [g["ability"] for g in illumine["grants"]["gives"]] == ["Fanatique"]
    fanatique = impact(seed_graph, "Fanatique", encounters=False)
    [given] = fanatique["grants"]["given_by"]
    assert given["ability"] == "Illuminé"
    assert given["chain"][0]["evidence"].startswith("Tant que cette capacité est active pour un joueur")


def test_mutual_cancelling_pair_moves_together(seed_graph):
    result = impact(seed_graph, "Frappe rapide")
    assert any("cancels each other with" in r for r in _moves(result)["Riposte rapide"])
    changed = [c for e in result["encounters"] for c in e["changes"] if c["ability"] == "Riposte rapide"]
    assert changed and changed[0]["before"] == "defeated" and changed[0]["after"] == "in effect"


def test_designer_notes_and_findings_of_the_ability(seed_graph):
    result = impact(seed_graph, "attaque d'opportunite", encounters=False)
    assert [n["text"] for n in result["notes"]] == ["à simplifier ?"]
    assert any(f["code"] == "RG001" for f in result["findings"])


def test_a_spelling_finding_does_not_move_the_other_places_it_lists(seed_graph):
    result = impact(seed_graph, "Illuminé", encounters=False)
    assert any(f["check"] == "spelling" and "Sanguinaire" in f["message"] for f in result["findings"])
    assert "Sanguinaire" not in _moves(result)


def test_without_ability_drops_its_relations_and_keeps_its_text(seed_graph):
    term = find_term(seed_graph, "Fouisseur")
    removed = without_ability(seed_graph, term.uri)
    assert removed.value(term.uri, RG.text) == seed_graph.value(term.uri, RG.text)
    view = to_networkx(removed)
    assert not list(view.in_edges(str(term.uri))) and not list(view.out_edges(str(term.uri)))
    assert encounter_pairs(view, str(term.uri)) == []


def test_unknown_ability_is_an_error_with_hints(seed_graph):
    with pytest.raises(RulegraphError, match="Fouisseur"):
        impact(seed_graph, "Fouiseurr")


def test_cli_impact_json(capsys):
    assert main(["impact", "Fouisseur", "--manifest", str(DATA / "corpus.toml"), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert {"direct", "alongside", "grants", "encounters", "findings", "notes", "moves"} <= set(result)


def test_cli_impact_needs_an_ability_or_an_edit(capsys):
    assert main(["impact"]) == 2
    assert "--edit FILE" in capsys.readouterr().err


# --- an edit of the glossary -----------------------------------------------------------------


@pytest.fixture(scope="module")
def edited_copy(tmp_path_factory):
    text = GLOSSARY.read_text(encoding="utf-8")
    assert text.count(CANCELLING) == 1
    copy = tmp_path_factory.mktemp("edit") / "hell-dorado-edited.txt"
    copy.write_text(text.replace(CANCELLING, "\n"), encoding="utf-8")
    return copy


def test_edited_copy_is_matched_to_its_source_by_the_lines_it_shares(edited_copy):
    assert edited_source(DATA / "corpus.toml", edited_copy) == GLOSSARY.name


def test_removing_the_cancelling_sentence_changes_the_insaisissable_encounter(seed_graph, edited_copy):
    edited = build(DATA / "corpus.toml", substitutes={GLOSSARY.name: edited_copy}).graph
    result = impact_of_edit(seed_graph, edited)
    assert [(c["ability"], c["what"]) for c in result["changed"]] == [("Insaisissable", f"text, Insaisissable cancels {AOO}: removed")]
    changes = {(tuple(e["sides"]), c["ability"]): (c["before"], c["after"]) for e in result["encounters"] for c in e["changes"]}
    assert changes == {(("Insaisissable", AOO), AOO): ("defeated", "in effect")}
    assert AOO in _moves(result) and "Interception" in _moves(result)
    assert summary_line(result).startswith(f"you changed Insaisissable (text, Insaisissable cancels {AOO}: removed);")


def test_cli_impact_edit_names_the_verdict_that_changes(edited_copy, capsys):
    assert main(["impact", "--edit", str(edited_copy), "--manifest", str(DATA / "corpus.toml")]) == 0
    out = capsys.readouterr().out
    assert f"Insaisissable vs {AOO}: {AOO} defeated → in effect" in out
    assert "[-Cette capacité annule l’attaque d’opportunité.-]" in out


def test_cli_impact_edit_of_an_unrelated_file_exits_2(tmp_path, capsys):
    stranger = tmp_path / "autre.txt"
    stranger.write_text("Rien à voir.\n", encoding="utf-8")
    assert main(["impact", "--edit", str(stranger), "--manifest", str(DATA / "corpus.toml")]) == 2
    assert "--source" in capsys.readouterr().err


# --- the ripple on the atlas -----------------------------------------------------------------


def test_ripple_rings_each_ability_in_its_nearest_layer(seed_graph, fouisseur):
    from rulegraph.views.ripple import LAYERS, ripple_layers, ripple_page

    layers = ripple_layers(fouisseur)
    assert layers["Fouisseur"] == "centre"
    assert layers[AOO] == layers["Interception"] == "direct"
    assert layers["Insaisissable"] == layers["Téléportation"] == "alongside"
    page = ripple_page(seed_graph, "Fouisseur", result=fouisseur)
    data = page.split("const DATA = ", 1)[1].split("\n", 1)[0]
    assert f'"border": "{LAYERS["direct"][0]}"' in data and f'"border": "{LAYERS["centre"][0]}"' in data
    assert data.count('"layer": ') == len(layers)


def test_moves_table_is_escaped(fouisseur):
    from rulegraph.views.ripple import moves_html

    hostile = dict(fouisseur, moves=[{"ability": "<b>x</b>", "reasons": ["<script>alert(1)</script>"]}])
    table = moves_html(hostile)
    assert "<script>" not in table and "&lt;script&gt;" in table and "&lt;b&gt;x&lt;/b&gt;" in table


def test_edit_source_can_be_named_and_an_unknown_one_is_an_error(edited_copy):
    assert edited_source(DATA / "corpus.toml", edited_copy, GLOSSARY.name) == GLOSSARY.name
    with pytest.raises(RulegraphError, match="no \\[\\[source\\]\\] with path 'autre.txt'"):
        edited_source(DATA / "corpus.toml", edited_copy, "autre.txt")


def test_impact_explorer_follows_the_picked_ability(seed_graph):
    from rulegraph.views.ripple import impact_explorer

    explorer = impact_explorer(seed_graph, "Fouisseur")
    search, message, table, picture = explorer.children
    assert "Interception" in table.value and picture.value.startswith('<iframe sandbox="allow-scripts" srcdoc="')
    search.value = "Illuminé"
    assert "Fanatique" in table.value and "Interception" not in table.value
    search.value = "Fouiseurr"
    assert "Fouisseur" in message.value
