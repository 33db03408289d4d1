"""interactions(A, B): direct edges both ways, short paths with each hop's direction and
evidence, shared terms, and names matched as the extractor matches them."""

from __future__ import annotations

import json

import pytest

from rulegraph.catalogue import find_term
from rulegraph.cli import main
from rulegraph.errors import RulegraphError
from rulegraph.graph import new_graph
from rulegraph.interactions import interactions

from .conftest import FIXTURES

FIXTURE = FIXTURES / "queries" / "two_games.ttl"


@pytest.fixture(scope="module")
def fixture_graph():
    return new_graph().parse(FIXTURE, format="turtle")


def test_direct_relation_with_evidence_and_condition(fixture_graph):
    result = interactions(fixture_graph, "PAS FEUTRE", "bouclier d'épine")
    assert (result["a"], result["b"]) == ("Pas feutré", "Bouclier d’épines")
    assert result["relations"] == [{
        "subject": "Pas feutré", "relation": "cancels", "object": "Bouclier d’épines",
        "evidence": "Pas feutré annule le bouclier d’épines s’il termine son déplacement au contact.",
        "source": "a.txt", "line": 6, "condition": "s’il termine son déplacement au contact", "scope": None,
    }]


def test_relations_are_found_in_both_directions(fixture_graph):
    result = interactions(fixture_graph, "Bouclier d’épines", "Pas feutré")
    assert [(r["subject"], r["relation"]) for r in result["relations"]] == [("Pas feutré", "cancels")]


def test_paths_report_each_hop_with_direction(fixture_graph):
    paths = interactions(fixture_graph, "Bouclier d’épines", "Brise-garde")["paths"]
    assert [(p["length"], p["through"]) for p in paths] == [(2, ["Pas feutré"])]
    hops = paths[0]["hops"]
    assert [(h["from"], h["to"], h["relation"], h["direction"], h["line"]) for h in hops] == [
        ("Bouclier d’épines", "Pas feutré", "cancels", "backward", 6),
        ("Pas feutré", "Brise-garde", "negates", "backward", 4),
    ]


def test_paths_go_through_states_and_actions_but_not_characteristics(fixture_graph):
    paths = interactions(fixture_graph, "Rage", "Élan")["paths"]
    assert [p["through"] for p in paths] == [["Charge"]]


def test_shared_characteristic_during_the_same_action(fixture_graph):
    shared = interactions(fixture_graph, "rage", "elan")["shared"]
    assert [(s["kind"], s["term"]) for s in shared] == [
        ("characteristic", "CBT"), ("action", "Charge"), ("characteristic during action", "CBT during Charge")]
    during = shared[-1]
    assert [e["line"] for e in during["a"]] == [21, 21] and [e["line"] for e in during["b"]] == [23, 24]


def test_shared_concept_and_third_ability(fixture_graph):
    shared = interactions(fixture_graph, "Bouclier d’épines", "Brise-garde")["shared"]
    assert [(s["kind"], s["term"]) for s in shared] == [("ability", "Pas feutré")]
    shared = interactions(fixture_graph, "Bouclier d’épines", "Pas feutré")["shared"]
    assert [(s["kind"], s["term"]) for s in shared] == [("concept", "Zone de contrôle")]


def test_a_one_letter_typo_in_a_long_name_still_matches(fixture_graph):
    assert find_term(fixture_graph, "Malédction").label == "Malédiction"


def test_names_in_two_games_need_a_game(fixture_graph):
    with pytest.raises(RulegraphError, match="several games.*Jeu A, Jeu B"):
        interactions(fixture_graph, "Charge", "Régénération")
    assert interactions(fixture_graph, "Charge", "Rage", game="Jeu A")["relations"][0]["relation"] == "appliesTo"


def test_unknown_name_suggests_close_names(fixture_graph):
    with pytest.raises(RulegraphError, match="did you mean.*Brise-garde"):
        interactions(fixture_graph, "Brise garde lourde", "Rage")


def test_json_keys(fixture_graph):
    result = interactions(fixture_graph, "Bouclier d’épines", "Brise-garde")
    assert set(result) == {"a", "b", "relations", "paths", "shared"}


def test_seed_fouisseur_and_interception(seed_graph):
    result = interactions(seed_graph, "fouisseur", "INTERCEPTION")
    negation = next(r for r in result["relations"] if r["relation"] == "negates")
    assert (negation["subject"], negation["object"]) == ("Interception", "Fouisseur")
    assert negation["source"] == "000_10d76c9141a2b7c0.txt" and negation["line"] > 0


def test_seed_fouisseur_and_attaque_d_opportunite_share_the_zone_de_controle(seed_graph):
    result = interactions(seed_graph, "Fouisseur", "attaque d'opportunite")
    assert ("Fouisseur", "cancels") in {(r["subject"], r["relation"]) for r in result["relations"]}
    assert ("concept", "Zone de contrôle") in {(s["kind"], s["term"]) for s in result["shared"]}


def test_cli_json_and_text(capsys):
    args = ["interactions", "Bouclier d’épines", "Brise-garde", "--graph", str(FIXTURE)]
    assert main([*args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["paths"][0]["through"] == ["Pas feutré"]
    assert main(args) == 0
    assert "Bouclier d’épines <-cancels- Pas feutré <-negates- Brise-garde" in capsys.readouterr().out


def test_the_same_ability_twice_is_bad_input(seed_graph):
    from rulegraph.errors import RulegraphError
    from rulegraph.interactions import interactions

    with pytest.raises(RulegraphError, match="same"):
        interactions(seed_graph, "Fouisseur", "fouisseurs")


def test_a_typo_is_never_corrected_silently():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "rulegraph", "--lang", "en", "interactions", "Fouiseur", "Interception"],
                          capture_output=True, text=True)
    assert done.returncode == 0
    assert done.stdout.splitlines()[0] == "(read 'Fouiseur' as 'Fouisseur')"
    assert "(read 'Interception'" not in done.stdout
    french = subprocess.run([sys.executable, "-m", "rulegraph", "--lang", "fr", "interactions", "Fouiseur", "Interception"],
                            capture_output=True, text=True)
    assert french.stdout.splitlines()[0] == "(« Fouiseur » lu comme « Fouisseur »)"
