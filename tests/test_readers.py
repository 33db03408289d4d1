"""Each reader on the real seed files and on small fixtures that reproduce their quirks."""

from __future__ import annotations

from collections import Counter

import pytest

from rulegraph.errors import RulegraphError
from rulegraph.readers import chapter, compendium, csv_table, detect_format, json_glossary, markdown, read

from .conftest import DATA, FIXTURES

HD = DATA / "000_10d76c9141a2b7c0.txt"
EPIC = DATA / "001_a17175775154b8fb.txt"
TOXIQUE = DATA / "004_9ebf0d46270f4153.txt"
HD_OPTIONS = {"categories": {"Capacités des Personnages": "character", "Capacités des armes": "weapon"}}
TOXIQUE_EDITIONS = ["Rooted", "Confédé", "Confrontation 3.5", "Confrontation 3", "Confrontation 2",
                    "Confrontation 1", "Rag'Narok", "Rag'Narok 2", "AoR"]


def _chapter(path, **options):
    return chapter.parse(path.read_text(encoding="utf-8"), source=path.name, game="g", options={**HD_OPTIONS, **options})


def test_hell_dorado_has_87_abilities_78_character_and_9_weapon():
    document = _chapter(HD)
    assert len(document.entries) == 87
    assert Counter(e.category for e in document.entries) == {"character": 78, "weapon": 9}


def test_hell_dorado_immunite_bullets_stay_inside_their_entry():
    entries = {e.name: e for e in _chapter(HD).entries}
    assert not any(name.startswith("Si le mot") for name in entries)
    immunite = entries["Immunité"]
    assert len(immunite.paragraphs) == 4 and "terreur" in immunite.text


def test_hell_dorado_tags_after_colon_and_on_next_line():
    entries = {e.name: e for e in _chapter(HD).entries}
    assert entries["Chef"].tags == ("Capacité liée au recrutement",)
    assert entries["Illuminé"].tags == ("Effet de commandement - Dominance commandement clair",)
    assert not entries["Illuminé"].text.startswith("Effet de commandement")


def test_hell_dorado_four_designer_notes_split_from_rule_text():
    notes = {e.name: e.notes for e in _chapter(HD).entries if e.notes}
    assert {name: [n.text for n in ns] for name, ns in notes.items()} == {
        "Attaque d’opportunité": ["à simplifier ?"],
        "Combat défensif": ["virer la limite à 1 ?"],
        "Contre-attaque": ["virer la dernièer précision ?"],
        "Garde du corps": ["virer la limite à 3 ?"],
    }
    entries = {e.name: e for e in _chapter(HD).entries}
    assert "=>" not in entries["Garde du corps"].text
    assert "au-dessus de 3" in notes["Garde du corps"][0].questioned
    assert notes["Contre-attaque"][0].questioned.startswith("Un combattant qui possède cette capacité ne peut pas l'utiliser")


def test_hell_dorado_names_and_parameters():
    entries = {e.name: e for e in _chapter(HD).entries}
    assert entries["Charisme"].slots == ("caractéristique",) and entries["Charisme"].parameters == ("X/D",)
    assert entries["Ennemi juré"].parameters == ("X/Y",)
    assert entries["Attaque d’opportunité"].heading == "Attaque d’opportunité X"
    assert entries["Allonge"].parameters == ("D",)
    assert entries["Affranchi"].line == 11


def test_hell_dorado_preamble_is_kept_as_general_rules():
    document = _chapter(HD)
    assert len(document.preamble) == 4
    assert "préfixés par un +" in document.preamble[1].text


def test_chapter_fixture_with_mixed_apostrophes_tags_bullets_and_notes():
    document = _chapter(FIXTURES / "chapter_quirks.txt")
    assert [e.name for e in document.entries] == ["Attaque d’opportunité", "Chef", "Illuminé", "Immunité", "Fanatique", "Lourde"]
    by_name = {e.name: e for e in document.entries}
    assert by_name["Lourde"].category == "weapon"
    assert by_name["Attaque d’opportunité"].notes[0].text == "à simplifier ?"
    assert by_name["Immunité"].text.count("\n") == 2
    assert by_name["Attaque d’opportunité"].line == 7


def test_epic_csv_rows_are_read_with_clean_text_and_subheadings():
    document = csv_table.parse(EPIC.read_text(encoding="utf-8"), source="e", game="epic", options={"delimiter": ";"})
    assert len(document.entries) == 28
    psyker = next(e for e in document.entries if e.name == "Psyker")
    assert "[" not in psyker.text
    assert [p.heading for p in psyker.paragraphs if p.heading] == ["Pouvoirs Physiques", "Pouvoirs Ethérés"]
    elite = next(e for e in document.entries if e.name == "Elite")
    assert elite.parameters == ("XX",) and elite.line == 3


def test_csv_fixture_duplicates_collapse_and_conflicts_are_kept(tmp_path):
    from rulegraph.corpus import corpus_from_files

    corpus = corpus_from_files([FIXTURES / "table_quirks.csv"], game="Test")
    entries = {e.name: e for e in corpus.entries()}
    assert entries["Antigrav"].occurrences == 2 and entries["Antigrav"].duplicate_lines == [4]
    assert entries["Terreur"].occurrences == 1
    assert [(v.text, v.line) for v in entries["Terreur"].variants] == [("Fait très peur.", 5)]
    assert entries["Antigrav"].paragraphs[1].heading == "Titre"
    assert entries["Transport"].text == "Un.\nDeux."


def test_csv_missing_column_names_the_header_line():
    with pytest.raises(RulegraphError) as error:
        csv_table.parse("nom;description\nA;b\n", source="x.csv", game="g", options={"name_field": "nom", "text_field": "texte"})
    assert error.value.line == 1 and "texte" in error.value.message


def test_toxique_has_three_editions_with_text_and_six_without():
    lineage = ["Confrontation 1", "Confrontation 2", "Confrontation 3", "Confrontation 3.5", "Rag'Narok",
               "Rag'Narok 2", "AoR", "Confédé", "Rooted"]
    options = {"editions": TOXIQUE_EDITIONS, "lineage": lineage}
    document = compendium.parse(TOXIQUE.read_text(encoding="utf-8"), source="t", game="c", options=options)
    (toxique,) = document.entries
    assert toxique.name == "Toxique" and toxique.parameters == ("X",)
    present = {e.edition for e in toxique.editions if e.present}
    assert present == {"Rooted", "Confédé", "Confrontation 3"}
    assert len([e for e in toxique.editions if not e.present]) == 6
    rooted = next(e for e in toxique.editions if e.edition == "Rooted")
    assert toxique.text == rooted.text and rooted.line == 2
    third = next(e for e in toxique.editions if e.edition == "Confrontation 3")
    assert third.text.startswith("De nombreuses créatures"), "the repeated heading is not rule text"


def test_compendium_fixture_dash_bullets_are_text_and_lone_dash_is_absence():
    text = (FIXTURES / "compendium_quirks.txt").read_text(encoding="utf-8")
    (entry,) = compendium.parse(text, source="v", game="g", options={"editions": ["Ancienne", "Nouvelle", "Rag'Narok"]}).entries
    editions = {e.edition: e for e in entry.editions}
    assert not editions["Ancienne"].present and not editions["Rag'Narok"].present
    assert editions["Nouvelle"].text.endswith("perd 1 point.")


def test_compendium_edition_missing_from_file_is_an_error():
    text = (FIXTURES / "compendium_quirks.txt").read_text(encoding="utf-8")
    with pytest.raises(RulegraphError, match="Confrontation 9"):
        compendium.parse(text, source="v", game="g", options={"editions": ["Ancienne", "Confrontation 9"]})


def test_markdown_sections_entries_markup_and_notes():
    text = (
        "# Mon jeu\n\nLes capacités se cumulent.\n\n## Capacités des armes\n\n### Lame _tranchante_ X\n\n"
        "Ignore la **Parade** adverse.\nSuite du paragraphe.\n\n- premier cas\n- second cas => trop long ?\n"
    )
    document = markdown.parse(text, source="m.md", game="g", options={"categories": {"Capacités des armes": "weapon"}})
    (entry,) = document.entries
    assert entry.name == "Lame tranchante" and entry.parameters == ("X",) and entry.category == "weapon"
    assert entry.paragraphs[0].text == "Ignore la Parade adverse. Suite du paragraphe."
    assert entry.paragraphs[0].marked == ("Parade",)
    assert [p.text for p in entry.paragraphs[1:]] == ["- premier cas", "- second cas"]
    assert entry.notes[0].text == "trop long ?" and entry.line == 7
    assert document.preamble[0].text == "Les capacités se cumulent."


@pytest.mark.parametrize(
    ("line", "clean"),
    [
        ("- Ignore → Bousculade.", "- Ignore Bousculade."),
        ("Sans effet contre une figurine ancrée (→ Ancrage).", "Sans effet contre une figurine ancrée (Ancrage)."),
        ("Réservée aux figurines dotées de ⇒ Vol plané.", "Réservée aux figurines dotées de Vol plané."),
        ("Voir→Ancrage.", "Voir Ancrage."),
        # An arrow between two values says "becomes": it stays.
        ("La PA passe de PA 4 → PA 3.", "La PA passe de PA 4 → PA 3."),
        ("a → b", "a → b"),
    ],
)
def test_markdown_link_arrows_before_names_are_typography(line, clean):
    document = markdown.parse(f"### Ancrage\n\n{line}\n", source="m.md", game="g", options={})
    assert document.entries[0].paragraphs[0].text == clean


DESIGNER_ARROWS = """## Esprit-loup
Totem. → Pisteur.

## Tambour
Alliés à 6 ps → Transe.

## Souffle
Chaque fig. touchée → Gelure (1). 3 marqueurs ou plus → Sonné.
"""


def test_markdown_arrows_that_say_gives_stay_in_the_text():
    """Arrows after the end of a phrase or opening a line, in a whole document, are a designer's
    "gives", not a wiki's links: they stay, and the extractor reads them as grants."""
    document = markdown.parse(DESIGNER_ARROWS, source="m.md", game="g", options={})
    assert [e.paragraphs[0].text for e in document.entries] == [
        "Totem. → Pisteur.", "Alliés à 6 ps → Transe.", "Chaque fig. touchée → Gelure (1). 3 marqueurs ou plus → Sonné."]


def test_markdown_arrows_after_governing_words_are_links_even_among_others():
    text = DESIGNER_ARROWS + "\n## Garde\nImmunisé à → Peur. Ignore → Esquive. Incompatible avec → Transe et → Pisteur.\n"
    assert not markdown.arrows_give(text.splitlines())
    assert markdown.parse(text, source="m.md", game="g", options={}).entries[0].paragraphs[0].text == "Totem. Pisteur."


def test_json_glossary_fields_from_manifest_and_lines():
    text = '{"capacites": [\n  {"nom": "Garde X", "regle": "Protège un _allié_."},\n  {"nom": "Lent", "regle": "Avance peu."}\n]}'
    document = json_glossary.parse(text, source="j.json", game="g", options={"entries_key": "capacites", "name_field": "nom", "text_field": "regle"})
    assert [(e.name, e.parameters, e.line) for e in document.entries] == [("Garde", ("X",), 2), ("Lent", (), 3)]
    assert document.entries[0].text == "Protège un allié."


def test_json_syntax_error_names_the_line():
    with pytest.raises(RulegraphError) as error:
        json_glossary.parse('[\n{"name": "A",\n}', source="j.json", game="g", options={})
    assert error.value.line == 3


def test_format_detection(tmp_path):
    assert detect_format(EPIC, EPIC.read_text(encoding="utf-8")) == "csv"
    assert detect_format(HD, HD.read_text(encoding="utf-8")) == "chapter"
    assert detect_format(tmp_path / "a.md", "") == "markdown"
    with pytest.raises(RulegraphError, match="--format"):
        detect_format(tmp_path / "a.txt", "du texte sans structure\n")


def test_a_file_neither_utf8_nor_windows_1252_is_a_clear_error(tmp_path):
    path = tmp_path / "binary.txt"
    path.write_bytes("- Capacité :\nÉté\n".encode("latin-1") + b"\x81\x8d\n")
    with pytest.raises(RulegraphError) as error:
        read(path, source="binary.txt", game="g", format="chapter")
    assert "UTF-8" in error.value.message and error.value.line == 1


def test_a_windows_1252_spreadsheet_export_is_read(tmp_path):
    """Excel on a French Windows saves its CSV in Windows-1252: ’, œ and accents come through."""
    path = tmp_path / "ardoisiers.csv"
    path.write_bytes("Nom;Texte\r\nCœur d’ardoise;Immunisé à la Peur.\r\nPeur;Il effraie.\r\n".encode("cp1252"))
    document = read(path, source="ardoisiers.csv", game="g", format="csv")
    assert [(e.name, e.text) for e in document.entries] == [("Cœur d’ardoise", "Immunisé à la Peur."), ("Peur", "Il effraie.")]


@pytest.mark.parametrize(
    ("table", "line", "words"),
    [
        ('nom;texte\nRage;"il frappe;\nPeur;il fuit\n', 2, "double quote"),
        ("nom;texte\nPeur;il fuit;trop;loin\n", 2, "4 field(s)"),
        ("nom;texte\n;un texte sans nom\n", 2, "no name"),
    ],
)
def test_csv_row_faults_name_their_line(table, line, words):
    with pytest.raises(RulegraphError) as error:
        csv_table.parse(table, source="t.csv", game="g", options={})
    assert error.value.line == line and words in error.value.message


def test_csv_quoted_delimiter_and_multiline_cell_are_one_field():
    document = csv_table.parse('nom;texte\nRage;"il frappe; fort\net loin"\nPeur;il fuit\n', source="t.csv", game="g", options={})
    assert [(e.name, e.line) for e in document.entries] == [("Rage", 2), ("Peur", 4)]


def test_a_comma_separated_export_with_usual_column_names_needs_no_manifest(tmp_path):
    from rulegraph.build import build

    table = tmp_path / "traits.csv"
    table.write_text('Nom,Type,Coût,Effet\n"Blindage X","MÉCA",10,"Réduit les dégâts, sauf contre Perforant."\n'
                     '"Perforant","arme",5,"Ignore le Blindage de la cible."\n', encoding="utf-8")
    result = build(files=[table], game="Orbitale")
    names = sorted(e.name for e in result.corpus.entries())
    assert names == ["Blindage", "Perforant"]
    assert result.corpus.entries()[0].text.startswith("Réduit les dégâts, sauf")


def test_a_one_column_header_says_how_to_separate_the_columns(tmp_path):
    from rulegraph.build import build
    from rulegraph.errors import RulegraphError

    table = tmp_path / "traits.csv"
    table.write_text("Nom Effet\nA B\n", encoding="utf-8")
    with pytest.raises(RulegraphError, match="one column"):
        build(files=[table], game="Jeu", format="csv")


def test_a_section_title_in_capitals_with_its_description_on_the_next_line():
    """"CERCLE DES ESPRITS" then a line describing it: a section (the entries' category), and its
    description is no paragraph of the entry before it."""
    text = ("LES CERCLES\n\nCERCLE DU CHÊNE\nGuerriers des clans.\n\n- Furie :\nLe combattant enrage.\n\n"
            "CERCLE DES ESPRITS\nLes esprits de la forêt.\n\n- Esprit :\nIl flotte.\n\nERRATA\nAucun.\n")
    document = chapter.parse(text, source="c.txt", game="g", options={})
    entries = {e.name: e for e in document.entries}
    assert {name: e.glossary_category for name, e in entries.items()} == {"Furie": "CERCLE DU CHÊNE", "Esprit": "CERCLE DES ESPRITS"}
    assert entries["Furie"].text == "Le combattant enrage."
    assert entries["Esprit"].text == "Il flotte.\nERRATA\nAucun."


def test_a_rulebook_chapter_with_names_in_capitals():
    """Names alone in capitals with their text on the next line (a rulebook's layout, no
    "- Name :"): each is an entry, written as sentences write it; a numbered line in capitals
    before a blank line is a section, without its number; the title block is no entry."""
    path = FIXTURES / "chapter_capitals.txt"
    document = chapter.parse(path.read_text(encoding="utf-8"), source=path.name, game="g", options={})
    entries = {e.name: e for e in document.entries}
    assert list(entries) == ["Frappe préventive", "Riposte", "Terreur", "Tir en cloche"]
    assert entries["Terreur"].parameters == ("X",) and entries["Terreur"].tags == ("Capacité permanente",)
    assert entries["Riposte"].notes[0].text == "limiter à une riposte par tour ?"
    assert entries["Frappe préventive"].line == 11
    assert {e.glossary_category for e in entries.values()} == {"Capacités de combat", "Capacités de tir"}
    assert detect_format(path, path.read_text(encoding="utf-8")) == "chapter"


def test_a_rulebook_chapter_in_capitals_links_its_abilities(build_glossary):
    result = build_glossary((FIXTURES / "chapter_capitals.txt").read_text(encoding="utf-8"), "chapitre.txt")
    links = {(s.subject.label, s.relation, s.object.label) for s in result.statements if s.object.kind == "ability"}
    assert ("Frappe préventive", "mutuallyCancels", "Riposte") in links or ("Riposte", "mutuallyCancels", "Frappe préventive") in links
    assert any({subject, obj} == {"Tir en cloche", "Riposte"} for subject, _, obj in links)


def test_ability_tables_named_by_their_noun_with_a_section_of_interactions_after_them(build_glossary):
    """"| Technique | Coût | Effet |" tables under category headings, then a "## Interactions"
    section of prose: every row is an entry, and the prose after the last table is commentary
    whose sentences link abilities (it no longer makes the tables an entry's text)."""
    text = ("# Arène\n\nIntroduction : les états sont au chapitre 4.\n\n## Techniques\n\n"
            "| Technique | Coût | Effet |\n|---|---|---|\n| Météores | 2 PC | Plusieurs attaques. |\n"
            "| Comète | 3 PC | Une attaque qui repousse. |\n\n## Défenses\n\n| Technique | Coût | Effet |\n|---|---|---|\n"
            "| Mur de cristal | 2 PC | Bloque les attaques à distance. |\n\n## Interactions\n\n"
            "Le Mur de cristal annule les Météores. Comète ignore le Mur de cristal.\n")
    result = build_glossary(text, "arene.md")
    assert sorted(e.name for e in result.corpus.entries()) == ["Comète", "Mur de cristal", "Météores"]
    linked = {(s.subject.label, s.object.label) for s in result.statements if s.object.kind == "ability"}
    assert {("Mur de cristal", "Météores"), ("Comète", "Mur de cristal")} <= linked | {(b, a) for a, b in linked}


LANCERS = """\
GLOSSAIRE DES LANCIERS

Les capacités suivies de (X) reçoivent leur valeur du profil.

CAPACITÉS DE CHARGE

Charge (X) : Lorsque la figurine charge, elle ajoute X à sa FOR.

Élan 2 : Quand elle charge, la figurine ajoute 2 ps à son MOU.
=> trop fort ? à tester.

Fourrageurs : L'unité combat en ordre dispersé. Elle perd élan.

COMMANDEMENT

Conscrit : La figurine subit -1 en MOR.

Vétéran : La figurine gagne +1 en CC.

ANNEXE — CAPACITÉS NON CUMULABLES

Les paires ci-dessous ne peuvent jamais se retrouver sur une même figurine.

fourrageurs / charge
Conscrit / Vétéran
"""


def test_a_chapter_of_name_colon_text_paragraphs_with_an_appendix_of_incompatible_pairs():
    """"Charge (X) : Lorsque…" paragraphs with no dash are entries; sections in capitals are their
    categories, in sentence case; the appendix's pair lines are an excludes list, its sentence
    commentary."""
    document = chapter.parse(LANCERS, source="lanciers.txt", game="g", options={})
    entries = {e.name: e for e in document.entries}
    assert list(entries) == ["Charge", "Élan", "Fourrageurs", "Conscrit", "Vétéran"]
    assert entries["Charge"].parameters == ("X",) and entries["Élan"].parameters == ("2",)
    assert entries["Élan"].notes[0].text == "trop fort ? à tester."
    assert entries["Vétéran"].glossary_category == "Commandement"
    assert [(relation, p.text, p.line) for relation, p in document.relation_lists] == [
        ("excludes", "fourrageurs / charge", 24), ("excludes", "Conscrit / Vétéran", 25)]
    assert [p.text for p in document.commentary] == ["Les paires ci-dessous ne peuvent jamais se retrouver sur une même figurine."]
    assert [p.text for p in document.preamble] == ["Les capacités suivies de (X) reçoivent leur valeur du profil."]


def test_an_appendix_of_pairs_gives_excludes_edges_from_its_lines(build_glossary):
    result = build_glossary(LANCERS, "lanciers.txt")
    listed = {(s.subject.label, s.relation, s.object.label, s.line, s.rule) for s in result.statements if s.line in (24, 25)}
    assert listed == {("Fourrageurs", "excludes", "Charge", 24, "incompatibilities list"),
                      ("Conscrit", "excludes", "Vétéran", 25, "incompatibilities list")}
    # "perd élan": an ordinary word with no determiner after "perd" is the ability.
    assert any(s.subject.label == "Fourrageurs" and s.object.label == "Élan" for s in result.statements)


def test_a_few_name_colon_lines_are_no_glossary():
    """One "Exemple : …" paragraph is no entry: the chapter still says how to write entries."""
    with pytest.raises(RulegraphError, match="Name : text"):
        chapter.parse("Titre\n\nExemple : un texte.\n\nNote : rien.\n", source="c.txt", game="g", options={})


WIKI = """\
# Cartels : glossaire

Les règles de base (Mouvement, Tir) sont sur une autre page.

## Talents de Pilotage

Les talents de Pilotage ne peuvent être pris que par une figurine dotée de Pilote.

- **Pilote** : la figurine peut prendre les commandes d'un skiff.
- **Vol rasant** : le véhicule vole bas.
  _Exemple : un skiff en Vol rasant ignore les couverts._
- **Éperonnage :** le véhicule peut charger. => à réserver aux skiffs ?

## Combat

- **Perforant (X)** : les attaques réduisent de X le Blindage de la cible.
- **Coup de boutoir** † : la figurine repousse son adversaire.
- **Blindage (X)** — chaque blessure est réduite de X points.

## Voir aussi

- [Règles de base](Regles_de_base)
"""


def test_a_wiki_of_abilities_as_bold_list_items_under_category_headings():
    """"- **Name** : text" items are the entries, every heading a section; an indented line goes
    on with its item; a list of links after the entries is no entry."""
    document = markdown.parse(WIKI, source="wiki.md", game="g", options={})
    entries = {e.name: e for e in document.entries}
    assert list(entries) == ["Pilote", "Vol rasant", "Éperonnage", "Perforant", "Coup de boutoir", "Blindage"]
    assert entries["Vol rasant"].text == "le véhicule vole bas. Exemple : un skiff en Vol rasant ignore les couverts."
    assert entries["Éperonnage"].notes[0].text == "à réserver aux skiffs ?"
    assert entries["Perforant"].parameters == ("X",) and entries["Perforant"].glossary_category == "Combat"
    assert entries["Pilote"].glossary_category == "Talents de Pilotage"
    assert any("ne peuvent être pris que par" in p.text for _section, p in document.section_texts)


def test_labelled_bullets_inside_heading_entries_stay_their_text():
    """"- **Effet** : …" under each "### Name" is a label of the entry, not an entry."""
    text = ("## Techniques\n\n### Bond\n- **Effet** : saute.\n- **Contre** : Vol.\n\n"
            "### Chute\n- **Effet** : tombe.\n- **Contre** : Bond.\n")
    document = markdown.parse(text, source="t.md", game="g", options={})
    assert [e.name for e in document.entries] == ["Bond", "Chute"]


def test_an_app_file_list_of_granted_abilities_gives_grants_edges(build_glossary):
    text = ('{"talents": [{"nom": "Orateur", "description": "Il harangue la foule.", "accorde": ["Fanatisme"]},'
            ' {"nom": "Fanatisme", "description": "La figurine ne recule jamais."}]}')
    result = build_glossary(text, "talents.json")
    assert {(s.subject.label, s.relation, s.object.label, s.rule) for s in result.statements} == {
        ("Orateur", "grants", "Fanatisme", "granted-abilities field")}


def test_labelled_paragraphs_of_a_dash_chapter_stay_in_their_entry():
    """"Exemple : …", "Note : …", "Précision : …" after blank lines inside "- Name :" entries are
    their text, not entries of a "Name : text" chapter."""
    text = ("- Charge :\nLa figurine charge.\n\nExemple : un lancier charge.\n\nNote : rare.\n\n"
            "- Tir :\nLa figurine tire.\n\nPrécision : à portée.\n\n- Garde :\nElle garde.\n")
    document = chapter.parse(text, source="c.txt", game="g", options={})
    assert [e.name for e in document.entries] == ["Charge", "Tir", "Garde"]
    assert "Exemple : un lancier charge." in document.entries[0].text


def test_a_chapter_of_priced_paragraphs_with_sections_described_in_capitals():
    """"Aérophore (8 pts) : …" paragraphs, and sections in capitals followed by a description
    ("LE FEU" then "Les foyers…"): the paragraphs are the entries, the capitals sections."""
    text = ("AU FEU !\nCHAPITRE 9 : LES CAPACITÉS\n\nIntroduction.\n\nLES SAPEURS\n\n"
            "Aérophore (8 pts) : Le sapeur ne devient jamais ENFUMÉ.\n\nGrimpeur (3 pts) : Il monte.\n\n"
            "LE FEU\nLes foyers sont joués par le Meneur.\n\nCouvant (3 pts) : Le foyer couve.\n\n"
            "Propagation (4 pts) : Le feu gagne une case.\n")
    document = chapter.parse(text, source="c.txt", game="g", options={})
    entries = {e.name: e for e in document.entries}
    assert list(entries) == ["Aérophore", "Grimpeur", "Couvant", "Propagation"]
    assert entries["Couvant"].glossary_category == "Le feu"


def test_bold_items_inside_one_heading_entry_are_its_text():
    text = ("### Charge\nLa figurine charge.\n\n### Postures\n- **Posture du tigre** : attaque.\n"
            "- **Posture de la grue** : défense.\n- **Posture du serpent** : feinte.\n"
            "- **Posture du singe** : esquive.\n- **Posture de l'ours** : force.\n\n### Tir\nLa figurine tire.\n")
    document = markdown.parse(text, source="t.md", game="g", options={})
    assert [e.name for e in document.entries] == ["Charge", "Postures", "Tir"]


def test_each_line_of_a_list_of_pairs_is_one_pair():
    text = ("## Capacités\n\n### Conscrit\nJeune.\n\n### Vétéran\nVieux.\n\n### Fourrageurs\nDispersés.\n\n"
            "### Ordre serré\nSerrés.\n\n## Capacités non cumulables\n\nConscrit / Vétéran\nFourrageurs / Ordre serré\n")
    document = markdown.parse(text, source="t.md", game="g", options={})
    assert [(r, p.text, p.line) for r, p in document.relation_lists] == [
        ("excludes", "Conscrit / Vétéran", 17), ("excludes", "Fourrageurs / Ordre serré", 18)]


def test_an_app_record_with_nested_rules_and_relations_by_id(build_glossary):
    """"regles": {"texte": …, "precisions": […]} is the text and its details; a relation list
    naming other records by id names their abilities."""
    text = ('{"Capacités": [\n'
            ' {"id": "cap-1", "nom": "Ressort", "regles": {"texte": "Le combattant bondit.",'
            ' "precisions": ["Voir aussi Balancier."]}, "liens": {"incompatibilités": ["cap-2"]}},\n'
            ' {"id": "cap-2", "nom": "Balancier", "regles": {"texte": "Il oscille."}}\n]}')
    result = build_glossary(text, "capacites.json")
    entries = {e.name: e for e in result.corpus.entries()}
    assert entries["Ressort"].text == "Le combattant bondit.\nVoir aussi Balancier."
    assert ("Ressort", "excludes", "Balancier") in {(s.subject.label, s.relation, s.object.label) for s in result.statements}


CONVERTED = """\
# BATELIERS
## Escarmouches sur le fleuve, 1720-1789

Introduction du livret.

# Capacités de batellerie

#### Pied marin
Le combattant ne subit aucun malus sur un bateau.

Il est immunisé à Remous.

**Perchiste.** Le batelier manie la bourde : il bénéficie d'Allonge.

### Haleur
Il tire les bateaux.

31

## CAPACITÉS DE COMBAT

### Allonge
L'arme frappe à 2 pouces.

**Remous X.** Les vagues secouent les barques.

**Lesté** : le combattant coule.

## FAQ

**Q : Un Haleur peut-il tirer seul ?**
R : Oui.
"""


def test_a_rulebook_converted_to_markdown_with_uneven_headings_and_bold_paragraph_entries():
    """Entries as "####" or "###" headings or as "**Nom.** texte" paragraphs; headings in capitals
    or that read as no name are sections; "**Q :**" is no entry."""
    document = markdown.parse(CONVERTED, source="b.md", game="g", options={})
    entries = {e.name: e for e in document.entries}
    assert list(entries) == ["Pied marin", "Perchiste", "Haleur", "Allonge", "Remous", "Lesté"]
    assert entries["Pied marin"].text == "Le combattant ne subit aucun malus sur un bateau.\nIl est immunisé à Remous."
    assert entries["Remous"].parameters == ("X",) and entries["Allonge"].glossary_category == "CAPACITÉS DE COMBAT"
    assert any(p.text.startswith("Q : Un Haleur") for p in document.commentary)


PASTED_FROM_PDF = """STYLE DU TIGRE
Le combattant frappe avec une violence qui ne laisse aucun répit à son
adversaire. Contre un combattant au Style de la grue, la
Garde impénétrable ne s'applique pas. Il devient insensible à l'Intimi-
dation.

LES MOINES DE SHAOLIN — 34
35

STYLE DE LA GRUE
Posture d'équilibre et de patience.
=> à revoir ?

LES MOINES DE SHAOLIN — 35

STYLE DU SINGE
Le singe bondit.

LES MOINES DE SHAOLIN — 36
"""


def test_a_chapter_pasted_from_a_pdf_rejoins_its_wrapped_lines_without_page_marks():
    """Lines wrapped at a fixed width are one paragraph (a line starting in lower case, or after
    an article, goes on with the one before; a word cut by a hyphen is mended); page numbers and
    running heads are not text; each source line keeps its number for the evidence."""
    document = chapter.parse(PASTED_FROM_PDF, source="c.txt", game="g", options={})
    assert [e.name for e in document.entries] == ["Style du tigre", "Style de la grue", "Style du singe"]
    (paragraph,) = document.entries[0].paragraphs
    assert paragraph.text == ("Le combattant frappe avec une violence qui ne laisse aucun répit à son adversaire. "
                              "Contre un combattant au Style de la grue, la Garde impénétrable ne s'applique pas. "
                              "Il devient insensible à l'Intimidation.")
    assert paragraph.line == 2 and len(paragraph.breaks) == 3
    assert paragraph.text[paragraph.breaks[1]:].startswith("Garde impénétrable")
    assert [p.text for p in document.entries[1].paragraphs] == ["Posture d'équilibre et de patience."]
    assert all("SHAOLIN" not in p.text for e in document.entries for p in e.paragraphs)


def test_a_line_break_in_a_csv_cell_ends_a_paragraph_at_its_own_line():
    """A spreadsheet cell's typed line break ("Un seul par bande" / "Exclut Meneur") separates two
    statements, and each keeps the line an editor shows; the line breaks of the cells before it
    push a later cell down."""
    table = ('nom;effet;restrictions\nAutorité;"Il commande.\nIl rallie.";"Un seul par bande\nExclut Meneur"\n'
             'Meneur;Il mène.;\n')
    document = csv_table.parse(table, source="t.csv", game="g", options={})
    authority = document.entries[0]
    assert [(p.text, p.line) for p in authority.paragraphs] == [
        ("Il commande.", 2), ("Il rallie.", 3), ("Un seul par bande", 3), ("Exclut Meneur", 4)]
    assert document.entries[1].line == 5


def _rulebook_with_tables(skills: int) -> str:
    """A rules summary in the shape of a real one: numbered "###" sections of prose rules, a
    profile table, and the glossary as tables under "### 9.x Compétences …"."""
    prose = "".join(f"### 5.{n} Règle {n}\n\nLe joueur lance 2D6 et applique le résultat.\n\n" for n in range(1, 4))
    rows = [f"| {name} | Active | Relance un dé. Incompatible avec {after}. |\n"
            for name, after in zip(_SKILLS[:skills], _SKILLS[1 : skills + 1], strict=True)]
    header = "| Nom | Type | Description |\n|-----|------|-------------|\n"
    return ("# Résumé des règles\n\n## 5. Séquence de jeu\n\n" + prose
            + "## 9. Compétences\n\n### 9.1 Compétences d'Agilité\n\n" + header + "".join(rows[:3])
            + "\n### 9.2 Compétences de Force\n\n" + header + "".join(rows[3:])
            + "\n## 13. Joueurs vedettes\n\n| Nom | M | F | Compétences principales |\n|---|---|---|---|\n"
            + "| Grak | 6 | 4 | Blocage, Esquive, Garde |\n")


_SKILLS = ["Blocage", "Esquive", "Garde", "Parade", "Tacle", "Lutte", "Frénésie"]


def test_a_rulebook_whose_glossary_is_in_tables_reads_every_row_as_an_entry():
    """More ability rows than "###" sections: the tables hold the glossary, the prose sections
    are no entries, and a profile table listing abilities states no interaction."""
    document = markdown.parse(_rulebook_with_tables(6), source="regles.md", game="g", options={})
    assert [e.name for e in document.entries] == _SKILLS[:6]
    assert document.entries[0].line == 23
    assert not any("Grak" in p.text for p in document.commentary)
    assert any(p.text.startswith("| Grak") and p.line == 39 for p in document.preamble)


def test_one_entry_holding_a_table_among_entries_of_prose_keeps_them_entries():
    """"### Invocation" holding a table of four spells among "###" entries of prose: the entries
    stay entries (the tables under one section are no glossary)."""
    text = ("# T\n\n### Bond\n\nIl saute.\n\n### Vol\n\nIncompatible avec Bond.\n\n### Invocation\n\n| Nom | Effet |\n|---|---|\n"
            "| Feu | Brûle. |\n| Eau | Noie. |\n| Vent | Souffle. |\n| Terre | Enterre. |\n")
    document = markdown.parse(text, source="regles.md", game="g", options={})
    assert [e.name for e in document.entries] == ["Bond", "Vol", "Invocation"]


def test_a_table_inside_an_entry_is_one_paragraph_per_row():
    """A table of profiles under a "###" heading read as an entry is rows, not one sentence of
    12,000 characters with no full stop (refused as too long)."""
    rows = "".join(f"| Joueur {n} | 6 | 3 | Blocage, Esquive, Garde, Parade, Tacle, Lutte |\n" for n in range(200))
    text = f"# Règles\n\n### Blocage\n\nIl bloque.\n\n### Vedettes\n\n| Nom | M | F | Compétences |\n|---|---|---|---|\n{rows}"
    document = markdown.parse(text, source="regles.md", game="g", options={})
    stars = document.entries[1]
    assert len(stars.paragraphs) == 201 and stars.paragraphs[1].line == 11


def test_a_csv_cell_line_that_goes_on_in_lower_case_or_under_a_subheading_stays_one_paragraph():
    """A sentence wrapped in its cell ("il gagne +1 en" / "force") and a "[g]…[/g]" line over its
    text stay one paragraph; a bare "\r" counts as a line like "\n"."""
    table = 'nom;texte\nRage;"[g]Combat[/g]\rIl gagne +1 en\nforce. Il hurle."\nPeur;il fuit\n'
    document = csv_table.parse(table, source="t.csv", game="g", options={})
    assert [(p.text, p.line, p.heading) for p in document.entries[0].paragraphs] == [
        ("Il gagne +1 en force. Il hurle.", 2, "Combat")]
    assert document.entries[1].line == 5


def test_a_characteristics_table_and_a_results_table_are_no_abilities(build_glossary):
    """A rules summary's "Caractéristiques des joueurs" table names characteristics and its
    "Tableau des Événements (2D6)" the results of a roll: neither gives abilities, so "+1 au Test
    d'Agilité" references no "ability" Agilité; the rows' texts stay, in the preamble."""
    text = ("# Résumé\n\n## 1. Caractéristiques des joueurs\n\n| Code | Nom | Description |\n|---|---|---|\n"
            "| M | Mouvement | Cases parcourues. |\n| AG | Agilité | Adresse, pour Esquiver. |\n\n"
            "### 3.4 Tableau des Événements de Coup d'Envoi (2D6)\n\n| 2D6 | Nom | Effet |\n|---|---|---|\n"
            "| 2 | Chandelle | Le ballon monte. |\n| 3 | Charge ! | Les joueurs avancent. |\n\n"
            + _rulebook_with_tables(6).split("# Résumé des règles\n\n", 1)[1]
            + "\n## 14. Compétences d'élite\n\n| Nom | Effet |\n|---|---|\n| Esquive en Force | +1 au Test d'Agilité. Voir Esquive. |\n")
    result = build_glossary(text, "regles.md", game="Bowl")
    names = [entry.name for entry in result.corpus.entries()]
    assert names == [*_SKILLS[:6], "Esquive en Force"]
    document = result.corpus.documents[0]
    assert ("characteristic", "Agilité", 8) in document.terms and ("rule", "Chandelle", 14) in document.terms
    assert any(p.text == "Adresse, pour Esquiver." and p.heading == "Agilité" for p in document.preamble)
    linked = {(s.subject.label, s.relation, s.object.kind, s.object.label) for s in result.statements}
    assert ("Esquive en Force", "references", "ability", "Esquive") in linked
    assert not any(label in {"Agilité", "Mouvement", "Chandelle"} for _s, _r, kind, label in linked if kind == "ability")


def test_a_table_of_abilities_titled_tableau_stays_abilities():
    """"Tableau des compétences" names abilities: its rows are entries."""
    text = "# T\n\n## Tableau des compétences\n\n| Nom | Effet |\n|---|---|\n| Bond | Il saute. |\n| Vol | Il vole. |\n"
    document = markdown.parse(text, source="t.md", game="g", options={})
    assert [(e.name, e.category) for e in document.entries] == [("Bond", "character"), ("Vol", "character")]


def test_a_manifest_maps_a_section_of_states_to_state_terms(tmp_path):
    """A designer whose "ÉTATS" section lists states maps it in the manifest: its entries are
    states, and a text that uses one involves that state instead of naming an ability."""
    from rulegraph.build import build

    (tmp_path / "g.txt").write_text("GLOSSAIRE\n\nÉTATS\n\n- Sonné : ne peut pas riposter.\n\nCAPACITÉS\n\n- Coup de tête : la cible devient Sonnée.\n\n"
                                    "- Garde : annule Coup de tête.\n", encoding="utf-8")
    (tmp_path / "corpus.toml").write_text('[[game]]\nid = "g"\nname = "G"\n\n[[source]]\npath = "g.txt"\ngame = "g"\n'
                                          'format = "chapter"\ncategories = { "États" = "state" }\n', encoding="utf-8")
    result = build(manifest=tmp_path / "corpus.toml")
    assert [entry.name for entry in result.corpus.entries()] == ["Coup de tête", "Garde"]
    assert ("Coup de tête", "involvesState", "Sonné") in {(s.subject.label, s.relation, s.object.label) for s in result.statements}


def test_a_section_text_before_its_entries_is_said_of_each_only_through_a_bearer(build_glossary):
    """A wiki's category introduction mixes rules, flavour, factions and lower-case names
    ("réservées aux factions Canuts et Mutuellistes", "trois pour un chef d'atelier"): read as said
    of each ability, it gave a blind glossary eleven false alarms and no true link. Only a
    sentence that refers back to the section's abilities and names the other one by its bearers
    ("un combattant doté d'Esprit fort") speaks of each."""
    text = ("# T\n\n## Compétences de Croyance\n\nAucune de ces compétences n'affecte un combattant doté d'Esprit fort.\n"
            "Elles sont réservées aux factions Fouille et Esprit fort. Les maîtres du Mauvais oeil sont craints.\n\n"
            "### Mauvais oeil\n\nIl maudit.\n\n### Feu follet\n\nIl brille.\n\n## Gabelle\n\n### Esprit fort\n\nIl doute.\n\n"
            "### Fouille\n\nIl fouille.\n")
    from dataclasses import replace

    from rulegraph.extract.extractor import extract_corpus
    from rulegraph.extract.typer import shipped_model

    result = build_glossary(text, "g.md", game="Sauniers")
    document = result.corpus.documents[0]
    assert not document.preamble and [(section, p.line) for section, p in document.section_texts] == [("Compétences de Croyance", 5)]
    # What reaches the members, whatever bar a relation said of a whole category must clear.
    model = replace(shipped_model(), threshold=0.0, category_threshold=0.0)
    pairs = {frozenset((s.subject.label, s.object.label)) for s in extract_corpus(result.corpus, model=model)
             if s.object.kind == "ability" and s.subject.kind == "ability"}
    assert pairs == {frozenset(("Mauvais oeil", "Esprit fort")), frozenset(("Feu follet", "Esprit fort"))}


def test_a_table_column_that_goes_on_with_the_rule_is_read(build_glossary):
    """"| Capacité | Coût | Effet | Interactions |": the Interactions cell is the rule's own
    paragraph, at the row's line; the cost stays out of the text."""
    text = ("# Corsaires\n\n## Officiers\n\n| Capacité | Coût | Effet | Interactions |\n|---|---|---|---|\n"
            "| Lettre de marque | 5 | Il fait des prises. | Incompatible avec Sans quartier. |\n"
            "| Sans quartier | 3 | Il ne fait pas de prisonniers. | |\n"
            "| Duelliste | 4 | Il se bat seul. | |\n\n## Matelots\n\n| Capacité | Coût | Effet | Interactions |\n|---|---|---|---|\n"
            "| Vigie | 2 | Elle guette. | |\n| Gabier | 2 | Il grimpe. | |\n")
    result = build_glossary(text, "corsaires.md")
    marque = result.corpus.entries()[0]
    assert [(p.text, p.line) for p in marque.paragraphs] == [("Il fait des prises.", 7), ("Incompatible avec Sans quartier.", 7)]
    assert ("Lettre de marque", "excludes", "Sans quartier") in {(s.subject.label, s.relation, s.object.label) for s in result.statements}


def test_a_boxed_aside_between_entries_is_commentary_not_the_entry_above():
    """A fanzine's "ENCADRÉ : …" or "CONSEIL DE JEU : …" after a rule line ("-----") or a blank
    line, its text on the next lines: commentary (read as if in the text of the first ability it
    names), not the text of the entry above it; the next "- Name :" entry starts as usual."""
    text = ("FOIRE D'EMPOIGNE\n\nACROBATIES\n\n- Voltige : la figurine saute.\n\n- Tour de passe-passe :\nIl escamote un objet.\n"
            "-----------------\nENCADRÉ : LA PYRAMIDE HUMAINE\nHercule de foire avec Voltige, c'est redoutable.\n"
            "Voltige ne fonctionne jamais pour une figurine sur Échasses.\n\n- Hercule de foire : il soulève.\n\n- Échasses : il est grand.\n")
    document = chapter.parse(text, source="foire.txt", game="g", options={})
    entries = {e.name: e for e in document.entries}
    assert list(entries) == ["Voltige", "Tour de passe-passe", "Hercule de foire", "Échasses"]
    assert entries["Tour de passe-passe"].text == "Il escamote un objet."
    assert [(p.text, p.line) for p in document.commentary] == [
        ("Hercule de foire avec Voltige, c'est redoutable.", 11), ("Voltige ne fonctionne jamais pour une figurine sur Échasses.", 12)]
    assert entries["Hercule de foire"].glossary_category == entries["Voltige"].glossary_category


def test_inline_html_a_forum_export_leaves_is_read_as_text():
    """A CMS export's "<br>", "&nbsp;", "&laquo; &raquo;" and "<b>Nom</b>": a break is a space, an
    entity its character, bold text a phrase marked as a likely name; "x < 3 & y" stays as it is."""
    text = ("# Avignon\n\n## Combat\n\n### Vigilant\n\nLes ennemis à 8&nbsp;ps perdent <b>Discret</b>.<br>S’il est armé, il tire "
            "&laquo;&nbsp;avant&nbsp;&raquo; (x < 3 & y).\n\n### Discret\n\nIl se cache.\n")
    entry = markdown.parse(text, source="forum.md", game="g", options={}).entries[0]
    assert entry.text == "Les ennemis à 8 ps perdent Discret. S’il est armé, il tire « avant » (x < 3 & y)."
    assert "Discret" in entry.paragraphs[0].marked


def test_a_section_title_with_a_colon_over_entries_is_no_aside():
    """"CAPACITÉS : COMBAT" followed by a "- Name :" entry is a section, not a boxed aside."""
    text = "G\n\nACROBATIES\n\n- Saut : il saute.\n\nCAPACITÉS : COMBAT\n- Coup : il frappe.\n\n- Garde : il pare.\n"
    document = chapter.parse(text, source="g.txt", game="g", options={})
    assert [(e.name, e.glossary_category) for e in document.entries] == [
        ("Saut", "ACROBATIES"), ("Coup", "CAPACITÉS : COMBAT"), ("Garde", "CAPACITÉS : COMBAT")]


@pytest.mark.parametrize("title, kind", [("Tableau des règles spéciales", "character"), ("Tableau des mots-clés", "character"),
                                         ("Tableau des armes", "weapon"), ("Tableau des Événements (2D6)", "rule"),
                                         ("1. Caractéristiques des joueurs", "characteristic")])
def test_a_table_title_that_names_abilities_or_weapons_keeps_them(title, kind):
    from rulegraph.readers.entries import category_class

    assert category_class(title, {}) == kind


def test_struck_html_is_dropped_and_an_authors_angle_brackets_are_kept():
    """"<del>…</del>" is a removed rule like "~~…~~"; "<niveau>" is the author's, not markup."""
    assert markdown.strip_markup("Il vole. <del>Incompatible avec Nage.</del> Fin.")[0] == "Il vole. Fin."
    assert markdown.strip_markup("Bonus par <niveau> de Vol.<br>Fin.")[0] == "Bonus par <niveau> de Vol. Fin."


def test_a_wiki_link_is_its_shown_text_and_marks_a_name(tmp_path):
    """"perd sa _[[Garde]]_", "[[Moral#Tests|le Moral]]": the brackets are a wiki's link syntax,
    and the entry reads as if they were not there."""
    clean, marked = markdown.strip_markup("Il perd sa _[[Garde]]_ et teste [[Moral#Tests|le Moral]].")
    assert clean == "Il perd sa Garde et teste le Moral."
    assert {"Garde", "le Moral"} <= set(marked)
    from rulegraph.build import build

    def relations(garde: str) -> set[tuple[str, str, str, str]]:
        path = tmp_path / f"wiki{len(garde)}.md"
        path.write_text("# Wiki\n\n## Combat\n\n### Charge furieuse\n\nLe combattant qui profite de Charge furieuse "
                        f"perd sa {garde} jusqu'à la fin du tour.\n\n### Garde\n\nIl pare.\n", encoding="utf-8")
        return {(s.subject.label, s.relation, s.object.label, s.sentence) for s in build(files=[path], game="wiki").statements
                if s.object.kind == "ability"}

    assert relations("_[[Garde]]_") == relations("Garde") != set()


def test_a_notes_column_may_say_whose_notes_they_are():
    from rulegraph.readers import fields

    assert fields.find_notes(["Nom", "Règle", "Remarques auteur"], ["Nom", "Règle"]) == "Remarques auteur"
    assert fields.find_notes(["Nom", "Notes", "note_auteur"]) == "Notes"
    assert fields.find_notes(["Nom", "Règle", "Coût par niveau"]) is None


def test_a_chapter_of_numbered_skills_under_numbered_families():
    """"2. COMPÉTENCES DE COMBAT" numbers a section; "2.1 Allonge" alone on its line, its bullets
    after it, opens an entry, as a rulebook's appendix numbers its skills."""
    text = ("ANNEXE III : RÉPERTOIRE\n\nToutes les compétences sont numérotées.\n\n2. COMPÉTENCES DE COMBAT\n\n"
            "2.1 Allonge\n    • Effet : elle frappe à 3 cm.\n    • Voir aussi : Coup d’arrêt (2.2).\n\n"
            "2.2 Coup d’arrêt\n    • Effet : elle frappe qui charge.\n    • Restriction : Pas de loup l’annule.\n\n"
            "3. COMPÉTENCES D’OUVRAGE\n\n3.1 Pas de loup\n    • Effet : elle se faufile.\n")
    document = chapter.parse(text, source="annexe.txt", game="g", options={})
    assert [(e.name, e.glossary_category, e.line) for e in document.entries] == [
        ("Allonge", "Compétences de combat", 7), ("Coup d’arrêt", "Compétences de combat", 11),
        ("Pas de loup", "Compétences d’ouvrage", 17)]
    assert [p.text for p in document.entries[0].paragraphs] == ["• Effet : elle frappe à 3 cm.", "• Voir aussi : Coup d’arrêt (2.2)."]


def test_a_readme_of_bold_paragraph_entries_keeps_its_headings_as_sections(tmp_path):
    """A fan project's README: "**Nom** — texte" paragraphs under emoji subsections, and a closing
    "## Interactions connues" list. A heading right over a bold entry, or one that opens with a
    commentary word, is no ability; the closing list is commentary."""
    text = ("# 🌻 Les Horticulteurs\n\nUn jeu de fans.\n\n## Capacités\n\n### ⚔️ Corps à corps\n\n"
            "**Coup de bêche** — Il frappe. Voir aussi Riposte.\n\n**Riposte** — Il rend les coups.\n\n"
            "### 🎃 Types de figurines\n\n**Épouvantail** — Il effraie.\n\n"
            "## Interactions connues\n\nEn vrac :\n\n- Riposte et Coup de bêche s’annulent.\n")
    path = tmp_path / "README.md"
    path.write_text(text, encoding="utf-8")
    document = markdown.parse(text, source="README.md", game="g", options={})
    assert [(e.name, e.glossary_category) for e in document.entries] == [
        ("Coup de bêche", "⚔️ Corps à corps"), ("Riposte", "⚔️ Corps à corps"), ("Épouvantail", "🎃 Types de figurines")]
    assert [p.text for p in document.commentary] == ["En vrac :", "- Riposte et Coup de bêche s’annulent."]


def test_a_conditions_column_goes_on_with_the_rule():
    """"Capacité,Catégorie,Points,Description,Conditions": "Requiert Sous-bois" is rule text."""
    text = ('"Capacité","Catégorie","Points","Description","Conditions"\n'
            '"Embuscade","Ruse","10","Elle surgit.","Requiert Sous-bois."\n"Sous-bois","Ruse","5","Il se cache.",""\n')
    entry = csv_table.parse(text, source="s.csv", game="g", options={}).entries[0]
    assert [p.text for p in entry.paragraphs] == ["Elle surgit.", "Requiert Sous-bois."]


def test_a_word_processor_chapter_of_tabbed_entries_and_footnotes():
    """"Riposte<TAB>texte" lines under sections in capitals; a footnote gathered at the end
    ("[2] Précision : …") goes on with the entry that calls it ("…sur lui[2]."), at its own line."""
    text = ("LES FACTEURS\n\nCAPACITÉS DE COMBAT\nRiposte\tIl rend les coups[1].\nFeinte\tSa cible perd sa Garde.\n"
            "Garde\tIl pare les coups, sauf les Feintes[2].\n\nNOTES\n[1] Précision : une seule par tour.\n"
            "[2] Précision : Garde ne protège pas de la Riposte.\n")
    document = chapter.parse(text, source="f.txt", game="g", options={})
    entries = {e.name: e for e in document.entries}
    assert list(entries) == ["Riposte", "Feinte", "Garde"]
    assert [(p.text, p.line) for p in entries["Garde"].paragraphs] == [
        ("Il pare les coups, sauf les Feintes.", 6), ("Précision : Garde ne protège pas de la Riposte.", 10)]
    assert [p.text for p in entries["Riposte"].paragraphs] == ["Il rend les coups.", "Précision : une seule par tour."]


def test_pinned_messages_title_each_ability_in_bold_alone_on_its_line():
    """A chat's pinned rules: "**__Feutre épais__**" alone on its line, the text on the next,
    a quoted answer after it; a bold line followed by a blank line is no entry."""
    text = ("**📌 MESSAGES ÉPINGLÉS**\n\nCoucou !\n\n**__Feutre épais__**\nIl encaisse.\n> @Hatter : ça marche avec Bord roulé\n\n"
            "**__Bord roulé__**\nLe chapeau tient.\nEDIT : Bord roulé annule bien Coup de vent.\n\n"
            "**__Coup de vent X__**\nIl souffle.\n")
    document = markdown.parse(text, source="pins.md", game="g", options={})
    assert [(e.name, e.line) for e in document.entries] == [("Feutre épais", 5), ("Bord roulé", 9), ("Coup de vent", 13)]
    assert [p.text for p in document.entries[1].paragraphs] == ["Le chapeau tient. EDIT : Bord roulé annule bien Coup de vent."]
