"""JSON as apps write it: an object of categories, a list, a list under a key; fields detected or
named on the command line; other fields kept; the true line of every entry, even with two
sources on one file; categories as rg:category, filtered by ``rulegraph check --category``."""

from __future__ import annotations

import json

import pytest
from rdflib import RDF, RDFS

from rulegraph.build import build
from rulegraph.cli import main
from rulegraph.errors import RulegraphError
from rulegraph.graph import load_graph
from rulegraph.namespaces import RG
from rulegraph.readers import json_glossary

SKILLS = """{
  "version": 2,
  "combat": [
    {"id": "c1", "nom": "Frappe rapide", "texte": "Frappe rapide et Riposte rapide s'annulent mutuellement.", "cout": 2},
    {"id": "c2", "nom": "Riposte rapide", "texte": "Le guerrier riposte avant son adversaire."},
    {"id": "c3", "nom": "Parade", "texte": "Le guerrier pare la première attaque."}
  ],
  "tir": [
    {"id": "t1", "nom": "Tir rapide", "texte": "Le tireur tire deux fois."},
    {
      "id": "t2",
      "nom": "Tir en Mouvement",
      "texte": "Le tireur peut tirer après avoir couru. Cette capacité annule Parade.",
      "portee": {"min": 0, "max": 24}
    }
  ]
}
"""


def _line(text: str, fragment: str) -> int:
    return text[: text.index(fragment)].count("\n") + 1


def test_object_of_categories_with_nom_texte_and_no_manifest(tmp_path, capsys):
    path = tmp_path / "skills.json"
    path.write_text(SKILLS, encoding="utf-8")
    assert main(["build", str(path), "--game", "Mordheim", "--out", str(tmp_path / "out")]) == 0
    assert "categories: combat 3, tir 2" in capsys.readouterr().out
    graph = load_graph(tmp_path / "out" / "graph.ttl")
    abilities = {str(graph.value(n, RDFS.label)): n for n in graph.subjects(RDF.type, RG.CharacterAbility)}
    assert len(abilities) == 5
    tir = abilities["Tir en Mouvement"]
    assert str(graph.value(graph.value(tir, RG.category), RDFS.label)) == "tir"
    assert int(graph.value(tir, RG.line)) == _line(SKILLS, '"nom": "Tir en Mouvement"')
    attributes = {str(graph.value(a, RG.key)): str(graph.value(a, RG.value)) for a in graph.objects(tir, RG.hasAttribute)}
    assert attributes == {"id": "t2", "portee": '{"max": 24, "min": 0}'}
    categories = {str(graph.value(c, RDFS.label)) for c in graph.subjects(RDF.type, RG.Category)}
    assert categories == {"combat", "tir"}


def test_two_sources_on_one_file_keep_each_entry_on_its_own_line(tmp_path):
    (tmp_path / "skills.json").write_text(SKILLS, encoding="utf-8")
    (tmp_path / "corpus.toml").write_text(
        '[[game]]\nid = "mordheim"\nname = "Mordheim"\n\n'
        '[[source]]\npath = "skills.json"\ngame = "mordheim"\nentries_key = "combat"\nname_field = "nom"\ntext_field = "texte"\n\n'
        '[[source]]\npath = "skills.json"\ngame = "mordheim"\nentries_key = "tir"\nname_field = "nom"\ntext_field = "texte"\n',
        encoding="utf-8")
    result = build(tmp_path / "corpus.toml")
    lines = {e.name: (e.line, e.glossary_category) for e in result.corpus.entries()}
    assert lines == {
        name: (_line(SKILLS, f'"nom": "{name}"'), category)
        for name, category in [("Frappe rapide", "combat"), ("Riposte rapide", "combat"), ("Parade", "combat"),
                               ("Tir rapide", "tir"), ("Tir en Mouvement", "tir")]
    }
    text_line = _line(SKILLS, '"texte": "Le tireur peut tirer')
    tir = next(e for e in result.corpus.entries() if e.name == "Tir en Mouvement")
    assert {p.line for p in tir.paragraphs} == {text_line}
    assert all(s.line == text_line for s in result.statements if s.subject.label == "Tir en Mouvement")


@pytest.mark.parametrize("shape", ["list", "under a key"])
def test_a_list_and_a_list_under_a_key_are_detected(shape):
    records = [{"name": "Fouisseur", "description": "Ignore les terrains.", "tags": ["terrain"]},
               {"name": "Volant", "description": "Vole."}]
    data = records if shape == "list" else {"meta": {"auteur": "moi"}, "skills": records}
    entries = json_glossary.parse(json.dumps(data, indent=1), source="s.json", game="g", options={}).entries
    assert [(e.name, e.text, e.tags, e.glossary_category) for e in entries] == [
        ("Fouisseur", "Ignore les terrains.", ("terrain",), ""), ("Volant", "Vole.", (), "")]
    assert entries[0].line < entries[1].line


def test_fields_named_on_the_command_line(tmp_path, capsys):
    path = tmp_path / "app.json"
    path.write_text(json.dumps([{"intitule_court": "Lent", "regle_complete": "Avance peu.", "nom": "ignored"}]), encoding="utf-8")
    assert main(["build", str(path), "--game", "G", "--name-field", "intitule_court", "--text-field", "regle_complete",
                 "--out", str(tmp_path / "out")]) == 0
    graph = load_graph(tmp_path / "out" / "graph.ttl")
    ability = next(graph.subjects(RDF.type, RG.CharacterAbility))
    assert (str(graph.value(ability, RDFS.label)), str(graph.value(ability, RG.text))) == ("Lent", "Avance peu.")


def test_a_missing_named_field_says_how_to_name_it(tmp_path, capsys):
    path = tmp_path / "app.json"
    path.write_text('[\n  {"titre": "Lent"}\n]', encoding="utf-8")
    assert main(["build", str(path), "--game", "G", "--name-field", "nom", "--out", str(tmp_path / "out")]) == 2
    assert "--name-field" in capsys.readouterr().err


@pytest.mark.parametrize(("text", "line", "message"), [
    ('{"skills":\n' + "[" * 10_000 + "]" * 10_000 + "}", 2, "nested more than"),
    ('[\n {"nom": "A",\n  "cout": ' + "9" * 5001 + "}]", 3, "cannot be read"),
    ('[\n {"nom": "A",\n }]', 3, "invalid JSON"),
])
def test_hostile_json_is_one_clear_line_and_exit_2(tmp_path, capsys, text, line, message):
    path = tmp_path / "skills.json"
    path.write_text(text, encoding="utf-8")
    assert main(["build", str(path), "--game", "G", "--out", str(tmp_path / "out")]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"rulegraph: {path}:{line}: ") and message in error
    assert error.count("\n") == 1 and "Traceback" not in error


def test_no_list_of_abilities_names_the_options():
    with pytest.raises(RulegraphError, match="--name-field") as error:
        json_glossary.parse('{"version": 1, "auteur": "moi"}', source="s.json", game="g", options={})
    assert error.value.line == 1


def test_check_filters_by_category(tmp_path, capsys):
    path = tmp_path / "skills.json"
    path.write_text(SKILLS, encoding="utf-8")
    main(["check", str(path), "--game", "Mordheim", "--json"])
    everything = json.loads(capsys.readouterr().out)
    main(["check", str(path), "--game", "Mordheim", "--json", "--category", "Combat"])
    combat = json.loads(capsys.readouterr().out)
    combat_names = {"Frappe rapide", "Riposte rapide", "Parade"}
    assert combat and {f["subject"] for f in combat} <= combat_names
    assert [f for f in everything if f["subject"] in combat_names] == combat
    assert main(["check", str(path), "--game", "Mordheim", "--category", "magie"]) == 2
    assert "categories: combat, tir" in capsys.readouterr().err


def test_csv_category_column_and_other_columns(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("nom;texte;catégorie;coût\nLent;Avance peu.;Mouvement;2\nLame;Coupe.;Armes;\n", encoding="utf-8")
    entries = build(files=[path], game="G").corpus.entries()
    assert [(e.name, e.glossary_category, e.category, e.attributes) for e in entries] == [
        ("Lent", "Mouvement", "character", (("coût", "2"),)), ("Lame", "Armes", "weapon", ())]


def test_atlas_offers_the_categories_as_a_filter(tmp_path):
    from rulegraph.views.atlas import atlas_data, render_atlas
    from rulegraph.views.networkx_view import to_networkx

    path = tmp_path / "skills.json"
    path.write_text(SKILLS, encoding="utf-8")
    graph = build(files=[path], game="Mordheim").graph
    data = atlas_data(to_networkx(graph))
    assert data["categories"] == ["combat", "tir"]
    groups = {info["label"]: info["group"] for info in data["nodeInfo"] if info["kind"] == "ability"}
    assert groups["Tir en Mouvement"] == "tir" and groups["Parade"] == "combat"
    page = render_atlas(graph)
    assert 'id="categories"' in page and "state.categories.has(info.group)" in page


def test_records_under_their_names():
    text = '{\n "tir": {\n  "Tir rapide": {"effet": "Tire deux fois.", "portee": 12},\n  "Visée": {"effet": "Relance."}\n }\n}'
    entries = json_glossary.parse(text, source="s.json", game="g", options={}).entries
    assert [(e.name, e.text, e.line, e.glossary_category, e.attributes) for e in entries] == [
        ("Tir rapide", "Tire deux fois.", 3, "tir", (("portee", "12"),)), ("Visée", "Relance.", 4, "tir", ())]


def test_a_notes_column_holds_designer_notes_whose_names_are_references(tmp_path):
    """A designer's spreadsheet keeps its open questions in a "notes" column, with or without
    "=>": they are notes (RG001), not attributes, and an ability they name is a reference."""
    path = tmp_path / "t.csv"
    path.write_text("nom;type;effet;notes\n"
                    "Dur à cuire;Combat;+1 PV. Ignore le premier Sonné.;cumulable avec Insensible ?\n"
                    "Insensible;Combat;Ignore les malus de blessure.;=> à simplifier ?\n"
                    "Lent;Mouvement;Avance peu.;\n", encoding="utf-8")
    result = build(files=[path], game="G")
    entries = {e.name: e for e in result.corpus.entries()}
    assert [n.text for n in entries["Dur à cuire"].notes] == ["cumulable avec Insensible ?"]
    assert [(n.text, n.line) for n in entries["Insensible"].notes] == [("à simplifier ?", 3)]
    assert entries["Lent"].notes == () and all(key != "notes" for key, _ in entries["Dur à cuire"].attributes)
    assert [(s.subject.label, s.relation, s.object.label, s.line) for s in result.statements] == [
        ("Dur à cuire", "references", "Insensible", 2)]
    from rulegraph.checks import run_checks

    assert {f.subject for f in run_checks(result.graph, ["RG001"])} == {"Dur à cuire", "Insensible"}


def test_a_notes_field_of_an_app_file_holds_designer_notes(tmp_path):
    path = tmp_path / "skills.json"
    path.write_text('{\n "combat": [\n  {\n   "nom": "Parade",\n   "texte": "Pare une attaque.",\n'
                    '   "notes": "=> trop proche d\'Esquive ?"\n  },\n'
                    '  {\n   "nom": "Esquive",\n   "texte": "Évite une attaque.",\n   "remarques": ["à tester", "=> coût ?"]\n  }\n ]\n}',
                    encoding="utf-8")
    entries = {e.name: e for e in build(files=[path], game="G").corpus.entries()}
    assert [(n.text, n.line) for n in entries["Parade"].notes] == [("trop proche d'Esquive ?", 6)]
    assert [n.text for n in entries["Esquive"].notes] == ["à tester", "coût ?"]


def test_a_clarification_column_goes_on_with_the_rule(tmp_path):
    """A publisher's spreadsheet states interactions in a "clarification" column: its sentences
    are the ability's text too (they were an attribute, and their links were lost)."""
    path = tmp_path / "t.csv"
    path.write_text("nom;texte;clarification;coût\n"
                    "Bandelettes;Relance les jets de DEF ratés.;Ne fonctionne pas contre les attaques de Feu sacré.;3\n"
                    "Feu sacré;Les armes brûlent.;;2\n", encoding="utf-8")
    result = build(files=[path], game="G")
    entries = {e.name: e for e in result.corpus.entries()}
    assert entries["Bandelettes"].text == "Relance les jets de DEF ratés.\nNe fonctionne pas contre les attaques de Feu sacré."
    assert entries["Bandelettes"].attributes == (("coût", "3"),)
    assert {(frozenset((s.subject.label, s.object.label)), s.line) for s in result.statements} == {
        (frozenset(("Bandelettes", "Feu sacré")), 2)}


def test_a_compound_header_is_read_by_its_parts(tmp_path):
    """A spreadsheet's headers join two names ("Précisions / interactions", "Règle (texte)"): a
    part that names a kind is enough, and a header of no kind stays an attribute."""
    path = tmp_path / "t.csv"
    path.write_text("Nom;Catégorie;Coût (pts);Règle;Précisions / interactions;Notes & questions\n"
                    "Piétinement;Tribu;3;Inflige des touches.;La cible ne peut pas utiliser Esquive contre elles.;=> trop fort ?\n"
                    "Esquive;Tribu;2;Évite une touche.;;\n", encoding="utf-8")
    result = build(files=[path], game="G")
    entry = next(e for e in result.corpus.entries() if e.name == "Piétinement")
    assert entry.text == "Inflige des touches.\nLa cible ne peut pas utiliser Esquive contre elles."
    assert entry.attributes == (("Coût (pts)", "3"),)
    assert entry.glossary_category == "Tribu"
    assert [n.text for n in entry.notes] == ["trop fort ?"]
    assert {(s.subject.label, s.object.label) for s in result.statements} == {("Piétinement", "Esquive")}


def test_a_compound_field_name_of_an_app_file_is_read_by_its_parts(tmp_path):
    path = tmp_path / "skills.json"
    path.write_text('[\n {"nom": "Parade", "texte": "Pare une attaque.", "faq / errata": "Ne fonctionne pas contre Feinte.",\n'
                    '  "prérequis / pré-requis": "Feinte"},\n {"nom": "Feinte", "texte": "Trompe."}\n]', encoding="utf-8")
    result = build(files=[path], game="G")
    parade = next(e for e in result.corpus.entries() if e.name == "Parade")
    assert parade.text == "Pare une attaque.\nNe fonctionne pas contre Feinte."
    assert ("Parade", "requires", "Feinte") in {(s.subject.label, s.relation, s.object.label) for s in result.statements}


def test_an_errata_field_of_an_app_file_goes_on_with_the_rule(tmp_path):
    path = tmp_path / "skills.json"
    path.write_text('{\n "combat": [\n  {\n   "nom": "Parade",\n   "texte": "Pare une attaque.",\n'
                    '   "errata": "Ne fonctionne plus contre Feinte."\n  },\n  {\n   "nom": "Feinte",\n   "texte": "Trompe."\n  }\n ]\n}',
                    encoding="utf-8")
    result = build(files=[path], game="G")
    parade = next(e for e in result.corpus.entries() if e.name == "Parade")
    assert [(p.text, p.line) for p in parade.paragraphs] == [("Pare une attaque.", 5), ("Ne fonctionne plus contre Feinte.", 6)]
    assert {(frozenset((s.subject.label, s.object.label)), s.line) for s in result.statements} == {
        (frozenset(("Parade", "Feinte")), 6)}


def test_a_prerequisites_column_names_what_an_ability_requires(tmp_path):
    """An army builder's "prérequis" column: each ability named there is required, stated as data
    (confidence 1, its own rule), and the cell stays an attribute."""
    path = tmp_path / "t.csv"
    path.write_text("id;nom;description;prérequis\n"
                    "F1;Foreuse;Creuse la roche.;\n"
                    "F2;Foreuse à plasma;Creuse plus vite.;Foreuse\n"
                    "F3;Carottage;Prélève un échantillon.;Foreuse ou Foreuse à plasma\n", encoding="utf-8")
    result = build(files=[path], game="G")
    edges = sorted((s.subject.label, s.relation, s.object.label, s.line, s.confidence, s.rule) for s in result.statements)
    assert edges == [("Carottage", "requires", "Foreuse", 4, 1.0, "prerequisites field"),
                     ("Carottage", "requires", "Foreuse à plasma", 4, 1.0, "prerequisites field"),
                     ("Foreuse à plasma", "requires", "Foreuse", 3, 1.0, "prerequisites field")]
    assert next(e for e in result.corpus.entries() if e.name == "Carottage").attributes == (
        ("id", "F3"), ("prérequis", "Foreuse ou Foreuse à plasma"))


def test_an_incompatibilities_field_names_what_an_ability_excludes(build_glossary):
    """An app's "incompatible_avec" list (a snake_case key, read as words): each ability named
    there is excluded, stated as data, and each of a "voir_aussi" list referred to; "mots_cles"
    are the entry's tags."""
    result = build_glossary('{"Archerie": [\n'
                            ' {"nom": "Tir ajusté", "texte": "Relance un tir.", "mots_cles": ["tir"],\n'
                            '  "incompatible_avec": ["Tir en mouvement", "Volée"]},\n'
                            ' {"nom": "Tir en mouvement", "texte": "Tire en courant.", "voir_aussi": ["Volée"]},\n'
                            ' {"nom": "Volée", "texte": "Tire deux fois."}]}\n', "elfes.json", game="G")
    edges = sorted((s.subject.label, s.relation, s.object.label, s.line, s.confidence, s.rule) for s in result.statements)
    assert edges == [("Tir ajusté", "excludes", "Tir en mouvement", 2, 1.0, "incompatibilities field"),
                     ("Tir ajusté", "excludes", "Volée", 2, 1.0, "incompatibilities field"),
                     ("Tir en mouvement", "references", "Volée", 4, 1.0, "see-also field")]
    assert next(e for e in result.corpus.entries() if e.name == "Tir ajusté").tags == ("tir",)


def test_a_compound_field_is_read_as_one_kind_only(tmp_path):
    """"faq / notes" goes on with the text (the first kind that claims it), not also into the notes;
    "Prérequis / restrictions" stays the prerequisites it names, not more text."""
    path = tmp_path / "skills.json"
    path.write_text('[{"nom": "Vol", "texte": "Vole.", "faq / notes": "Ne marche pas contre Saut.",'
                    ' "prérequis / restrictions": "Saut"},\n {"nom": "Saut", "texte": "Saute."}]', encoding="utf-8")
    result = build(files=[path], game="G")
    vol = next(e for e in result.corpus.entries() if e.name == "Vol")
    assert (vol.text, [n.text for n in vol.notes]) == ("Vole.", ["Ne marche pas contre Saut."])
    assert ("Vol", "requires", "Saut") in {(s.subject.label, s.relation, s.object.label) for s in result.statements}
    table = tmp_path / "t.csv"
    table.write_text("nom;texte;Prérequis / restrictions\nVol;Vole.;Saut\nSaut;Saute.;\n", encoding="utf-8")
    result = build(files=[table], game="G")
    assert next(e for e in result.corpus.entries() if e.name == "Vol").text == "Vole."
    assert ("Vol", "requires", "Saut") in {(s.subject.label, s.relation, s.object.label) for s in result.statements}


def test_an_app_that_names_its_abilities_libelle_is_read(build_glossary):
    """"libelle" (the French for a label) names the ability, "regle" holds its text."""
    result = build_glossary('{"Infanterie": [\n {"code": "INF01", "libelle": "Carré", "regle": "Forme un carré.", "points": 3},\n'
                            ' {"code": "INF02", "libelle": "Tirailleur", "regle": "Combat dispersé.", "exclusions": ["Carré"]}]}\n',
                            "zouaves.json", game="G")
    assert [(e.name, e.text) for e in result.corpus.entries()] == [("Carré", "Forme un carré."), ("Tirailleur", "Combat dispersé.")]
    assert [(s.subject.label, s.relation, s.object.label) for s in result.statements if s.object.kind == "ability"] == [
        ("Tirailleur", "excludes", "Carré")]


def test_english_plural_field_names_rules_and_conflicts_are_read(build_glossary):
    """An app exporting "rules" (not "rule") and "conflicts" lists: the text is read and the
    conflicts are excludes edges."""
    text = ('[{"name": "Argile animée", "rules": "Il n\'est jamais affecté par Venin.", "conflicts": ["Shem"]},\n'
            ' {"name": "Venin", "rules": "Empoisonne la cible.", "conflicts": []},\n'
            ' {"name": "Shem", "rules": "Le mot divin.", "conflicts": []}]\n')
    result = build_glossary(text, "capacites.json")
    edges = {(s.subject.label, s.relation, s.object.label) for s in result.statements if s.object.kind == "ability"}
    assert ("Argile animée", "immuneTo", "Venin") in edges
    assert ("Argile animée", "excludes", "Shem") in edges


BILINGUAL = """[
  {
    "name": { "en": "Strike to Injure", "fr": "Frapper pour Blesser" }, "category": "Combat",
    "description": {
      "en": "Add +1 to all injury rolls.",
      "fr": "Ajoutez +1 aux jets de Blessure. Il ajoute +1 en Capacité de Combat lorsqu'il charge."
    }
  },
  {
    "name": { "en": "Quick Shot", "fr": "Tir Rapide" }, "category": "Shooting",
    "description": { "en": "Shoot twice.", "fr": "Tire deux fois." }
  },
  {
    "name": { "en": "Nimble", "fr": "Agile" }, "category": "Shooting",
    "description": { "en": "Cannot be combined with Quick Shot.", "fr": "Ne peut pas être combinée avec Tir Rapide." }
  },
  { "name": { "en": "Dodge", "fr": "Esquive" }, "category": "Combat", "description": { "en": "Dodges.", "fr": "Esquive." } }
]
"""


def test_a_bilingual_app_file_is_read_in_the_corpus_language_at_that_language_line(tmp_path):
    """``{"en": …, "fr": …}`` names and texts, as bilingual apps store them: the French ones,
    each at the line of its "fr" key; "+1 en Capacité de Combat" is the characteristic, not every
    ability of the category Combat."""
    path = tmp_path / "Skills.json"
    path.write_text(BILINGUAL, encoding="utf-8")
    result = build(files=[path], game="Mordheim")
    entries = result.corpus.entries()
    assert [(e.name, e.line) for e in entries] == [("Frapper pour Blesser", 3), ("Tir Rapide", 10), ("Agile", 14), ("Esquive", 17)]
    assert entries[2].paragraphs[0].line == 15
    assert [(s.subject.label, s.relation, s.object.label, s.line) for s in result.statements if s.object.kind == "ability"] == [
        ("Agile", "excludes", "Tir Rapide", 15)]


@pytest.mark.parametrize("record, field", [
    ('{"name": {"en": "Dodge", "de": "Ausweichen"}, "description": "Esquive."}', "name"),
    ('{"name": {"en": "Dodge", "fr": "Esquive"}, "description": {"en": "Dodges."}}', "description"),
])
def test_a_field_without_the_corpus_language_names_the_language_it_lacks(tmp_path, record, field):
    """A record left untranslated says which field lacks French and which languages it has,
    at that record's line, instead of "must be text" or "no name"."""
    path = tmp_path / "Skills.json"
    path.write_text('[\n  {"name": {"fr": "Esquive"}, "description": "Il esquive."},\n  ' + record + "\n]\n", encoding="utf-8")
    with pytest.raises(RulegraphError, match=f"field '{field}' has no text in 'fr', only in 'en'") as error:
        build(files=[path], game="Mordheim")
    assert error.value.line == 3
    assert "language" in str(error.value)


def test_an_object_of_numbers_under_language_like_keys_is_no_translation():
    """``"caracs": {"fr": 4, "ag": 3}`` (characteristics) is kept whole as an attribute."""
    document = json_glossary.parse('[{"nom": "Brute", "texte": "Il frappe.", "caracs": {"fr": 4, "ag": 3}}]',
                                   source="a.json", game="g", options={"language": "fr"})
    assert dict(document.entries[0].attributes)["caracs"] == '{"ag": 3, "fr": 4}'


APP_WITH_CATEGORIES = """{
  "categories": [
    {"id": "contrebande", "nom": "Contrebande", "description": "Les ruses des faux-sauniers. Aucune d'entre elles n'est cumulable avec Serment."},
    {"id": "gabelle", "nom": "Gabelle", "description": "Les gapians de la Ferme."}
  ],
  "competences": [
    {"nom": "Embuscade", "categorie": "contrebande", "description": "Il surgit."},
    {"nom": "Passeur", "categorie": "contrebande", "description": "Il passe."},
    {"nom": "Serment", "categorie": "gabelle", "description": "Il jure."},
    {"nom": "Fouille", "categorie": "gabelle", "description": "Il fouille."}
  ]
}
"""


def test_an_app_that_lists_its_categories_beside_its_abilities(tmp_path):
    """A "categories" list whose ids the abilities' "categorie" fields name holds no abilities:
    each ability's category is that record's name, and its description is the category's own
    text, where "aucune d'entre elles" is each of its abilities."""
    path = tmp_path / "app.json"
    path.write_text(APP_WITH_CATEGORIES, encoding="utf-8")
    result = build(files=[path], game="Sauniers")
    entries = result.corpus.entries()
    assert [(e.name, e.glossary_category) for e in entries] == [
        ("Embuscade", "Contrebande"), ("Passeur", "Contrebande"), ("Serment", "Gabelle"), ("Fouille", "Gabelle")]
    assert [(category, p.line) for category, p in result.corpus.documents[0].category_texts] == [("Contrebande", 3), ("Gabelle", 4)]
    linked = {frozenset((s.subject.label, s.object.label)) for s in result.statements if s.line == 3 and s.object.kind == "ability"}
    assert linked == {frozenset(("Embuscade", "Serment")), frozenset(("Passeur", "Serment"))}


def test_a_list_named_categories_that_no_ability_points_at_stays_a_list_of_entries():
    """A "categories" list is a list of categories only when the abilities name them."""
    text = '{"categories": [{"nom": "Bond", "texte": "Il saute."}, {"nom": "Vol", "texte": "Il vole."}]}'
    document = json_glossary.parse(text, source="a.json", game="g", options={})
    assert [e.name for e in document.entries] == ["Bond", "Vol"] and document.category_texts == ()


def test_an_app_that_nests_its_abilities_in_factions_reads_each_faction_list(tmp_path):
    """"factions": [{"nom": …, "description": …, "capacites": […]}] beside a shared list: the
    factions are groups, not abilities; each ability's category is its faction, and the
    faction's description is that category's text."""
    text = """{
  "factions": [
    {"id": "s", "nom": "Sauveteurs", "description": "Canotiers de Lampaul.",
     "capacites": [{"intitule": "Canotier", "effet": "Il rame."}, {"intitule": "Patron", "effet": "Seul un combattant possédant déjà Canotier peut devenir patron."}]},
    {"id": "n", "nom": "Naufrageurs", "description": "Pilleurs de grève.",
     "capacites": [{"intitule": "Fausse lanterne", "effet": "Un Patron n'est jamais dupe."}]}
  ],
  "capacites_communes": [{"intitule": "Nageur", "effet": "Il nage."}]
}
"""
    path = tmp_path / "app.json"
    path.write_text(text, encoding="utf-8")
    result = build(files=[path], game="Ouessant")
    assert [(e.name, e.glossary_category, e.line) for e in result.corpus.entries()] == [
        ("Canotier", "Sauveteurs", 4), ("Patron", "Sauveteurs", 4), ("Fausse lanterne", "Naufrageurs", 6), ("Nageur", "capacites_communes", 8)]
    assert [(category, p.text, p.line) for category, p in result.corpus.documents[0].category_texts] == [
        ("Sauveteurs", "Canotiers de Lampaul.", 3), ("Naufrageurs", "Pilleurs de grève.", 5)]
    assert ("Patron", "requires", "Canotier") in {(s.subject.label, s.relation, s.object.label) for s in result.statements}


def test_an_errata_or_faq_line_of_a_notes_column_is_a_ruling(tmp_path):
    """A notes cell holding "Errata 1.1 : incompatible avec Mercenaire" and "=> à revoir ?" on two
    lines: the erratum goes on with the rule (an exclusion, at its own line), the other line stays
    a designer's note."""
    path = tmp_path / "t.csv"
    path.write_text('name,category,rules,notes\n'
                    'Loyauté,Traits,Il reste fidèle.,"Errata 1.1 : incompatible avec Mercenaire.\n=> à revoir ?"\n'
                    'Mercenaire,Traits,Il se vend.,\n', encoding="utf-8")
    result = build(files=[path], game="Tolède")
    loyalty = result.corpus.entries()[0]
    assert [(p.text, p.line) for p in loyalty.paragraphs][-1] == ("Errata 1.1 : incompatible avec Mercenaire.", 2)
    assert [(n.text, n.line) for n in loyalty.notes] == [("à revoir ?", 3)]
    assert ("Loyauté", "excludes", "Mercenaire", 2) in {(s.subject.label, s.relation, s.object.label, s.line) for s in result.statements}


def test_abilities_holding_a_list_of_their_ranks_are_no_groups():
    """A spell whose "niveaux" list names its ranks is an ability, not a group of abilities."""
    text = ('[{"nom": "Boule de feu", "texte": "Brûle.", "niveaux": [{"nom": "Rang 1", "texte": "1D6."}, {"nom": "Rang 2", "texte": "2D6."}]},'
            ' {"nom": "Éclair", "texte": "Foudroie.", "niveaux": [{"nom": "Rang 1", "texte": "1D6."}]}]')
    document = json_glossary.parse(text, source="a.json", game="g", options={})
    assert [e.name for e in document.entries] == ["Boule de feu", "Éclair"]


def test_a_faction_named_in_several_languages_names_its_category(tmp_path):
    text = ('{"factions": [{"nom": {"fr": "Sauveteurs", "en": "Rescuers"}, "description": "Canotiers.",'
            ' "capacites": [{"nom": "Canotier", "texte": "Il rame."}, {"nom": "Patron", "texte": "Il mène."}]}]}')
    document = json_glossary.parse(text, source="a.json", game="g", options={"language": "fr"})
    assert [(e.name, e.glossary_category) for e in document.entries] == [("Canotier", "Sauveteurs"), ("Patron", "Sauveteurs")]
    assert [category for category, _p in document.category_texts] == ["Sauveteurs"]


def test_a_multi_line_notes_field_of_an_app_is_read_line_by_line():
    text = '[{"nom": "Loyauté", "texte": "Il reste fidèle.", "notes": "=> à revoir ?\\nErrata 1.1 : incompatible avec Mercenaire."}]'
    entry = json_glossary.parse(text, source="a.json", game="g", options={}).entries[0]
    assert [n.text for n in entry.notes] == ["à revoir ?"]
    assert entry.paragraphs[-1].text == "Errata 1.1 : incompatible avec Mercenaire."


@pytest.mark.parametrize("field", ["note_auteur", "notes_design", "remarque MJ"])
def test_a_notes_field_that_says_whose_notes_they_are_is_read_as_notes(field):
    text = json.dumps([{"nom": "Vernis", "texte": "Il brille.", field: "=> cumulable avec Terre cuite ?"},
                       {"nom": "Terre cuite", "texte": "Elle tient."}], ensure_ascii=False)
    entry = json_glossary.parse(text, source="a.json", game="g", options={}).entries[0]
    assert [n.text for n in entry.notes] == ["cumulable avec Terre cuite ?"] and not entry.attributes


def test_texts_keyed_by_the_categories_are_their_own_texts(tmp_path):
    """"regles_de_categorie": {"Mystique": "…"} beside the lists keyed by the same categories:
    each text is its category's own; a member it names as one of them ("pas même Masco") is no
    partner of the others, the ability named by its bearers ("doté d'Incrédule") is."""
    data = {"Mystique": [{"nom": "Masco", "texte": "Il maudit."}, {"nom": "Mistral", "texte": "Il souffle."}],
            "Mêlée": [{"nom": "Incrédule", "texte": "Il doute."}, {"nom": "Parade", "texte": "Il pare."}],
            "regles_de_categorie": {"Mystique": "Un santon doté d’Incrédule ne peut choisir aucune capacité de cette catégorie, pas même Masco.",
                                    "Mêlée": "Au corps à corps seulement."}}
    path = tmp_path / "santons.json"
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    document = json_glossary.parse(path.read_text(encoding="utf-8"), source="santons.json", game="g", options={})
    assert [(category, p.text[:9]) for category, p in document.category_texts] == [("Mystique", "Un santon"), ("Mêlée", "Au corps ")]
    pairs = {frozenset((s.subject.label, s.object.label)) for s in build(files=[path], game="g").statements
             if s.subject.kind == s.object.kind == "ability"}
    assert pairs == {frozenset(("Masco", "Incrédule")), frozenset(("Mistral", "Incrédule"))}


def test_a_virtual_tabletop_compendium_reads_its_nested_html_descriptions(tmp_path):
    """A Foundry-like export: the name at the top, the rule as HTML in "system": {"description":
    {"value": "<p>…"}}, links as @UUID[…]{Name}, the category deep in "flags"; the text's line is
    the line of its string."""
    items = [{"_id": "a1", "name": "Acharné", "type": "feat",
              "system": {"description": {"value": "<p>Il relance ses dégâts.</p><p>Un combattant doté de "
                                                  "@UUID[Item.b2]{Furie} ignore la <strong>Peur</strong>.</p>", "chat": ""},
                         "source": {"book": "Livre", "page": "p. 41"}},
              "flags": {"durfort": {"categorie": "Capacités de combat"}}},
             {"_id": "b2", "name": "Furie", "type": "feat", "system": {"description": {"value": "<p>Elle enrage.</p>", "chat": ""}},
              "flags": {"durfort": {"categorie": "Capacités de combat"}}}]
    text = json.dumps(items, ensure_ascii=False, indent=1)
    entry = json_glossary.parse(text, source="vtt.json", game="g", options={}).entries[0]
    value_line = next(number for number, line in enumerate(text.splitlines(), start=1) if '"value": "<p>Il relance' in line)
    assert (entry.name, entry.glossary_category) == ("Acharné", "Capacités de combat")
    assert [(p.text, p.line) for p in entry.paragraphs] == [
        ("Il relance ses dégâts. Un combattant doté de Furie ignore la Peur.", value_line)]
    assert {"Furie", "Peur"} <= set(entry.paragraphs[0].marked)


def test_an_ability_neither_grants_nor_requires_itself(tmp_path):
    """"Un combattant en Furie est considéré comme Acharné, qu'il possède ou non cette capacité",
    read in Acharné's text, is no "Acharné grants Acharné"."""
    path = tmp_path / "g.md"
    path.write_text("# G\n\n## C\n\n### Acharné\n\nIl relance. Un combattant doté de Furie est toujours considéré comme Acharné, "
                    "qu'il possède ou non cette capacité.\n\n### Furie\n\nElle enrage.\n", encoding="utf-8")
    statements = build(files=[path], game="g").statements
    assert not [s for s in statements if s.subject == s.object and s.relation in {"grants", "requires"}]
    assert [s for s in statements if s.subject.kind == s.object.kind == "ability"]
