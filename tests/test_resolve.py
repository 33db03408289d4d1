"""The encounter resolver: grants with their recipient, stacking from the game's rules, and
cancels/negates/mutuallyCancels decided by grounded semantics, every verdict with its sentences."""

from __future__ import annotations

import json

import pytest

from rulegraph.cli import main
from rulegraph.errors import RulegraphError
from rulegraph.graph import new_graph
from rulegraph.resolve import StackingRule, resolve, stack_parameters, stacking_rule

from .conftest import FIXTURES

FIXTURE = FIXTURES / "queries" / "two_games.ttl"


@pytest.fixture(scope="module")
def fixture_graph():
    return new_graph().parse(FIXTURE, format="turtle")


def _defeated(side):
    return {d["ability"]: d for d in side["defeated"]}


def _verdict(result, ability):
    return next(e for e in result["explanation"] if e["ability"] == ability)


def test_a_defeated_attacker_defeats_nothing(fixture_graph):
    result = resolve(fixture_graph, ["Pas feutré", "Bouclier d'épines, Brise-garde"])
    mover, bearer = result["sides"]
    assert mover["in_effect"] == [] and set(_defeated(mover)) == {"Pas feutré"}
    assert _defeated(mover)["Pas feutré"]["by"] == ["Brise-garde (side 2)"]
    assert bearer["in_effect"] == ["Bouclier d’épines", "Brise-garde"]
    chain = _verdict(result, "Bouclier d’épines")["chain"]
    assert [(e["relation"], e["line"]) for e in chain] == [("cancels", 6), ("negates", 4)]


def test_an_unopposed_cancel_defeats_and_shows_its_condition(fixture_graph):
    result = resolve(fixture_graph, ["Pas feutré", "Bouclier d’épines"])
    defeat = _defeated(result["sides"][1])["Bouclier d’épines"]
    assert defeat["evidence"][0]["condition"] == "s’il termine son déplacement au contact"
    assert "condition: s’il termine" in _verdict(result, "Bouclier d’épines")["text"]


def test_abilities_on_the_same_side_do_not_attack_each_other(fixture_graph):
    result = resolve(fixture_graph, ["Pas feutré, Bouclier d’épines", "Sournois"])
    assert result["sides"][0]["in_effect"] == ["Pas feutré", "Bouclier d’épines"]


def test_mutually_cancelling_abilities_are_both_off(fixture_graph):
    first, second = resolve(fixture_graph, ["Éclair", "Tonnerre"])["sides"]
    assert set(_defeated(first)) == {"Éclair"} and set(_defeated(second)) == {"Tonnerre"}


def test_an_even_cycle_of_cancels_stays_undecided(fixture_graph):
    first, second = resolve(fixture_graph, ["Feinte", "Parade"])["sides"]
    assert (first["undecided"], second["undecided"]) == (["Feinte"], ["Parade"])


def test_grants_are_closed_transitively_and_can_attack(fixture_graph):
    result = resolve(fixture_graph, ["Ferveur", "Sournois"])
    first, second = result["sides"]
    assert [(g["ability"], g["by"]) for g in first["granted"]] == [("Zèle", ["Ferveur (side 1)"]), ("Transe", ["Zèle (side 1)"])]
    assert first["granted"][0]["evidence"][0]["condition"] == "Tant que la ferveur dure"
    assert _defeated(second)["Sournois"]["by"] == ["Zèle (side 1)"]


def test_a_granted_ability_falls_with_its_granter(fixture_graph):
    first, second = resolve(fixture_graph, ["Ferveur", "Sournois, Exorcisme"])["sides"]
    assert set(_defeated(first)) == {"Ferveur", "Zèle", "Transe"}
    assert second["in_effect"] == ["Sournois", "Exorcisme"]


def test_a_grant_to_the_opponent_goes_to_the_other_side_with_its_amount(fixture_graph):
    first, second = resolve(fixture_graph, ["Malédiction", "Rage"])["sides"]
    assert first["granted"] == []
    assert [(g["ability"], g["by"]) for g in second["granted"]] == [("Faiblesse 2", ["Malédiction (side 1)"])]


@pytest.mark.parametrize(("side", "expected"), [
    ("Régénération 2, Régénération 3", "Régénération 3"),
    ("Régénération 3, Régénération 1", "Régénération 3"),
    ("Régénération 2, Régénération +2", "Régénération 4"),
    ("Régénération +2", "Régénération 2"),
])
def test_parameters_stack_by_the_games_rule(fixture_graph, side, expected):
    assert resolve(fixture_graph, [side, "Rage"])["sides"][0]["abilities"] == [expected]


def test_stacking_rule_is_read_from_the_general_rules(fixture_graph):
    rule_a, rule_b = stacking_rule(fixture_graph, "jeu-a"), stacking_rule(fixture_graph, "jeu-b")
    assert (rule_a.highest_wins, rule_a.plus_adds, len(rule_a.sentences)) == (True, True, 2)
    assert (rule_b.highest_wins, rule_b.plus_adds, rule_b.sentences) == (False, False, ())


def test_without_a_stacking_rule_a_second_copy_changes_nothing():
    assert stack_parameters(StackingRule(False, False), ("2",), ("+3",)) == ("2",)
    assert stack_parameters(StackingRule(True, True), ("X/2",), ("3/+1",)) == ("X/3",)


def test_names_in_two_games_need_a_game(fixture_graph):
    with pytest.raises(RulegraphError, match="Jeu A, Jeu B"):
        resolve(fixture_graph, ["Régénération", "regeneration"])
    assert resolve(fixture_graph, ["Régénération", "Rage"], game="jeu-a")["sides"][0]["in_effect"] == ["Régénération"]


def test_unknown_ability_suggests_close_names(fixture_graph):
    with pytest.raises(RulegraphError, match="did you mean.*Tonnerre"):
        resolve(fixture_graph, ["Tonnere de feu", "Rage"])


def test_json_keys(fixture_graph):
    result = resolve(fixture_graph, ["Pas feutré", "Bouclier d’épines, Brise-garde"])
    assert set(result) == {"sides", "explanation"}
    assert set(result["sides"][0]) == {"abilities", "in_effect", "defeated", "granted", "undecided"}
    assert set(result["sides"][0]["defeated"][0]) == {"ability", "by", "evidence"}
    assert set(result["sides"][0]["defeated"][0]["evidence"][0]) == {
        "subject", "relation", "object", "evidence", "source", "line", "condition", "scope"}


def test_seed_interception_switches_off_fouisseur_so_attaque_d_opportunite_applies(seed_graph):
    result = resolve(seed_graph, ["Fouisseur", "Attaque d'opportunité, Interception"])
    mover, bearer = result["sides"]
    assert _defeated(mover)["Fouisseur"]["by"] == ["Interception (side 2)"]
    assert "Attaque d’opportunité" in bearer["in_effect"] and "Interception" in bearer["in_effect"]
    chain = _verdict(result, "Attaque d’opportunité")["chain"]
    assert ("Fouisseur", "cancels", "Attaque d’opportunité") in {(e["subject"], e["relation"], e["object"]) for e in chain}
    negation = next(e for e in chain if e["relation"] == "negates")
    assert negation["subject"] == "Interception" and "fouisseur" in negation["evidence"]
    assert negation["source"].endswith(".txt") and negation["line"] > 0


def test_seed_frappe_rapide_and_riposte_rapide_cancel_each_other(seed_graph):
    first, second = resolve(seed_graph, ["Frappe rapide", "Riposte rapide"])["sides"]
    assert "Frappe rapide" in _defeated(first) and "Riposte rapide" in _defeated(second)
    assert "Frappe rapide" not in first["in_effect"] and "Riposte rapide" not in second["in_effect"]


def test_seed_illumine_grants_fanatique_with_its_condition(seed_graph):
    result = resolve(seed_graph, ["Illuminé", "Fouisseur"])
    grant = next(g for g in result["sides"][0]["granted"] if g["ability"] == "Fanatique")
    assert grant["by"] == ["Illuminé (side 1)"]
    condition = grant["evidence"][0]["condition"]
    assert condition and condition in _verdict(result, "Fanatique")["text"]


def test_cli_resolve_json_and_text(capsys):
    args = ["resolve", "--side", "Pas feutré", "--side", "Bouclier d’épines, Brise-garde", "--graph", str(FIXTURE)]
    assert main([*args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["sides"][1]["in_effect"] == ["Bouclier d’épines", "Brise-garde"]
    assert main(["--lang", "en", *args]) == 0
    text = capsys.readouterr().out
    assert "defeated:  Pas feutré (by Brise-garde (side 2))" in text and "(a.txt:4)" in text
    assert main(["--lang", "fr", *args]) == 0
    assert "annulée :  Pas feutré (par Brise-garde (camp 2))" in capsys.readouterr().out


def test_cli_one_side_is_exit_2(capsys):
    assert main(["resolve", "--side", "Rage", "--graph", str(FIXTURE)]) == 2
    assert "two sides" in capsys.readouterr().err


def test_a_stacking_rule_worded_with_value_instead_of_parameter_is_read(build_markdown):
    result = build_markdown("# Jeu\n\nSi une figurine reçoit deux fois la même capacité, seule la valeur la plus élevée s'applique.\n\n"
        "## Capacités\n\n### Carapace X\n\nElle protège.\n")
    graph = result.graph
    assert stacking_rule(graph, "jeu").highest_wins


def test_a_grant_to_an_enemy_model_goes_to_the_other_side(build_markdown):
    result = build_markdown("## Capacités\n\n### Piqûre\n\nToute figurine ennemie touchée gagne la capacité Lenteur.\n\n"
        "### Lenteur\n\nElle ralentit.\n\n### Bouclier\n\nIl protège.\n")
    grants = [(s.object.label, s.recipient) for s in result.statements if s.relation == "grants"]
    assert grants == [("Lenteur", "opponent")]
    attacker, defender = resolve(result.graph, ["Piqûre", "Bouclier"])["sides"]
    assert "Lenteur" not in attacker["in_effect"] and "Lenteur" in defender["in_effect"]


def test_a_state_given_as_a_side_is_named_as_a_state():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "rulegraph", "resolve", "--side", "Fouisseur", "--side", "Blessé"],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert "'Blessé' is a state of Hell Dorado, not an ability" in done.stderr
