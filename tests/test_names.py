import pytest

from rulegraph.names import parse_heading


@pytest.mark.parametrize(
    ("heading", "name", "parameters", "slots"),
    [
        ("Attaque d’opportunité X", "Attaque d’opportunité", ("X",), ()),
        ("Allonge D", "Allonge", ("D",), ()),
        ("Esquive X/D", "Esquive", ("X/D",), ()),
        ("Ennemi juré (définition) X/Y", "Ennemi juré", ("X/Y",), ("définition",)),
        ("Elite (XX)", "Elite", ("XX",), ()),
        ("Toxique/ X (Passive)", "Toxique", ("X",), ()),
        ("Immortel/X", "Immortel", ("X",), ()),
        ("Frappe (n)", "Frappe", ("n",), ()),
        ("Régénération +X", "Régénération", ("+X",), ()),
        ("Charisme (caractéristique) X/D", "Charisme", ("X/D",), ("caractéristique",)),
        ("Associé (personnage)", "Associé", (), ("personnage",)),
        ("Servant d’artillerie (mot-clé)", "Servant d’artillerie", (), ("mot-clé",)),
        ("Tir Réflexe", "Tir Réflexe", (), ()),
        ("POISON (X)", "POISON", ("X",), ()),  # a capital N ends the word: no glued parameter
        ("PAx", "PA", ("x",), ()),
    ],
)
def test_heading_splits_into_bare_name_parameters_and_slots(heading, name, parameters, slots):
    parts = parse_heading(heading)
    assert (parts.name, parts.parameters, parts.slots) == (name, parameters, slots)


@pytest.mark.parametrize("heading, name, parameters, kinds", [
    ("Coup de grâce*", "Coup de grâce", (), ("*",)),
    ("Tir X*", "Tir", ("X",), ("*",)),
    ("Bénédiction (2)†", "Bénédiction", ("2",), ("†",)),
])
def test_a_footnote_mark_after_a_name_is_a_tag_not_part_of_it(heading, name, parameters, kinds):
    parts = parse_heading(heading)
    assert (parts.name, parts.parameters, parts.kinds) == (name, parameters, kinds)


@pytest.mark.parametrize("heading, name", [
    ("12.1 Charge de lances", "Charge de lances"),
    ("3. Esquive", "Esquive"),
    ("§ 4.2 Vol", "Vol"),
    ("12.4 Peur X", "Peur"),
    ("1000 Lames", "1000 Lames"),
    ("3 Mousquetaires", "3 Mousquetaires"),
])
def test_a_rulebook_paragraph_number_before_a_name_is_not_part_of_it(heading, name):
    assert parse_heading(heading).name == name


def test_a_chapter_of_numbered_rule_paragraphs_is_read(build_glossary):
    result = build_glossary("CHAPITRE 12 : CAPACITÉS\n\n- 12.1 Charge de lances :\nL'unité charge. Face à des Piques serrées, "
                            "le bonus disparaît.\n\n- 12.2 Piques serrées :\nL'unité tient ses piques.\n",
                            "chapitre.txt", game="Ordensland")
    assert [(e.name, e.line) for e in result.corpus.entries()] == [("Charge de lances", 3), ("Piques serrées", 6)]


@pytest.mark.parametrize("heading, name, parameters, kinds, cost", [
    ("Bretteur [6 pts]", "Bretteur", (), (), "6 pts"),
    ("Peur X [X x 2 pts]", "Peur", ("X",), (), "X x 2 pts"),
    ("Garde du corps (15 points)", "Garde du corps", (), (), "15 points"),
    ("Armure [X]", "Armure", ("X",), (), None),
    ("Tir [Passive]", "Tir", (), ("passive",), None),
    ("Frag (2)", "Frag", ("2",), (), None),
])
def test_a_cost_in_brackets_after_a_name_is_its_cost(heading, name, parameters, kinds, cost):
    parts = parse_heading(heading)
    assert (parts.name, parts.parameters, parts.kinds, parts.cost) == (name, parameters, kinds, cost)


def test_a_chapter_with_costs_after_its_names_links_them_and_keeps_each_cost(build_glossary):
    result = build_glossary("COMBAT\n\n- Bretteur [6 pts] : +1 dé d'attaque. Incompatible av. Brute.\n\n"
                            "- Brute [5 pts] : FOR +1, jamais de parade.\n",
                            "abordage.txt", game="Abordage")
    entries = {e.name: e for e in result.corpus.entries()}
    assert set(entries) == {"Bretteur", "Brute"}
    assert entries["Bretteur"].attributes == (("coût", "6 pts"),)
    assert [(s.owner, s.relation, s.object.label) for s in result.statements if s.relation == "excludes"] == [
        ("Bretteur", "excludes", "Brute")]
