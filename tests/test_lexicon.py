"""Name matching as French text writes names: case, accents, apostrophes, elisions, plural and
feminine forms, hyphens, markup, one typo in a long name, longest match first; and lookup of a
name a user types."""

from __future__ import annotations

import pytest

from rulegraph.extract.lexicon import build_lexicon, french_word_frequency

NAMES = [
    "Attaque d’opportunité", "Insaisissable", "Frappe rapide", "Rapide", "Réception de charge",
    "Pierre-Esprit", "Renversant", "Volant", "Encombrante", "Servant d’artillerie", "Évasif",
    "Furieux", "Toxique",
]
VOCABULARY = {"actions": ["Charge", "Course"], "characteristics": ["CBT", "PdV"], "states": ["Mis au sol"]}


@pytest.fixture(scope="module")
def lexicon():
    return build_lexicon("jeu", NAMES + ["PDV"], VOCABULARY)


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Il subit l'attaque d'opportunite.", "Attaque d’opportunité"),
        ("ATTAQUE D’OPPORTUNITÉ", "Attaque d’opportunité"),
        ("les personnages insaisissables", "Insaisissable"),
        ("Tous les Détachements Pierre-Esprits à X cm", "Pierre-Esprit"),
        ("un détachement pierre esprit", "Pierre-Esprit"),
        ("aux armes renversantes", "Renversant"),
        ("une créature volante", "Volant"),
        ("les armes encombrantes", "Encombrante"),
        ("des personnages évasifs", "Évasif"),
        ("une figurine furieuse", "Furieux"),
        ("une arme dotée de _Toxique_", "Toxique"),
        ("la capacité servant d'artilerie", "Servant d’artillerie"),
        ("la capacité Attaque d'oportunité", "Attaque d’opportunité"),
    ],
)
def test_name_is_found_whatever_its_french_form(lexicon, text, label):
    assert [m.term.label for m in lexicon.find(text) if m.term.kind == "ability"] == [label]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("possède la capacité frappe rapide", [("ability", "Frappe rapide")]),
        ("une arme avec Réception de charge", [("ability", "Réception de charge")]),
        ("une action de charge puis une course", [("action", "Charge"), ("action", "Course")]),
        ("il est mis au sol", [("state", "Mis au sol")]),
    ],
)
def test_longest_match_wins(lexicon, text, expected):
    assert [(m.term.kind, m.term.label) for m in lexicon.find(text)] == expected


def test_short_names_are_not_matched_with_a_typo(lexicon):
    assert lexicon.find("une furie") == []


def test_same_name_keeps_the_other_kinds_as_alternatives(lexicon):
    (mention,) = lexicon.find("aucun PdV")
    assert mention.term.kind == "ability"
    assert [t.kind for t in mention.alternatives] == ["characteristic"]


@pytest.mark.parametrize(
    ("typed", "label"),
    [
        ("attaque d'opportunite", "Attaque d’opportunité"),
        ("L’Attaque d’Opportunité X", "Attaque d’opportunité"),
        ("Toxique/X", "Toxique"),
        ("insaisissables", "Insaisissable"),
        ("Frape rapide", "Frappe rapide"),
        ("_Pierre Esprit_", "Pierre-Esprit"),
        ("Rapide 3", "Rapide"),
        ("Servant d'artillerie (canon)", "Servant d’artillerie"),
    ],
)
def test_lookup_resolves_a_typed_name(lexicon, typed, label):
    term = lexicon.lookup(typed)
    assert term is not None and term.label == label


@pytest.mark.parametrize("typed", ["Frappe", "Attaque d'opportunité en plus", "Inconnu", ""])
def test_lookup_refuses_partial_or_unknown_names(lexicon, typed):
    assert lexicon.lookup(typed) is None


def test_closest_names_hint_at_the_intended_one(lexicon):
    assert lexicon.closest("Frappe rapid", kind="ability")[0] == "Frappe rapide"


def test_ordinary_french_words_are_flagged_ambiguous_by_frequency():
    common = lambda word: french_word_frequency(word) >= 150  # noqa: E731
    lexicon = build_lexicon("jeu", ["Charge", "Volant", "Antigrav", "Frappe rapide"], {}, common)
    flags = {t.label: t.ambiguous for t in lexicon.terms}
    assert flags == {"Charge": True, "Volant": True, "Antigrav": False, "Frappe rapide": False}


def test_lexicon_file_can_force_or_lift_ambiguity():
    common = lambda word: True  # noqa: E731
    lexicon = build_lexicon("jeu", ["Fouisseur", "Chef"], {"unambiguous": ["Fouisseur"], "ambiguous": ["Chef"]}, common)
    assert {t.label: t.ambiguous for t in lexicon.terms} == {"Fouisseur": False, "Chef": True}


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ('states = "Bloqué"\n', 1, "states must be a list of quoted texts"),
        ('actions = ["Charge"]\nstates = ["Bloqué", 3]\n', 2, "states must be a list of quoted texts"),
        ('actions = ["Charge"]\netats = ["Bloqué"]\n', 2, "unknown key 'etats'"),
        ('[aliases]\nPR = "protection"\n', 1, "aliases must be a table of lists"),
    ],
)
def test_lexicon_file_mistakes_are_errors_at_their_line(tmp_path, text, line, message):
    from rulegraph.errors import RulegraphError
    from rulegraph.extract.lexicon import load_vocabulary

    path = tmp_path / "lexique.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulegraphError) as caught:
        load_vocabulary(path)
    assert caught.value.line == line and message in caught.value.message


def test_a_name_typed_without_its_apostrophe_is_found(seed_build):
    from rulegraph.extract.extractor import game_lexicon

    lexicon = game_lexicon(seed_build.corpus, "hell-dorado")
    term = lexicon.lookup("attaque d opportunite")
    assert term is not None and term.label.startswith("Attaque d")


def test_a_short_unknown_word_gets_no_far_fetched_hint():
    from rulegraph.text import closest

    assert "Attaque" not in closest("Taupe", ["Attaque", "Fouisseur", "Charge"])
    assert closest("Fouiseur", ["Attaque", "Fouisseur"]) == ["Fouisseur"]


def test_a_name_stands_for_the_adjective_derived_from_it():
    from rulegraph.extract.lexicon import derived_forms

    assert derived_forms("Fanatisme") == ("fanatique",)
    assert derived_forms("Frénésie") == ("frenetique",)
    assert derived_forms("Loyauté") == ("loyal",)
    assert derived_forms("Fureur") == ("furieux",)
    assert derived_forms("Frappe rapide") == derived_forms("Lance") == derived_forms("Possédé") == ()


def test_a_derived_adjective_links_its_ability_unless_the_name_is_there(build_markdown):
    """"devient fanatique" names Fanatisme; a state the text names in those words stays a state;
    "Fanatisme (les combattants fanatiques…)" is one mention of Fanatisme, not two."""
    result = build_markdown(
        "# G\n\n### Fanatisme\nLe combattant ignore la Peur.\n\n"
        "### Illumination\nLe prêtre devient fanatique jusqu'à la fin du tour.\n\n"
        "### Sermon\nConfère Fanatisme (les combattants fanatiques ne fuient pas).\n")
    links = {(s.subject.label, s.relation, s.object.label) for s in result.statements if s.object.kind == "ability"}
    assert ("Illumination", "grants", "Fanatisme") in links
    assert [(s.subject.label, s.object.label) for s in result.statements if s.subject.label == "Sermon"] == [("Sermon", "Fanatisme")]
