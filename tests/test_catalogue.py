"""The read layer: records read off the graph and the one name lookup every command uses."""

from __future__ import annotations

import pytest

from rulegraph.catalogue import RuleGraph, find_term, local_name, lookup
from rulegraph.errors import RulegraphError
from rulegraph.graph import new_graph
from rulegraph.interactions import interactions

from .conftest import FIXTURES

# A studio's catalogue as the synthetic corpus writes it (scripts/synthetic_corpus.py): the same
# chapter copied into several games, every ability renamed "Name K<copy>". "Fouisseur K1" is one
# typo away from "Fouisseur K2" and "Fouisseur K3", which the lexicon accepts in a long name.
RENAMED_COPIES = """
@prefix rg: <https://w3id.org/rulegraph#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix game: <https://w3id.org/rulegraph/data/game/> .
""" + "\n".join(f"""
game:studio-{n} a rg:Game ; rdfs:label "Studio {n}" .
<https://w3id.org/rulegraph/data/studio-{n}/ability/fouisseur-k{n}> a rg:CharacterAbility ;
    rdfs:label "Fouisseur K{n}"@fr ; rg:game game:studio-{n} .
<https://w3id.org/rulegraph/data/studio-{n}/ability/interception-k{n}> a rg:CharacterAbility ;
    rdfs:label "Interception K{n}"@fr ; rg:game game:studio-{n} .
""" for n in (1, 2, 3))


@pytest.fixture(scope="module")
def copies():
    return new_graph().parse(data=RENAMED_COPIES, format="turtle")


@pytest.fixture(scope="module")
def two_games():
    return new_graph().parse(FIXTURES / "queries" / "two_games.ttl", format="turtle")


def test_an_exact_name_in_one_game_wins_over_near_names_in_others(copies):
    assert len(lookup(copies, "Fouisseur K9")) == 3
    [term] = lookup(copies, "Fouisseur K1")
    assert (term.label, term.game_id, term.game) == ("Fouisseur K1", "studio-1", "Studio 1")
    assert find_term(copies, "fouisseur k2").game == "Studio 2"
    result = interactions(copies, "Fouisseur K1", "Interception K1")
    assert (result["a"], result["b"]) == ("Fouisseur K1", "Interception K1")


def test_a_near_name_in_several_games_still_asks_for_the_game(copies):
    with pytest.raises(RulegraphError, match="several games.*Studio 1, Studio 2, Studio 3"):
        find_term(copies, "Fouisseur K9")
    assert find_term(copies, "Fouisseur K9", game="studio-3").label == "Fouisseur K3"


def test_a_game_given_keeps_its_own_near_match(copies):
    [term] = lookup(copies, "Fouisseur K1", game="Studio 2")
    assert term.label == "Fouisseur K2"


def test_records_are_read_once_and_typed(two_games):
    graph = RuleGraph(two_games)
    abilities = graph.abilities()
    assert abilities[0].label == "Bouclier d’épines" and abilities[0].game_id == "jeu-a" and abilities[0].line == 1
    first = next(s for s in graph.statements() if s.relation == "cancels" and s.line == 6)
    assert (graph.label(first.subject), first.relation, graph.label(first.object), first.source, first.line) == (
        "Pas feutré", "cancels", "Bouclier d’épines", "a.txt", 6)
    assert first.condition == "s’il termine son déplacement au contact"
    assert graph.game_of(abilities[0].node) == ("jeu-a", "Jeu A")
    assert graph.networkx() is graph.networkx()
    assert local_name(abilities[0].node) == "bouclier-d-epines"


def test_a_games_editions_come_in_its_lineage_order(seed_graph, seed_corpus):
    graph = RuleGraph(seed_graph)
    [(game_id, spec)] = [(g, s) for g, s in seed_corpus.games.items() if s.lineage]
    editions = graph.editions(spec.name)
    assert [e.label for e in editions] == list(spec.lineage)
    assert [e.order for e in editions] == sorted(e.order for e in editions if e.order is not None)
    assert graph.games()[game_id] == spec.name
