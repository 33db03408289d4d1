"""Relation extraction: each relation type from its French cue, the direction of the edge, the
recipient of a grant, conditions as text, and when an ordinary word counts as an ability.

The small sentences here are invented for the tests (abilities Alpha, Garde, Rage, Cri, Vol
plané, Lame); the last tests read the seed glossaries themselves."""

from __future__ import annotations

import pytest

from rulegraph.extract.cues import load_cues
from rulegraph.extract.extractor import extract_entry, game_lexicon
from rulegraph.extract.lexicon import build_lexicon
from rulegraph.model import WEAPON, Entry, Paragraph

OTHERS = ["Garde", "Rage", "Cri", "Vol plané", "Lame"]
CUES = load_cues()


def edges(text: str, *, name: str = "Alpha", category: str = "character", marked: tuple[str, ...] = ()):
    """(subject, relation, object) of every ability-to-ability edge the text yields."""
    return {(s.subject.label, s.relation, s.object.label) for s in statements(text, name=name, category=category, marked=marked)
            if s.object.kind == "ability"}


def statements(text: str, *, name: str = "Alpha", category: str = "character", marked: tuple[str, ...] = ()):
    entry = Entry(name=name, heading=name, game="jeu", source="regles.md", line=1, category=category,
                  paragraphs=(Paragraph(text, 1, marked=marked),))
    lexicon = build_lexicon("jeu", [name, *OTHERS], {"actions": ["Charge"], "characteristics": ["CBT", "DEF"], "states": ["Blessé"]})
    lexicon.weapons = frozenset({"lame"})
    return extract_entry(entry, lexicon, CUES)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Cette capacité annule Rage.", ("Alpha", "cancels", "Rage")),
        ("Il annule de plus les effets de Vol plané pour les ennemis au contact.", ("Alpha", "negates", "Vol plané")),
        ("Les adversaires proches perdent le bénéfice de Garde.", ("Alpha", "negates", "Garde")),
        ("Contre un adversaire doté de Garde, ces deux capacités s'annulent mutuellement.", ("Alpha", "mutuallyCancels", "Garde")),
        ("Le porteur acquiert la capacité Rage.", ("Alpha", "grants", "Rage")),
        ("Un socle avec cette règle a également la capacité Rage.", ("Alpha", "grants", "Rage")),
        ("Utiliser cette capacité nécessite la présence d'un allié qui possède Garde.", ("Alpha", "requires", "Garde")),
        ("Cette capacité est incompatible avec la capacité Garde.", ("Alpha", "excludes", "Garde")),
        ("Cette capacité ne permet pas de recruter des figurines possédant la capacité Garde.", ("Alpha", "excludes", "Garde")),
        ("Le porteur est immunisé contre Cri.", ("Alpha", "immuneTo", "Cri")),
        ("Le porteur n'est jamais affecté par la capacité Cri.", ("Alpha", "immuneTo", "Cri")),
        ("Le combattant voit la capacité Cri de loin.", ("Alpha", "references", "Cri")),
    ],
)
def test_each_relation_type_is_read_from_its_cue(text, expected):
    assert edges(text) == {expected}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Les figurines dotées de la compétence Garde sont immunisées aux effets de cette compétence.", ("Garde", "immuneTo", "Alpha")),
        ("Les figurines possédant la capacité Garde n'en subissent jamais les effets.", ("Garde", "immuneTo", "Alpha")),
        ("Cette capacité ne fonctionne pas contre les figurines qui ont la capacité Garde.", ("Garde", "immuneTo", "Alpha")),
        ("Contre une telle arme, la Garde de la cible est ignorée.", ("Alpha", "negates", "Garde")),
        ("Une figurine dotée de Rage acquiert aussi Alpha.", ("Rage", "grants", "Alpha")),
    ],
)
def test_direction_follows_the_meaning(text, expected):
    assert edges(text) == {expected}


def test_a_weapon_cancelling_a_capacity_negates_it_on_its_target():
    assert edges("Cette arme ignore la Garde.", name="Lame", category=WEAPON) == {("Lame", "negates", "Garde")}


@pytest.mark.parametrize(
    "text",
    [
        "Un combattant qui a la capacité Garde reçoit un bonus.",
        "Ils ne peuvent être annulés que par une Garde.",
        "Les figurines dotées de la capacité Garde sont immunisées aux effets de cette capacité.",
    ],
)
def test_descriptions_and_passives_are_not_grants_or_cancels(text):
    relations = {relation for _, relation, _ in edges(text)}
    assert not relations & {"grants", "cancels"}


@pytest.mark.parametrize(
    ("text", "recipient"),
    [
        ("Tant qu'un combattant est affecté par cette capacité, il acquiert la capacité Rage.", "opponent"),
        ("Les alliés situés à 3 pas bénéficient de la capacité Rage.", "ally"),
        ("Le porteur acquiert la capacité Rage.", "bearer"),
        ("Le porteur désigne un adversaire. Si ce dernier rate son test, il acquiert la capacité Rage.", "opponent"),
    ],
)
def test_grant_records_who_receives_the_ability(text, recipient):
    (grant,) = [s for s in statements(text) if s.relation == "grants"]
    assert grant.recipient == recipient


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        ("Si le porteur est blessé, il acquiert la capacité Rage.", "Si le porteur est blessé"),
        ("Tant que le porteur est au contact d'un ennemi, il est immunisé contre Cri.", "Tant que le porteur est au contact d'un ennemi"),
        ("Lorsqu'il est engagé par plusieurs adversaires, cette capacité annule Garde.", "Lorsqu'il est engagé par plusieurs adversaires"),
        ("Une figurine touchée perd le bénéfice de Garde jusqu'à la fin du tour.", "jusqu'à la fin du tour"),
    ],
)
def test_conditions_are_attached_as_text(text, condition):
    (edge,) = [s for s in statements(text) if s.object.kind == "ability"]
    assert edge.condition == condition


@pytest.mark.parametrize("text", ["Il se déplace comme si la capacité Garde s'appliquait.", "Il peut charger même si un ennemi possède Garde."])
def test_as_if_and_even_if_are_not_conditions(text):
    (edge,) = [s for s in statements(text) if s.object.kind == "ability"]
    assert edge.condition is None


def test_a_name_inside_a_condition_is_not_governed_by_the_cue_before_it():
    found = edges("Une figurine dotée de Garde est immunisée à cette capacité à moins que la figurine qui la possède ait aussi Rage.")
    assert ("Garde", "immuneTo", "Alpha") in found
    assert ("Alpha", "immuneTo", "Rage") not in found


def test_term_edges_carry_the_signed_amount():
    found = {(s.relation, s.object.label, s.amount) for s in statements("Lors d'une action de charge, il reçoit +2 CBT et un malus de -1 DEF s'il est blessé.")}
    assert {("appliesTo", "Charge", None), ("modifies", "CBT", "+2"), ("modifies", "DEF", "-1"), ("involvesState", "Blessé", None)} <= found


# --- ambiguity on the seed glossaries -----------------------------------------------------------

@pytest.fixture(scope="module")
def hell_dorado(seed_corpus):
    return {e.name: e for e in seed_corpus.entries("hell-dorado")}, game_lexicon(seed_corpus, "hell-dorado")


def _hd(hell_dorado, name, text):
    entries, lexicon = hell_dorado
    entry = entries[name]
    probe = Entry(name=entry.name, heading=entry.heading, game=entry.game, source=entry.source, line=1,
                  category=entry.category, paragraphs=(Paragraph(text, 1),))
    return {(s.relation, s.object.kind, s.object.label) for s in extract_entry(probe, lexicon, CUES)}


@pytest.mark.parametrize(
    ("text", "present", "absent"),
    [
        ("Il effectue une action de charge.", ("appliesTo", "action", "Charge"), ("references", "ability", "Réception de charge")),
        ("Il possède une arme avec Réception de charge.", ("references", "ability", "Réception de charge"), ("appliesTo", "action", "Charge")),
        ("Il possède la capacité Charge tumultueuse.", ("references", "ability", "Charge tumultueuse"), ("appliesTo", "action", "Charge")),
        ("Il porte les munitions de son allié.", None, ("references", "ability", "Munitions")),
        ("Son arme possède la capacité munitions.", ("references", "ability", "Munitions"), None),
        ("Il peut tenter une esquive.", None, ("references", "ability", "Esquive")),
        ("Il acquiert les capacités insaisissable et arpenteur.", ("grants", "ability", "Arpenteur"), None),
        ("Il reçoit un bonus de couverture ou de résistance.", ("references", "ability", "Résistance"), None),
        ("Il se déplace de façon rapide et lente.", None, ("references", "ability", "Lent")),
        ("Il ignore les personnages invulnérables.", ("references", "ability", "Invulnérable"), None),
    ],
)
def test_ordinary_words_count_as_abilities_only_in_context(hell_dorado, text, present, absent):
    found = _hd(hell_dorado, "Fouisseur", text)
    if present:
        assert present in found
    if absent:
        assert absent not in found


def test_servant_d_artillerie_carries_munitions_not_the_munitions_capacity(seed_build):
    objects = {s.object.label for s in seed_build.statements if s.subject.label.startswith("Servant")}
    assert objects == {"Artillerie"}


def test_undefined_names_are_discovered(seed_corpus):
    epic = game_lexicon(seed_corpus, "epic")
    defined = {e.name for e in seed_corpus.entries("epic")}
    assert set(epic.labels("ability")) - defined == {"Réacteurs Dorsaux", "Inorganique", "Sans Peur", "Régénération", "Attelage"}


def test_every_seed_edge_has_its_evidence(seed_build):
    for statement in seed_build.statements:
        assert statement.sentence and statement.source and statement.line > 0
        assert statement.method in ("extracted", "curated")
