"""Relation extraction: each relation type from its French cue, the direction of the edge, the
recipient of a grant, conditions as text, and when an ordinary word counts as an ability.

The small sentences here are invented for the tests (abilities Alpha, Garde, Rage, Cri, Vol
plané, Lame, Véloce, Colosse, Chef de meute; Rage is also an ordinary word); the last tests read the seed glossaries
themselves."""

from __future__ import annotations

import pytest

from rulegraph.extract.cues import load_cues
from rulegraph.extract.extractor import discover_terms, discover_undefined, extract_entry, game_lexicon
from rulegraph.extract.lexicon import build_lexicon
from rulegraph.model import WEAPON, Entry, Paragraph
from rulegraph.text import fold

OTHERS = ["Garde", "Rage", "Cri", "Vol plané", "Lame", "Véloce", "Colosse", "Chef de meute"]
CUES = load_cues()


def edges(text: str, *, name: str = "Alpha", category: str = "character", marked: tuple[str, ...] = ()):
    """(subject, relation, object) of every ability-to-ability edge the text yields."""
    return {(s.subject.label, s.relation, s.object.label) for s in statements(text, name=name, category=category, marked=marked)
            if s.object.kind == "ability"}


def statements(text: str, *, name: str = "Alpha", category: str = "character", marked: tuple[str, ...] = ()):
    """Statements of an invented entry; a text of several lines is one paragraph per line."""
    paragraphs = tuple(Paragraph(line, number, marked=marked) for number, line in enumerate(text.split("\n"), start=1))
    entry = Entry(name=name, heading=name, game="jeu", source="regles.md", line=1, category=category, paragraphs=paragraphs)
    lexicon = build_lexicon("jeu", [name, *OTHERS], {"actions": ["Charge"], "characteristics": ["CBT", "DEF"], "states": ["Blessé"],
                                                     "ambiguous": ["Rage"]})
    lexicon.weapons = frozenset({"lame"})
    return extract_entry(entry, lexicon, CUES)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Cette capacité annule Rage.", ("Alpha", "cancels", "Rage")),
        ("Il annule de plus les effets de Vol plané pour les ennemis au contact.", ("Alpha", "negates", "Vol plané")),
        ("Les adversaires proches perdent le bénéfice de Garde.", ("Alpha", "negates", "Garde")),
        # Losing a named ability, without "le bénéfice de": the bearer's own, or the opponents'.
        ("Elle perd alors Garde jusqu’à la fin de la partie.", ("Alpha", "cancels", "Garde")),
        ("Le combattant perd son Cri pour le reste du tour.", ("Alpha", "cancels", "Cri")),
        ("Les ennemis au contact perdent Garde.", ("Alpha", "negates", "Garde")),
        # Phrasings several authors use for a requirement, an exclusion, an immunity, a grant.
        ("Réservée aux figurines dotées de Vol plané.", ("Alpha", "requires", "Vol plané")),
        ("Réservé aux porteurs de Chef de meute.", ("Alpha", "requires", "Chef de meute")),
        ("Ce trait interdit Colosse.", ("Alpha", "excludes", "Colosse")),
        ("Un combattant doté de cette capacité ne peut jamais apprendre Véloce.", ("Alpha", "excludes", "Véloce")),
        ("Un demi-dieu ne peut jamais posséder la capacité Colosse.", ("Alpha", "excludes", "Colosse")),
        ("Les combattants dotés de Garde n’y sont pas sensibles.", ("Garde", "immuneTo", "Alpha")),
        ("Un chef possède d’office Cri.", ("Alpha", "grants", "Cri")),
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


@pytest.mark.parametrize(
    ("game", "undefined"),
    [
        ("epic", {"Réacteurs Dorsaux", "Inorganique", "Sans Peur", "Régénération", "Attelage"}),
        ("confrontation", {"Construct", "Immortel", "Mort-vivant", "Structure", "Énorme"}),
        ("hell-dorado", set()),
    ],
)
def test_undefined_names_are_discovered(seed_corpus, game, undefined):
    lexicon = game_lexicon(seed_corpus, game)
    defined = {fold(e.name) for e in seed_corpus.entries(game)}
    assert {label for label in lexicon.labels("ability") if fold(label) not in defined} == undefined


def test_every_seed_edge_has_its_evidence(seed_build):
    for statement in seed_build.statements:
        assert statement.sentence and statement.source and statement.line > 0
        assert statement.method in ("extracted", "curated")


# --- general phrasings a new glossary uses (sentences invented for these tests) -----------------

@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "n'est pas compatible avec", whichever ability is the subject
        ("Cette capacité n'est pas compatible avec la capacité Garde.", ("Alpha", "excludes", "Garde")),
        ("Un guerrier doté de Garde n'est plus compatible avec Alpha.", ("Alpha", "excludes", "Garde")),
        # "ne se cumulent pas": two abilities named before the cue, the entry among them
        ("Garde et Alpha ne se cumulent jamais.", ("Alpha", "excludes", "Garde")),
        ("Les bonus de Garde et de cette capacité ne se cumulent pas.", ("Alpha", "excludes", "Garde")),
        ("Elle ne peut pas être associée à la capacité Garde.", ("Alpha", "excludes", "Garde")),
        ("Garde ne pourra jamais être combinée avec cette aptitude.", ("Alpha", "excludes", "Garde")),
        ("Cette capacité et Garde ne sont pas cumulables.", ("Alpha", "excludes", "Garde")),
        # requires
        ("Alpha ne s'active qu'en présence d'un allié doté de Garde.", ("Alpha", "requires", "Garde")),
        ("Cette aptitude n'agit qu'à proximité d'un porteur de Garde.", ("Alpha", "requires", "Garde")),
        ("Ne peut être choisie que par un héros qui possède Garde.", ("Alpha", "requires", "Garde")),
        ("Cette capacité n'est utilisable que si le guerrier possède aussi Garde.", ("Alpha", "requires", "Garde")),
        ("Il ne peut s'en servir que s'il possède aussi Garde.", ("Alpha", "requires", "Garde")),
        ("Le porteur relance ses dés uniquement s'il possède Garde.", ("Alpha", "requires", "Garde")),
        ("Il peut relancer un dé à condition de posséder Garde.", ("Alpha", "requires", "Garde")),
        # grants: "considéré comme", "devenir", a copula, "entrer en"
        ("Sur un 6, le porteur est considéré comme Véloce.", ("Alpha", "grants", "Véloce")),
        ("Dès le deuxième tour, il compte comme Véloce.", ("Alpha", "grants", "Véloce")),
        ("Ses compagnons d'armes deviennent Véloces pour un tour.", ("Alpha", "grants", "Véloce")),
        ("Cette monture est Véloce sur route.", ("Alpha", "grants", "Véloce")),
        ("Le porteur entre en Rage à la première blessure.", ("Alpha", "grants", "Rage")),
        ("Un guerrier doté de Garde passe en Alpha quand il recule.", ("Garde", "grants", "Alpha")),
        # another ability acting on this one switches it off on the bearer it faces
        ("Cri rend cette aptitude inefficace.", ("Cri", "negates", "Alpha")),
        ("Cri rend caduque cette capacité.", ("Cri", "negates", "Alpha")),
        ("Le Cri neutralise cette compétence.", ("Cri", "negates", "Alpha")),
        ("La capacité Cri annule les effets de cette capacité.", ("Cri", "negates", "Alpha")),
        ("Le Cri adverse annule cette capacité pour le tour.", ("Cri", "negates", "Alpha")),
        # the opponent's ability
        ("Le porteur ignore la capacité Garde de la cible.", ("Alpha", "negates", "Garde")),
        ("La Garde adverse est ignorée.", ("Alpha", "negates", "Garde")),
        ("Les ennemis à 10 cm : ne peuvent pas utiliser Garde ; ne peuvent plus lancer de sort.", ("Alpha", "negates", "Garde")),
        ("Les adversaires au contact du porteur :\n• ne peuvent pas utiliser la Garde.", ("Alpha", "negates", "Garde")),
        # one's own ability lost: cancels
        ("Il perd le bénéfice de Garde tant qu'il court.", ("Alpha", "cancels", "Garde")),
        ("Alpha prévaut sur Garde : un combattant doté de Garde doit tout de même tester.", ("Alpha", "cancels", "Garde")),
        ("Elle ne peut pas être annulée par Garde.", ("Alpha", "immuneTo", "Garde")),
        ("Ses effets ne peuvent être ni annulés ni dissipés par Garde.", ("Alpha", "immuneTo", "Garde")),
        ("Cette capacité est annulée par Garde.", ("Garde", "negates", "Alpha")),
        ("Cette capacité l’emporte sur la Garde d’un combattant Sonné.", ("Alpha", "cancels", "Garde")),
        # what the ability does does not happen to the bearers of another one
        ("Les guerriers dotés de Garde ne sont jamais repoussés.", ("Garde", "immuneTo", "Alpha")),
        ("Un soldat doté de Garde n'est pas ralenti.", ("Garde", "immuneTo", "Alpha")),
        # a reverse cue read both ways: the other ability named after it, or before it
        ("Cette capacité ne s'applique pas aux figurines dotées de Garde.", ("Garde", "immuneTo", "Alpha")),
        ("Le Cri n'a aucun effet sur lui.", ("Alpha", "immuneTo", "Cri")),
        ("Cri n'affecte jamais le porteur.", ("Alpha", "immuneTo", "Cri")),
        ("Le porteur est protégé contre Cri.", ("Alpha", "immuneTo", "Cri")),
        # more ways to require, exclude and grant
        ("Cette capacité ne peut être utilisée que par une figurine possédant Garde.", ("Alpha", "requires", "Garde")),
        ("Seules les figurines dotées de Garde peuvent utiliser cette capacité.", ("Alpha", "requires", "Garde")),
        ("Un guerrier doté de cette capacité ne peut pas posséder Garde.", ("Alpha", "excludes", "Garde")),
        ("Le porteur possède aussi Garde.", ("Alpha", "grants", "Garde")),
        ("Le porteur est doté de Garde.", ("Alpha", "grants", "Garde")),
        ("Le porteur accorde Garde à ses alliés.", ("Alpha", "grants", "Garde")),
        ("Il offre la capacité Garde aux alliés proches.", ("Alpha", "grants", "Garde")),
        # the bearer cannot benefit from another ability: it does not work on him
        ("Un guerrier mort-vivant ne peut pas bénéficier de Cri.", ("Alpha", "immuneTo", "Cri")),
        ("Les guerriers dotés de Garde ne peuvent pas bénéficier de cette capacité.", ("Garde", "immuneTo", "Alpha")),
        ("Les guerriers dotés de Garde ne peuvent pas utiliser cette capacité.", ("Garde", "excludes", "Alpha")),
        # an army list's exclusions
        ("Ne peut être pris avec Garde.", ("Alpha", "excludes", "Garde")),
        ("Impossible avec une arme dotée de Garde.", ("Alpha", "excludes", "Garde")),
    ],
)
def test_general_french_phrasings_are_typed(text, expected):
    assert expected in edges(text)


@pytest.mark.parametrize(("text", "accepted"), [
    ("Rage ignore complètement cette capacité.", True),
    ("R : Rage n'est jamais affectée par cette capacité.", True),
    ("Rage et colère le gagnent.", False),  # no cue right after: the ordinary word
])
def test_an_ordinary_word_opening_its_sentence_is_the_ability_when_a_cue_follows(text, accepted):
    """Every first word is capitalised, so the capital says nothing there; a cue's verb right
    after the name makes it that verb's subject, which no bare French adjective or noun is."""
    assert any("Rage" in (subject, obj) for subject, _, obj in edges(text)) is accepted


def test_a_common_french_word_one_letter_off_a_name_is_the_word():
    """"Impossible de tirer sous la pluie" is no typo of the ability Impassible; a rarer word one
    letter off still is ("Impassibles" aside, "Impasible" is the name misspelt)."""
    paragraphs = (Paragraph("Impossible de tirer sous la pluie. Elle annule Impasible.", 1),)
    entry = Entry(name="Poudre noire", heading="Poudre noire", game="jeu", source="regles.md", line=1, paragraphs=paragraphs)
    lexicon = build_lexicon("jeu", ["Poudre noire", "Impassible"], {})
    found = [(s.sentence, s.object.label) for s in extract_entry(entry, lexicon, CUES) if s.object.kind == "ability"]
    assert found == [("Elle annule Impasible.", "Impassible")]


@pytest.mark.parametrize(("text", "found"), [
    ("« Pas encore. » — le Chef de meute Sans-Visage", set()),  # who the flavour quote is from
    ("« Je l’entends… » — Rage, gabière.", set()),
    ("« Parole tenue. » — Règle : il ignore la Garde adverse.", {("Alpha", "negates", "Garde")}),
])
def test_a_flavour_quote_s_attribution_names_no_ability(text, found):
    assert edges(text) == found


def test_a_faq_answer_naming_nothing_states_the_relation_of_its_question():
    text = "Q : Alpha et Garde se cumulent-ils ? R : Non, ces deux capacités sont incompatibles."
    found = [s for s in statements(text) if s.object.kind == "ability"]
    assert [(s.subject.label, s.relation, s.object.label, s.sentence) for s in found] == [("Alpha", "excludes", "Garde", text)]


def test_a_faq_answer_is_not_joined_to_a_question_about_two_other_abilities():
    """"ces deux capacités" are then the question's two, not the entry and one of them."""
    text = "Q : Garde et Cri se cumulent-ils ? R : Non, ces deux capacités sont incompatibles."
    assert edges(text) == {("Alpha", "references", "Garde"), ("Alpha", "references", "Cri")}


def test_a_weapon_ignoring_a_named_capacity_negates_it():
    assert edges("Les coups de cette arme ignorent la compétence Garde de la cible.", name="Lame", category=WEAPON) == {("Lame", "negates", "Garde")}


def test_ambiguous_opponent_item_needs_its_list_lead_in():
    """Without the colon's lead-in the item is the bearer's own restriction."""
    assert edges("• ne peuvent pas utiliser la Garde.") == {("Alpha", "excludes", "Garde")}


@pytest.mark.parametrize(
    "text",
    [
        "Si la cible est Véloce, elle relance ses jets.",
        "Tant qu'il est considéré comme Véloce, il ne peut pas tirer.",
        "Un cavalier qui est Véloce relance ses jets.",
        "S'il est doté de Véloce, il relance.",
        "Une monture qui possède aussi Véloce relance ses jets.",
    ],
)
def test_a_copula_in_a_condition_or_relative_clause_grants_nothing(text):
    assert ("Alpha", "grants", "Véloce") not in edges(text)


def test_a_grant_to_the_allies_of_a_list_or_clause_records_them():
    (grant,) = [s for s in statements("Ses alliés deviennent Véloces.") if s.relation == "grants"]
    assert grant.recipient == "ally"


@pytest.mark.parametrize(
    ("text", "present"),
    [
        ("Il combat avec une rage froide.", False),
        ("Il frappe avec rage.", False),
        ("Il est incompatible avec la Rage.", True),
        ("Rage et Vol plané ne se cumulent pas.", True),
        ("Au premier sang, il est considéré comme rage.", True),
    ],
)
def test_an_ordinary_word_after_a_bare_preposition_is_not_the_ability(text, present):
    assert any(obj == "Rage" for _, _, obj in edges(text)) is present


def _discovered(text: str) -> list[str]:
    entry = Entry(name="Alpha", heading="Alpha", game="jeu", source="regles.md", line=1, category="character",
                  paragraphs=(Paragraph(text, 1),))
    known = build_lexicon("jeu", ["Alpha", *OTHERS], {})
    return [name for name, _ in discover_terms([entry], known)]


def _discovered_kinds(text: str) -> list[tuple[str, str]]:
    entry = Entry(name="Alpha", heading="Alpha", game="jeu", source="regles.md", line=1, category="character",
                  paragraphs=(Paragraph(text, 1),))
    return discover_terms([entry], build_lexicon("jeu", ["Alpha", *OTHERS], {}))


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # Without a lexicon file, the context says what a capitalised name is.
        ("Il ne peut jamais être Sonné.", [("Sonné", "state")]),
        # "l'état X" declares a state, whatever other contexts say, in every form of the word.
        ("Il peut retirer l'état Maudit. Les Revenants ne peuvent pas être Maudits.", [("Maudit", "state"), ("Maudits", "state")]),
        ("Une figurine touchée devient Bloquée.", [("Bloquée", "state")]),
        ("La figurine ne peut jamais être En feu.", [("En feu", "state")]),
        ("Si le tir rate, le point d'impact dévie (voir Dispersion).", [("Dispersion", "rule")]),
        ("Les alliés relancent leurs tests (cf. Moral).", [("Moral", "rule")]),
        ("Voir aussi Marche forcée.", [("Marche forcée", "ability")]),
        ("Les porteurs de Masse ou de Hache peuvent en profiter.", [("Masse", "equipment")]),
        ("Relancez un résultat « Blessure grave ».", [("Blessure grave", "term")]),
        ("Un guerrier maudit ne peut jamais être Porte-étendard.", [("Porte-étendard", "ability")]),
        ("Il gagne la capacité Tir de barrage.", [("Tir de barrage", "ability")]),
        # An ability wins over a weaker reading of the same name elsewhere.
        ("Voir Marche forcée. Il gagne la capacité Marche forcée.", [("Marche forcée", "ability")]),
        # An abbreviation written with a number is a characteristic, even after "devient".
        ("La PA de l'arme s'améliore (PA 4 devient PA 3).", [("PA", "characteristic")]),
        ("Il subit –1 CT et devient CT.", [("CT", "characteristic")]),
        # A capitalised abbreviation never written with a number stays what its context says.
        ("Il gagne la capacité PSY.", [("PSY", "ability")]),
    ],
)
def test_a_discovered_name_is_typed_by_its_context(text, found):
    assert _discovered_kinds(text) == found


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Un guerrier doté de la capacité Écran mental est protégé.", ["Écran mental"]),
        ("Il ignore la capacité Carapace de la cible.", ["Carapace"]),
        ("Il gagne la capacité Tir de barrage.", ["Tir de barrage"]),
        ("Les figurines ayant Peau d'écorce ne peuvent pas charger.", ["Peau d'écorce"]),
        ("Voir aussi Marche forcée.", ["Marche forcée"]),
        ("Voir Hurlement lugubre, page 12.", ["Hurlement lugubre"]),
        ("Il recule (voir Marche forcée).", ["Marche forcée"]),
        ("Il peut voir Marche forcée de loin.", []),
        ("Un combattant doté de la capacité Garde renforcée recule.", []),
        ("Les guerriers Sans merci ne reculent pas.", ["Sans merci"]),
        ("Il attaque Sans retenue aucune.", ["Sans retenue"]),
        ("Elle fonctionne comme la capacité Tir magique du livre de base.", ["Tir magique"]),
        ("Il gagne la capacité Nage rapide du manuel de base.", ["Nage rapide"]),
        ("Elle ne se cumule point avec la capacité Élan du supplément gallois.", ["Élan"]),
        ("Il est réparé par la capacité Nano-essaim présentée dans l'extension Oni.", ["Nano-essaim"]),
    ],
)
def test_discovered_names_stop_at_function_words_and_verbs(text, names):
    assert _discovered(text) == names


def test_a_cross_reference_is_a_references_edge():
    assert edges("Voir aussi Vol plané.") == {("Alpha", "references", "Vol plané")}



def test_a_pair_typed_in_a_sentence_gets_no_extra_reference_from_the_same_sentence(build_markdown):
    result = build_markdown("## Capacités\n\n### Venin X\n\nUn combattant Colosse est immunisé à cette capacité à moins que "
        "le porteur de Venin soit aussi Colosse.\n\n### Colosse\n\nIl est grand.\n")
    statements = result.statements
    pairs = [(s.subject.label, s.relation, s.object.label) for s in statements if s.object.kind == "ability"]
    assert pairs == [("Colosse", "immuneTo", "Venin")]


def _discovered_with(text: str, vocabulary: dict) -> list[str]:
    entry = Entry(name="Alpha", heading="Alpha", game="jeu", source="regles.md", line=1, category="character",
                  paragraphs=(Paragraph(text, 1),))
    return discover_undefined([entry], build_lexicon("jeu", ["Alpha", *OTHERS], vocabulary))


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("En fin de tour, il obtient Frénésie sanglante.", ["Frénésie sanglante"]),
        ("Il reçoit Peau de pierre jusqu'à la fin du tour.", ["Peau de pierre"]),
        ("Ses alliés reçoivent Hurlement.", ["Hurlement"]),
        ("Il dispose en outre de Pas de loup.", ["Pas de loup"]),
        ("Il se voit attribuer Vigilance.", ["Vigilance"]),
        ("Un guerrier maudit ne peut jamais être Porte-étendard.", ["Porte-étendard"]),
        ("Blessé, il devient un Revenant.", ["Revenant"]),
        ("Il obtient un bonus de tir.", []),
        ("Il devient un Colosse.", []),
    ],
)
def test_a_capitalised_phrase_after_a_bearer_grant_or_copula_is_an_undefined_ability(text, names):
    assert _discovered(text) == names


def test_a_term_of_the_lexicon_file_after_a_grant_is_not_an_ability():
    vocabulary = {"actions": ["Assaut"], "concepts": ["Test de Moral"], "states": ["Démoralisé"]}
    text = "Il obtient Assaut ; il reçoit Test de Moral ; il ne peut pas être Démoralisé."
    assert _discovered_with(text, vocabulary) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # grants
        ("Il obtient Vol plané.", {("Alpha", "grants", "Vol plané")}),
        ("Le porteur reçoit Garde jusqu'à la fin du tour.", {("Alpha", "grants", "Garde")}),
        ("Il dispose en outre de Garde et de Cri.", {("Alpha", "grants", "Garde"), ("Alpha", "grants", "Cri")}),
        ("Le porteur dispose de plus de Garde.", {("Alpha", "grants", "Garde")}),
        ("Au troisième tour, le porteur devient un Colosse.", {("Alpha", "grants", "Colosse")}),
        ("Le porteur se voit attribuer Garde.", {("Alpha", "grants", "Garde")}),
        ("Il se voit conférer la capacité Garde.", {("Alpha", "grants", "Garde")}),
        ("S'il reçoit Garde, il recule d'un pas.", {("Alpha", "references", "Garde")}),
        # excludes
        ("Cette capacité et Garde ne vont pas ensemble.", {("Alpha", "excludes", "Garde")}),
        ("Garde et cette capacité ne se prennent jamais ensemble.", {("Alpha", "excludes", "Garde")}),
        ("Un combattant n'a jamais à la fois Garde et cette capacité.", {("Alpha", "excludes", "Garde")}),
        ("Le joueur choisit soit cette capacité soit Garde.", {("Alpha", "excludes", "Garde")}),
        ("Cette capacité ou Garde, l'une ou l'autre au choix.", {("Alpha", "excludes", "Garde")}),
        ("Un combattant doté de cette capacité ne peut jamais être Chef de meute.", {("Alpha", "excludes", "Chef de meute")}),
        ("Un porteur de Garde ne hurle pas : les deux capacités ne se cumulent pas.", {("Alpha", "excludes", "Garde")}),
        # immuneTo
        ("Les porteurs de Garde ne peuvent jamais être ciblés.", {("Garde", "immuneTo", "Alpha")}),
        ("Les combattants dotés de Garde ne peuvent pas être défiés par cette capacité.", {("Garde", "immuneTo", "Alpha")}),
        ("Les Colosses ne sont jamais renversés par cette capacité.", {("Colosse", "immuneTo", "Alpha")}),
        ("Les figurines dotées de Garde restent indifférentes à cette capacité.", {("Garde", "immuneTo", "Alpha")}),
        ("Les figurines dotées de Garde restent de marbre face à cette capacité.", {("Garde", "immuneTo", "Alpha")}),
        # negates / cancels
        ("Si un adversaire possède Garde, cette capacité reste sans effet.", {("Garde", "negates", "Alpha")}),
        ("Si la cible dispose de Garde, cette capacité n'a aucun effet.", {("Garde", "negates", "Alpha")}),
        ("L'attaque est annulée si la cible possède Garde.", {("Garde", "negates", "Alpha")}),
        ("Le porteur perd les effets de Rage.", {("Alpha", "cancels", "Rage")}),
        ("L'allié soigné perd aussitôt les effets de Rage.", {("Alpha", "negates", "Rage")}),
        # requires
        ("Seuls les Colosses peuvent utiliser cette capacité.", {("Alpha", "requires", "Colosse")}),
        ("Seuls un Colosse ou un Véloce peuvent se servir de cette compétence.",
         {("Alpha", "requires", "Colosse"), ("Alpha", "requires", "Véloce")}),
        ("Sans Garde, cette capacité ne sert à rien.", {("Alpha", "requires", "Garde")}),
        ("Sans Garde, cette capacité est sans effet.", {("Alpha", "requires", "Garde")}),
        ("Sans Garde, cette capacité ne fonctionne pas.", {("Alpha", "requires", "Garde")}),
        ("Ce tir est impossible sans Garde.", {("Alpha", "requires", "Garde")}),
        ("Pas de repli possible si l'unité ne compte aucun Colosse.", {("Alpha", "requires", "Colosse")}),
        # mutuallyCancels
        ("Face à un adversaire doté de Garde, aucun des deux bonus ne s'applique.", {("Alpha", "mutuallyCancels", "Garde")}),
        ("Quand les deux se croisent, cette capacité et Garde se neutralisent.", {("Alpha", "mutuallyCancels", "Garde")}),
    ],
)
def test_general_french_constructions_of_each_relation(text, expected):
    assert edges(text) == expected


def test_an_ordinary_word_that_is_the_entry_s_own_name_stands_for_the_entry():
    text = "Les figurines dotées de Garde restent de marbre face à la rage."
    assert edges(text, name="Rage") == {("Garde", "immuneTo", "Rage")}


def test_evidence_and_notes_point_at_the_line_of_their_sentence_in_a_multiline_paragraph(build_markdown):
    result = build_markdown("## Capacités\n\n### Toile X\n\nLa toile colle.\nUne Nuée ne peut pas être prise dans une Toile.\n"
        "Elle mentionne le Vol. => trop fort ?\n\n### Vol\n\nIl vole.\n\n### Nuée\n\nElle grouille.\n")
    lines = {(s.object.label if s.subject.label == "Toile" else s.subject.label): s.line
             for s in result.statements if s.object.kind == "ability"}
    assert lines == {"Nuée": 6, "Vol": 7}
    (note,) = [n for e in result.corpus.entries() for n in e.notes]
    assert note.line == 7


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The passive agent acts on the entry, whatever the switch-off participle.
        ("Cette capacité est rendue inefficace par un Cri ennemi.", {("Cri", "negates", "Alpha")}),
        ("Ce pouvoir est rendu caduc par Garde.", {("Garde", "negates", "Alpha")}),
        ("Le hurlement est déjoué par un combattant doté de Garde.", {("Garde", "negates", "Alpha")}),
        ("Ses effets sont neutralisés par Garde.", {("Garde", "negates", "Alpha")}),
        # Another ability (or its bearer) is the subject of a switch-off verb whose object is the entry.
        ("Un combattant possédant Garde déjoue cette capacité.", {("Garde", "negates", "Alpha")}),
        # A negation of the effect, by structure.
        ("Les porteurs de Garde ne craignent pas cette capacité.", {("Garde", "immuneTo", "Alpha")}),
        ("Le porteur ne craint jamais le Cri.", {("Alpha", "immuneTo", "Cri")}),
        ("Sans effet contre un combattant doté de Garde.", {("Garde", "immuneTo", "Alpha")}),
        ("Les combattants ennemis ne bénéficient pas de Garde.", {("Alpha", "negates", "Garde")}),
        ("Il prive les adversaires au contact de leur Garde.", {("Alpha", "negates", "Garde")}),
        ("Les effets du Cri ne s'appliquent pas à lui.", {("Alpha", "immuneTo", "Cri")}),
        ("Le porteur ne hurle pas avec Garde.", {("Alpha", "references", "Garde")}),
        # Coordination.
        ("Un combattant ne peut pas être à la fois Alpha et Véloce.", {("Alpha", "excludes", "Véloce")}),
        ("Le porteur ne peut pas avoir Garde et cette capacité à la fois.", {("Alpha", "excludes", "Garde")}),
        ("Il neutralise Garde et se trouve neutralisé par elle.", {("Alpha", "mutuallyCancels", "Garde")}),
        ("Contre Garde, cette capacité est inefficace, et réciproquement.", {("Alpha", "mutuallyCancels", "Garde")}),
        ("Face à Garde, aucune des deux ne s'applique.", {("Alpha", "mutuallyCancels", "Garde")}),
        # Requirement.
        ("Cette capacité n'est accessible qu'à un combattant doté à la fois de Garde et de Cri.",
         {("Alpha", "requires", "Garde"), ("Alpha", "requires", "Cri")}),
        ("Ce pouvoir n'est disponible que pour les combattants dotés de Garde.", {("Alpha", "requires", "Garde")}),
        ("Seuls les Colosses peuvent hurler ainsi.", {("Alpha", "requires", "Colosse")}),
        ("Seul le porteur peut voir Garde.", {("Alpha", "references", "Garde")}),
        # A grant's recipient is no granted ability.
        ("Il confère Garde à un Colosse allié.", {("Alpha", "grants", "Garde"), ("Alpha", "references", "Colosse")}),
        ("Il accorde Cri aux Véloces amis.", {("Alpha", "grants", "Cri"), ("Alpha", "references", "Véloce")}),
        ("Il gagne également Garde jusqu'à la fin du tour.", {("Alpha", "grants", "Garde")}),
    ],
)
def test_structural_readings_of_unseen_phrasings(text, expected):
    assert edges(text) == expected


def test_a_grant_recipient_after_a_is_recorded_as_an_ally():
    (grant,) = [s for s in statements("Il confère Garde à un Colosse ami.") if s.relation == "grants"]
    assert grant.recipient == "ally"


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Il frappe fort. Cumulable avec Peau de fer.", ["Peau de fer"]),
        ("Non cumulable avec Bouclier.", ["Bouclier"]),
        ("Blessé, il gagne également Régénération.", ["Régénération"]),
        ("Avec Bouclier, il frappe.", []),
        ("Il se bat avec Bouclier levé.", []),
    ],
)
def test_a_capitalised_name_after_cumulable_avec_or_gagne_is_discovered(text, names):
    assert _discovered(text) == names


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Un porteur de Garde annule toujours et sans condition les effets de cette capacité.", {("Garde", "negates", "Alpha")}),
        ("Les combattants dotés de Garde neutralisent aussitôt et pour tout le tour cette capacité.", {("Garde", "negates", "Alpha")}),
        ("Cette capacité annule toujours et sans condition les effets de Garde.", {("Alpha", "cancels", "Garde")}),
        ("Un porteur de Garde annule la charge si la cible possède cette capacité.", {("Alpha", "references", "Garde")}),
    ],
)
def test_the_ability_named_as_the_object_of_another_ability_s_clause_undergoes_it(text, expected):
    assert edges(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Les porteurs de Garde ne s'en ressentent aucunement.", {("Garde", "immuneTo", "Alpha")}),
        ("Une figurine dotée de Garde ne se laisse jamais affecter.", {("Garde", "immuneTo", "Alpha")}),
        ("Tant que le porteur hurle, Garde ne fonctionne plus.", {("Alpha", "cancels", "Garde")}),
        ("Pour les ennemis au contact, Garde ne fonctionne plus.", {("Alpha", "negates", "Garde")}),
        ("Le porteur n'est nullement touché par le Cri.", {("Alpha", "immuneTo", "Cri")}),
        # A plain negation with no effect word types nothing.
        ("Le porteur ne recule pas devant Garde.", {("Alpha", "references", "Garde")}),
        ("Les porteurs de Garde ne hurlent jamais.", {("Alpha", "references", "Garde")}),
    ],
)
def test_a_mention_in_a_clause_negating_an_effect_is_typed_by_where_it_stands(text, expected):
    assert edges(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Cette capacité annule Garde pour les ennemis. Elle fonctionne aussi contre le Cri.",
         {("Alpha", "negates", "Garde"), ("Alpha", "negates", "Cri")}),
        ("Les porteurs de Garde sont immunisés contre cette capacité. Cela vaut aussi pour le Cri.",
         {("Garde", "immuneTo", "Alpha"), ("Cri", "immuneTo", "Alpha")}),
        ("Elle fonctionne aussi contre le Cri.", {("Alpha", "references", "Cri")}),
    ],
)
def test_a_sentence_that_extends_the_previous_one_takes_its_relation(text, expected):
    assert edges(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Un Colosse ne peut pas être pris dans cette capacité.", {("Colosse", "immuneTo", "Alpha")}),
        ("Un Colosse ne peut jamais être renversé par cette capacité.", {("Colosse", "immuneTo", "Alpha")}),
    ],
)
def test_a_negated_passive_after_a_modal_makes_its_subject_immune(text, expected):
    assert edges(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Placez deux jetons : ils possèdent Garde, mais pas Cri.", {("Alpha", "grants", "Garde"), ("Alpha", "references", "Cri")}),
        ("Ses alliés possèdent Garde jusqu'à la fin du tour.", {("Alpha", "grants", "Garde")}),
        ("Un combattant qui possède Garde recule.", {("Alpha", "references", "Garde")}),
        ("S'il possède Garde, il recule.", {("Alpha", "references", "Garde")}),
    ],
)
def test_possess_as_a_main_verb_grants(text, expected):
    assert edges(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Si le porteur ne dispose pas de Garde, cette capacité reste sans effet.", {("Alpha", "requires", "Garde")}),
        ("Lorsque la figurine ne possède pas la capacité Garde, cette capacité ne fonctionne pas.", {("Alpha", "requires", "Garde")}),
        ("Tant qu'aucun allié n'a Garde, cette capacité ne sert à rien.", {("Alpha", "requires", "Garde")}),
        # Not negated: the ability named in the condition switches this one off.
        ("Si la cible possède Garde, cette capacité ne fonctionne pas.", {("Garde", "negates", "Alpha")}),
    ],
)
def test_a_negated_condition_before_a_switch_off_is_a_requirement(text, expected):
    assert edges(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Le porteur soigne ses blessures, même s'il possède aussi Garde.",
        "Il ne recule jamais, même si la cible est dotée de Garde.",
    ],
)
def test_a_concession_grants_nothing_and_is_no_condition(text):
    found = [s for s in statements(text) if s.object.kind == "ability"]
    assert {(s.subject.label, s.relation, s.object.label) for s in found} == {("Alpha", "references", "Garde")}
    assert all(s.condition is None for s in found)


@pytest.mark.parametrize(
    ("text", "recipient"),
    [
        ("Le guerrier béni bénéficie également de Garde.", "bearer"),
        ("L'adversaire visé est frappé de Rage jusqu'à la fin du tour.", "opponent"),
        ("Une figurine ennemie touchée est saisie de Garde.", "opponent"),
        ("Le combattant adverse est atteint de Cri.", "opponent"),
    ],
)
def test_a_state_inflicted_or_enjoyed_is_a_grant_with_its_recipient(text, recipient):
    found = [s for s in statements(text) if s.object.kind == "ability"]
    assert [(s.relation, s.recipient) for s in found] == [("grants", recipient)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ce sortilège empêche tout jet de Garde et de Cri.", {("Alpha", "negates", "Garde"), ("Alpha", "negates", "Cri")}),
        ("Cette capacité empêche aussi toute utilisation de Garde.", {("Alpha", "negates", "Garde")}),
    ],
)
def test_preventing_any_roll_of_an_ability_negates_it(text, expected):
    assert edges(text) == expected


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Il lance son arme (voir Lancer à l'épieu).", ["Lancer à l'épieu"]),
        ("Il frappe, voir Combat à la hache.", ["Combat à la hache"]),
        ("Voir Maître de la forge.", ["Maître de la forge"]),
        ("Voir Tir aux pigeons.", ["Tir aux pigeons"]),
        # The phrase must close there: a name followed by more words stops before "de la".
        ("La capacité Bouclier de la cible est ignorée.", ["Bouclier"]),
    ],
)
def test_a_discovered_name_runs_over_an_article_link_that_closes_the_phrase(text, names):
    assert _discovered(text) == names


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("À fusionner avec l'ancienne capacité Tir en cloche de la v0.5 ?", ["Tir en cloche"]),
        ("Il gagne la capacité Frappe à revers.", ["Frappe à revers"]),
        # A bare link needs a content word after it, and no locution ("en cas de", "à moins").
        ("Il gagne la capacité Esquive en cas de charge.", ["Esquive"]),
        ("Il gagne la capacité Esquive en mêlée.", ["Esquive"]),
        ("Il perd la capacité Esquive à chaque tour.", ["Esquive"]),
        # Whose the ability is, not its name.
        ("Ne se cumule pas avec la capacité Régénération des créatures de verre.", ["Régénération"]),
        # Nor does an indefinite determiner after "de" start a name's second word.
        ("Ne se cumule pas avec la capacité Régénération de certains Automates.", ["Régénération"]),
        ("Il ignore la capacité Armure de plusieurs adversaires.", ["Armure"]),
        # A parameter after a name is no part of it.
        ("Ils ignorent la capacité Blindé X de la cible.", ["Blindé"]),
        ("Il gagne la capacité Armure 2 pour le tour.", ["Armure"]),
    ],
)
def test_a_discovered_name_goes_on_through_en_or_a_and_stops_before_its_bearers_or_parameter(text, names):
    assert _discovered(text) == names

def test_a_name_seen_alone_first_still_goes_on_through_a_link():
    """"voir Tir" first, then "la capacité Tir en cloche": two names, not "Tir" twice."""
    entry = Entry(name="Alpha", heading="Alpha", game="jeu", source="regles.md", line=1, category="character",
                  paragraphs=(Paragraph("Il recharge (voir Tir).", 1),
                              Paragraph("Il remplace la capacité Tir en cloche.", 2),
                              Paragraph("Les créatures dotées de Vol ne tombent pas.", 3),
                              Paragraph("Les créatures dotées de Vol touchées par lui tombent.", 4)))
    found = discover_terms([entry], build_lexicon("jeu", ["Alpha", *OTHERS], {}))
    assert [name for name, _ in found] == ["Tir", "Tir en cloche", "Vol"]


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Ce poison est traité par Antidote sacré.", ["Antidote sacré"]),
        ("Elle se cumule avec Peau de fer.", ["Peau de fer"]),
    ],
)
def test_a_name_after_traite_par_or_se_cumule_avec_is_discovered(text, names):
    assert _discovered(text) == names


@pytest.mark.parametrize(
    "text",
    [
        "Contre un porteur de Garde, cette capacité est perdue, et réciproquement.",
        "Face à un Colosse, cette capacité est annulée, et inversement.",
    ],
)
def test_a_loss_said_to_hold_the_other_way_too_is_a_mutual_cancel(text):
    assert {relation for _, relation, _ in edges(text)} == {"mutuallyCancels"}


@pytest.mark.parametrize(
    ("sentence", "relations"),
    [
        ("Un porteur de cette capacité ne peut jamais devenir Berserk.", {"excludes"}),
        # "même blessé": Berserk, which a wound would trigger, is switched off on the bearer.
        ("Le porteur n'obtient pas Berserk, même blessé.", {"excludes", "cancels"}),
        ("Le porteur ne peut pas acquérir Berserk.", {"excludes"}),
    ],
)
def test_a_grant_said_in_the_negative_is_never_a_grant(build_markdown, sentence, relations):
    result = build_markdown(f"## Capacités\n\n### Sérénité\n\n{sentence}\n\n### Berserk\n\nIl enrage.\n")
    # The typer's decision: asserted, or suggested on an edge left "à vérifier".
    edges = [(s.subject.label, s.suggested or s.relation, s.object.label) for s in result.statements
             if s.object.kind == "ability"]
    assert len(edges) == 1 and edges[0][0::2] == ("Sérénité", "Berserk") and edges[0][1] in relations


def test_a_grant_with_a_negation_elsewhere_in_the_clause_still_grants(build_markdown):
    result = build_markdown("## Capacités\n\n### Sérénité\n\nUn porteur qui ne bouge pas devient Berserk.\n\n"
                        "### Berserk\n\nIl enrage.\n")
    # The typer's decision: asserted, or suggested on an edge left "à vérifier".
    edges = [(s.subject.label, s.suggested or s.relation, s.object.label) for s in result.statements
             if s.object.kind == "ability"]
    assert edges == [("Sérénité", "grants", "Berserk")]


def test_a_word_inside_a_name_is_no_negation(build_markdown):
    """"Pas de velours", "Plus fort que la mort": a negation word that belongs to a name negates
    nothing ("Confère Pas de velours" is a grant, not "ne confère pas")."""
    result = build_markdown("## Capacités\n\n### Shinobi\n\nConfère Pas de velours et Plus fort que la mort.\n\n"
                            "### Pas de velours\n\nIl se déplace sans bruit.\n\n### Plus fort que la mort\n\nIl survit.\n")
    edges = {(s.subject.label, s.suggested or s.relation, s.object.label) for s in result.statements if s.object.kind == "ability"}
    assert edges == {("Shinobi", "grants", "Pas de velours"), ("Shinobi", "grants", "Plus fort que la mort")}


@pytest.mark.parametrize(
    ("sentence", "amount"),
    [
        ("Il ne reçoit pas le malus de charge (qui est normalement de -1 CBT).", None),
        ("Il ne subit jamais le malus de -2 DEF en terrain difficile.", None),
        ("Il reçoit un malus de -1 CBT durant la passe d'armes.", "-1"),
    ],
)
def test_an_amount_the_ability_spares_is_not_imposed(sentence, amount):
    entry = Entry(name="Alpha", heading="Alpha", game="jeu", source="regles.md", line=1, category="character",
                  paragraphs=(Paragraph(sentence, 1),))
    lexicon = build_lexicon("jeu", ["Alpha"], {"characteristics": ["CBT", "DEF"]})
    modifies = [s for s in extract_entry(entry, lexicon, load_cues()) if s.relation == "modifies"]
    assert [s.amount for s in modifies] == [amount]


def test_a_word_used_alone_and_as_the_start_of_a_known_name_stays_a_rule_section():
    """"voir Charge" in one entry, "gagne Charge furieuse" in another: Charge is not an ability."""
    entries = [Entry(name=name, heading=name, game="jeu", source="regles.md", line=line, category="character",
                     paragraphs=(Paragraph(text, line),))
               for line, (name, text) in enumerate([("Charge furieuse", "Sans effet si la charge est désordonnée (voir Charge)."),
                                                    ("Frénésie", "Sur 4+, l'unité gagne Charge furieuse jusqu'à la fin du tour.")], start=1)]
    known = build_lexicon("jeu", ["Charge furieuse", "Frénésie"], {})
    assert discover_terms(entries, known) == [("Charge", "rule")]
    assert discover_terms(entries[::-1], known) == [("Charge", "rule")]


@pytest.mark.parametrize(
    ("text", "linked"),
    [
        # Two or three capitals beside the ability "Cri" are a characteristic's abbreviation...
        ("Il réussit un test de CRI contre X, sinon il recule.", False),
        ("Les amis proches peuvent utiliser la CRI du chef.", False),
        # ...the name written as the glossary writes it is the ability...
        ("Il ignore le Cri des adversaires.", True),
        # ...and longer capitals are emphasis.
        ("Toute créature énorme cause la RAGE, à moins que son profil n'en dispose autrement.", True),
    ],
)
def test_a_short_word_in_capitals_is_an_abbreviation_not_the_ability(text, linked):
    objects = {obj for _subject, _relation, obj in edges(text)}
    assert ("Cri" in objects or "Rage" in objects) is linked


@pytest.mark.parametrize("sentence", ["En cas d'échec, la cible devient _Possédée_.", "Ces Larves sont Possédées.",
                                      "Seule une figurine Possédée peut l'utiliser."])
def test_an_ability_named_like_a_participle_is_found_in_the_feminine_and_plural(build_markdown, sentence):
    """"devient Possédée" names the glossary's Possédé: no new state "Possédée" beside it."""
    result = build_markdown(f"## Capacités\n\n### Possédé\n\nIl obéit à l'ennemi.\n\n### Murmures\n\n{sentence}\n")
    assert [(s.subject.label, s.object.kind, s.object.label) for s in result.statements] == [
        ("Murmures", "ability", "Possédé")]


def test_a_name_ending_in_ee_keeps_apart_from_its_root(build_markdown):
    """The feminine is written out only for names ending in é: Volée stays apart from Vol."""
    result = build_markdown("## Capacités\n\n### Vol\n\nIl vole.\n\n### Volée\n\nTire une volée.\n\n"
                            "### Esprit\n\nIl a les capacités Esprit et Vol.\n")
    assert {(s.subject.label, s.object.label) for s in result.statements if s.object.kind == "ability"} == {("Esprit", "Vol")}


def test_an_emphasised_undefined_name_ends_where_the_emphasis_ends(build_markdown):
    """"la capacité _Nage_ du livre de base" names Nage; unmarked, a name goes on in lower case."""
    result = build_markdown("# T\n\n### Nageur\n\nFonctionne comme la capacité _Nage_ du livre de base, sans jet.\n\n"
                            "### Plongeur\n\nFonctionne comme la capacité Apnée profonde, sans limite.\n")
    assert sorted(s.object.label for s in result.statements if s.object.kind == "ability") == ["Apnée profonde", "Nage"]


def test_a_question_with_the_subject_after_its_verb_ends_the_name(build_markdown):
    """"Un Sans âme peut-il …?" is about Sans âme, not an ability "Sans âme peut-il"."""
    result = build_markdown("# T\n\n### Sans âme\n\nIl ne ressent rien.\n\n"
                            "### Chef\n\nIl commande. Un Sans âme peut-il le suivre ? Oui.\n")
    assert [(s.subject.label, s.object.label) for s in result.statements] == [("Chef", "Sans âme")]


def test_a_category_titled_like_a_section_is_named_with_an_article(tmp_path):
    """"une capacité de la Voie de l'Ombre": a section titled "Voie de l'Ombre" (no ability noun
    in its title) is named by an ability noun, "de la" and its title; the sentence reaches every
    ability of the section."""
    from rulegraph.build import build

    path = tmp_path / "voies.txt"
    path.write_text("LES VOIES\n\nVoie du Sabre\n\n- Bushidō : Le combattant ne recule jamais. Un combattant doté de "
                    "Bushidō ne peut jamais apprendre une capacité de la Voie de l’Ombre.\n\n- Kiai : Il crie.\n\n"
                    "Voie de l'Ombre\n\n- Furtivité : Il se cache.\n\n- Poison : Sa lame empoisonne.\n", encoding="utf-8")
    result = build(files=[path], game="Jeu", format="chapter")
    edges = {(s.subject.label, s.suggested or s.relation, s.object.label) for s in result.statements if s.object.kind == "ability"}
    assert edges == {("Bushidō", "excludes", "Furtivité"), ("Bushidō", "excludes", "Poison")}


def test_an_undefined_ability_a_designer_note_names_is_a_reference(build_markdown):
    """"=> cumulable avec la capacité Endurance ?": Endurance is named nowhere else."""
    result = build_markdown("# T\n\n### Caparaçonné\n\nLe cheval porte une armure.\n=> cumulable avec la capacité Endurance ?\n")
    assert [(s.subject.label, s.relation, s.object.label, s.object.kind) for s in result.statements] == [
        ("Caparaçonné", "references", "Endurance", "ability")]


def test_a_name_in_lower_case_after_a_determiner_is_the_ordinary_word(build_markdown):
    """"un automate ami": Automate is a glossary entry and a French word; written in lower case
    after a determiner, it is the word, unless the context says ability."""
    result = build_markdown("# T\n\n### Automate\n\nLe combattant est une machine.\n\n"
                            "### Mécano\n\nIl répare un automate ami à son contact.\n\n"
                            "### Golem\n\nIl gagne la capacité Automate.\n")
    assert [(s.subject.label, s.object.label) for s in result.statements if s.object.kind == "ability"] == [("Golem", "Automate")]


def test_a_name_the_texts_test_against_is_a_characteristic_not_an_undefined_ability(build_markdown):
    """"Voir aussi Moral." alone would make Moral an undefined ability; "un test de Moral" elsewhere
    says it is what rolls are made against: a characteristic, with no ability edge."""
    from rulegraph.build import summary

    result = build_markdown("## Capacités\n\n### Discipline\n\nLe combattant relance un test de Moral raté. Voir aussi Moral.\n\n"
                            "### Lâche\n\nIl doit réussir un jet de Moral avant de charger.\n")
    assert not any(s.object.label == "Moral" and s.object.kind == "ability" for s in result.statements)
    assert "Moral" not in summary(result)["Jeu"]["undefined"]


def test_a_name_in_lower_case_after_a_determiner_is_a_figure_not_the_ability(build_markdown):
    """"Le tanuki se change en bouilloire": the figure, not the ability Tanuki, even though
    "tanuki" is no French word; "doté de Tanuki" is the ability."""
    result = build_markdown("## Capacités\n\n### Tanuki\n\nCe yokai change de forme.\n\n"
                            "### Bouilloire\n\nLe tanuki se change en bouilloire.\n\n"
                            "### Ventre\n\nUn combattant doté de Tanuki tambourine.\n")
    linked = {(s.subject.label, s.object.label) for s in result.statements if s.object.kind == "ability"}
    assert ("Bouilloire", "Tanuki") not in linked and ("Ventre", "Tanuki") in linked


def test_a_designers_arrow_that_says_gives_grants(build_markdown):
    """A document whose arrows follow the end of a phrase ("Alliés à 6 ps → Transe"): each arrow
    gives the ability after it; a wiki's arrows after "à", "avec" link, and grant nothing."""
    gives = build_markdown("## Capacités\n\n### Tambour\n\nAlliés à 6 ps → Transe.\n\n### Esprit-loup\n\nTotem. → Pisteur.\n\n"
                           "### Souffle\n\nChaque fig. touchée → Gelure.\n\n### Transe\n\nFrappe.\n\n### Pisteur\n\nSuit.\n\n"
                           "### Gelure\n\nGèle.\n")
    assert {(s.subject.label, s.relation, s.object.label) for s in gives.statements if s.relation == "grants"} == {
        ("Tambour", "grants", "Transe"), ("Esprit-loup", "grants", "Pisteur"), ("Souffle", "grants", "Gelure")}
    links = build_markdown("## Capacités\n\n### Garde\n\nImmunisé à → Transe. Incompatible avec → Pisteur. Ignore → Gelure.\n\n"
                           "### Transe\n\nFrappe.\n\n### Pisteur\n\nSuit.\n\n### Gelure\n\nGèle.\n")
    assert not [s for s in links.statements if s.relation == "grants"]


def test_a_telegraphic_immunity_line_names_what_the_ability_is_immune_to(build_markdown):
    """"Immunité : Peur." in a designer's notes: Peur is an ordinary French word, named here as
    the ability the bearer is immune to."""
    result = build_markdown("## Capacités\n\n### Bravoure\n\nImmunité : Peur.\n\n### Peur\n\nFait fuir.\n")
    assert [(s.subject.label, s.suggested or s.relation, s.object.label) for s in result.statements
            if s.object.kind == "ability"] == [("Bravoure", "immuneTo", "Peur")]


@pytest.mark.parametrize("sentence", ["Il est incompatible avec au moins deux capacités de la Voie de l’Ombre.",
                                      "Il est incompatible avec une seule capacité de la Voie de l’Ombre au choix.",
                                      "Il est incompatible avec une capacité de la Voie de l’Ombre au choix.",
                                      "Il gagne +1 en Capacité de la Voie de l’Ombre.",
                                      "En campagne, il peut choisir une capacité de la Voie de l’Ombre supplémentaire."])
def test_a_count_or_a_choice_among_a_category_speaks_of_no_single_member(tmp_path, sentence):
    """"au moins deux autres dons du barde", "une seule compétence de X au choix": some of the
    category's abilities, not each of them, so no edge reaches each member; a sentence about
    all of them still does (see the test above)."""
    from rulegraph.build import build

    path = tmp_path / "voies.txt"
    path.write_text(f"LES VOIES\n\nVoie du Sabre\n\n- Kiai : Il crie. {sentence}\n\n- Bushidō : Il ne recule jamais.\n\n"
                    "Voie de l'Ombre\n\n- Furtivité : Il se cache.\n\n- Poison : Sa lame empoisonne.\n", encoding="utf-8")
    result = build(files=[path], game="Jeu", format="chapter")
    assert [s for s in result.statements if s.object.kind == "ability"] == []
    control = tmp_path / "controle.txt"
    control.write_text(path.read_text(encoding="utf-8").replace(sentence, "Il est incompatible avec les capacités de la Voie de l’Ombre."),
                       encoding="utf-8")
    every = build(files=[control], game="Jeu", format="chapter")
    assert {s.object.label for s in every.statements if s.object.kind == "ability"} == {"Furtivité", "Poison"}
    denied = tmp_path / "aucune.txt"
    denied.write_text(path.read_text(encoding="utf-8").replace(sentence, "Il ne peut jamais apprendre une capacité de la Voie de l’Ombre."),
                      encoding="utf-8")
    none_of_them = build(files=[denied], game="Jeu", format="chapter")
    assert {s.object.label for s in none_of_them.statements if s.object.kind == "ability"} == {"Furtivité", "Poison"}


def test_a_capitalised_phrase_a_reference_calls_a_rule_is_no_undefined_ability(build_markdown):
    """"met Hors de combat" hints at a name by its capital; "(voir Hors de combat)" says it is a
    rule section: no ability edge, no undefined ability. Alone, the capital still makes one
    ("immunisé à la Peur et Sans Pitié")."""
    from rulegraph.build import summary

    result = build_markdown("## Capacités\n\n### Coup de grâce\n\nLe héros met Hors de combat un ennemi À terre.\n\n"
                            "### Dur à cuire\n\nQuand il est mis Hors de combat, lancez 1D6 (voir Hors de combat).\n\n"
                            "### Brute\n\nIl est immunisé à la Peur et Sans Pitié.\n")
    assert [(s.subject.label, s.object.label) for s in result.statements if s.object.kind == "ability"] == [("Brute", "Sans Pitié")]
    assert summary(result)["Jeu"]["undefined"] == ["Sans Pitié"]


def test_a_function_word_alone_is_never_an_undefined_ability(build_markdown):
    """A name cut at its first word ("leur capacité « En avant, soldats ! »") would make "En" a
    name, which then matches every "en" of the glossary."""
    from rulegraph.build import summary

    result = build_markdown("## Capacités\n\n### Serment\n\nIls peuvent remplacer leur capacité « En avant, soldats chrétiens ! » "
                            "par une autre.\n\n### Assaut\n\nIl charge en avant, en hurlant.\n")
    assert summary(result)["Jeu"]["undefined"] == []
    assert [s for s in result.statements if s.object.kind == "ability"] == []


def test_a_capitalised_phrase_that_opens_like_a_state_is_a_state(build_markdown):
    """"met un adversaire Hors de combat", "reste À terre": with no other context, a
    capitalised phrase opening like a state is one (no ability edge, no undefined ability);
    one opening otherwise ("Sans Pitié") stays an ability."""
    from rulegraph.build import summary

    result = build_markdown("## Capacités\n\n### Détrousseur\n\nLorsqu'il met un adversaire Hors de combat, il prend ses Pépites.\n\n"
                            "### Receleur\n\nSa Pépite lui reste même s'il est mis Hors de combat.\n\n"
                            "### Brute\n\nIl est immunisé à la Peur et Sans Pitié.\n")
    assert summary(result)["Jeu"]["undefined"] == ["Sans Pitié"]
    assert [(s.subject.label, s.object.label) for s in result.statements if s.object.kind == "ability"] == [("Brute", "Sans Pitié")]


def test_abbreviations_a_legend_or_a_name_defines_stand_for_that_ability(tmp_path):
    """"PdC = Peau de cristal" in the preamble's legend, "Jet de verre en fusion (JVF)" in a
    text: a designer's draft then writes "ignore la PdC", "possède déjà JVF". "Perforant (PA)"
    speaks of PA: its capitals are not the name's initials; "(Combat)", a tag, is no abbreviation."""
    from rulegraph.build import build
    from rulegraph.extract.extractor import declared_abbreviations

    text = ("VERRIERS\n\nAbrév. : fig. = figurine ; PdC = Peau de cristal.\n\nCOMBAT\n\n- Peau de cristal : +2 DEF.\n\n"
            "- Jet de verre en fusion (JVF) : tir de verre.\n\n- Canne brûlante : ignore la PdC de la cible.\n\n"
            "- Paraison : ne peut être prise que par une fig qui possède déjà JVF.\n\n- Perforant : ignore 1 point de PA.\n")
    path = tmp_path / "verriers.txt"
    path.write_text(text, encoding="utf-8")
    linked = {(s.subject.label, s.object.label) for s in build(files=[path], game="Murano").statements if s.object.kind == "ability"}
    assert {("Canne brûlante", "Peau de cristal"), ("Paraison", "Jet de verre en fusion")} <= linked
    assert declared_abbreviations(["Perforant (PA) : ignore l'armure.", "- Contre-attaque (Combat) :"], ["Perforant", "Contre-attaque"]) == {}


@pytest.mark.parametrize("sentence", ["Enfumeur n’est pas incompatible avec Peau de suie.",
                                      "Il n'est pas interdit de combiner Enfumeur et Peau de suie.",
                                      "Depuis l'errata, Enfumeur n'est plus incompatible avec Peau de suie."])
def test_an_exclusion_said_in_the_negative_is_no_exclusion(build_glossary, sentence):
    """"n'est pas incompatible avec X" says the two go together: the exclusion is denied."""
    text = f"# Charbonniers\n\n## Feu\n\n### Enfumeur\n\nIl enfume. {sentence}\n\n### Peau de suie\n\nIl noircit.\n"
    edges = [s for s in build_glossary(text, "charbonniers.md").statements if s.object.kind == "ability"]
    assert edges and all(s.relation != "excludes" and s.suggested != "excludes" for s in edges)


@pytest.mark.parametrize("sentence", ["On ne peut pas choisir Embuscade sans posséder Camouflage.",
                                      "Nul ne peut choisir Embuscade s'il n'a pas déjà Camouflage.",
                                      "Nul ne peut utiliser Embuscade s’il n’est pas doté de Camouflage."])
def test_a_choice_denied_without_the_other_ability_requires_it(tmp_path, sentence):
    """A denied use or choice "sans posséder Y" or "s'il n'a pas Y" is a prerequisite (the rule
    reading, before the typer); without the denial, "s'il ne possède pas déjà Y, il l'acquiert",
    it is not."""
    from rulegraph.corpus import corpus_from_files
    from rulegraph.extract.extractor import extract_corpus

    def rule_edges(text: str) -> set[tuple[str, str, str]]:
        path = tmp_path / f"g{len(text)}.md"
        path.write_text(f"# G\n\n## C\n\n### Embuscade\n\n{text}\n\n### Camouflage\n\nRien.\n", encoding="utf-8")
        statements = extract_corpus(corpus_from_files([path], game="g"), rules_only=True)
        return {(s.subject.label, s.relation, s.object.label) for s in statements if s.object.kind == "ability"}

    assert ("Embuscade", "requires", "Camouflage") in rule_edges(sentence)
    granted = rule_edges("S'il ne possède pas déjà Camouflage, il l'acquiert en même temps qu'Embuscade.")
    assert granted and all(relation != "requires" for _s, relation, _o in granted)


@pytest.mark.parametrize(("text", "expected"), [
    ("Cette capacité n'est utilisable par aucun combattant qui ne soit pas Colosse.", {("Alpha", "requires", "Colosse")}),
    ("Nul ne peut la prendre qui ne possède déjà Garde.", {("Alpha", "requires", "Garde")}),
    ("Aucune figurine qui ne soit dotée de Véloce ne peut l'utiliser.", {("Alpha", "requires", "Véloce")}),
    # A rule for the opponents requires nothing of the bearer.
    ("Aucun ennemi qui ne possède pas Garde ne peut riposter.", {("Alpha", "references", "Garde")}),
])
def test_only_the_bearers_left_by_a_double_negation_may_use_it(text, expected):
    """"aucun combattant qui ne soit pas X": only X's bearers, a prerequisite."""
    assert edges(text) == expected


_SECTIONED = """# Papetiers

## Compétences d'Aérostier

Chaque bande rêve d'une machine. {intro}

### Aéronaute

Il pilote.

### Largage

Il lâche des pierres.

### Vent porteur

Il dérive.

## Compétences de combat

### Mutuelliste

Il s'entraide.
"""


@pytest.mark.parametrize(("intro", "expected"), [
    ("Seul un combattant doté d'Aéronaute peut choisir les autres compétences de cette catégorie.",
     {("Largage", "requires", "Aéronaute"), ("Vent porteur", "requires", "Aéronaute")}),
    ("Aucune d'elles ne peut être prise par un combattant doté de Mutuelliste.",
     {(name, "excludes", "Mutuelliste") for name in ("Aéronaute", "Largage", "Vent porteur")}),
    # Factions and exceptions are not what a figure has: the sentence stays a general rule.
    ("Elles sont réservées aux factions Mutuellistes.", set()),
    ("Ces compétences ne se cumulent pas, à l'exception du Mutuelliste.", set()),
])
def test_a_section_introduction_is_said_of_each_member_when_it_names_a_bearer(tmp_path, intro, expected):
    """A section's text before its entries that refers back to them ("Aucune d'elles", "cette
    catégorie") and names the other ability by its bearers ("un combattant doté de X") is said of
    each ability of the section, in Markdown and in a chapter."""
    from rulegraph.corpus import corpus_from_files
    from rulegraph.extract.extractor import extract_corpus

    markdown = _SECTIONED.format(intro=intro)
    chapter = "\n".join(line.lstrip("#").strip() if not line.startswith("### ") else f"- {line[4:]} :" for line in markdown.splitlines())
    for name, text in (("g.md", markdown), ("g.txt", chapter.replace(" :\n\n", " : "))):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        statements = extract_corpus(corpus_from_files([path], game="g"), rules_only=True)
        found = {(s.subject.label, s.relation, s.object.label) for s in statements
                 if s.object.kind == "ability" and s.line == text.splitlines().index(next(
                     line for line in text.splitlines() if intro in line)) + 1}
        assert found == expected, name


@pytest.mark.parametrize(("text", "expected"), [
    ("Elle ne peut pas être prise par un personnage possédant Garde.", {("Alpha", "excludes", "Garde")}),
    ("Elle ne peut être prise que par un personnage possédant Garde.", {("Alpha", "requires", "Garde")}),
    ("Elle ne peut pas être prise par un combattant qui ne possède pas déjà Garde.", {("Alpha", "requires", "Garde")}),
    ("Il ne peut pas être pris par le coup de Garde.", {("Alpha", "references", "Garde")}),
])
def test_taken_by_a_figure_that_has_the_other_is_an_exclusion(text, expected):
    assert edges(text) == expected


def test_symbols_a_legend_declares_are_read_as_their_meaning(tmp_path):
    """"✗ : incompatible avec", "★ : réservé aux fig. ayant…" in a quick reference's legend: each
    symbol is the cue its meaning opens with. A symbol the legend does not declare, or a letter,
    is no cue."""
    from rulegraph.corpus import corpus_from_files
    from rulegraph.extract.cues import declared_symbol_cues
    from rulegraph.extract.extractor import extract_corpus

    legend = ["→ : confère, donne", "✗ : incompatible avec (jamais sur la même fig.)", "◊ : immunisé à, ignore",
              "★ : réservé aux fig. ayant… (prérequis)", "X : valeur de la capacité", "§ : voir le livre"]
    assert [(c.pattern.pattern, c.relation) for c in declared_symbol_cues(legend, CUES)] == [
        ("→", "grants"), ("✗", "excludes"), ("◊", "immuneTo"), ("★", "requires")]
    path = tmp_path / "aide.txt"
    path.write_text("AIDE-MÉMOIRE\n\nLÉGENDE\n" + "\n".join(legend) + "\n\nCOMBAT\n\n- Lourdaud : lent. ✗ Bond.\n\n"
                    "- Éclaireur : rapide. ★ Bond.\n\n- Bond : saute. ◊ Lourdaud.\n\n- Meute : chasse ⧫ Bond.\n", encoding="utf-8")
    relations = {(s.subject.label, s.relation, s.object.label)
                 for s in extract_corpus(corpus_from_files([path], game="g"), rules_only=True) if s.object.kind == "ability"}
    assert relations == {("Lourdaud", "excludes", "Bond"), ("Éclaireur", "requires", "Bond"), ("Bond", "immuneTo", "Lourdaud"),
                         ("Meute", "references", "Bond")}
