"""The sentence analysis, the trained relation typer, its confidence, and the review loop."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from rdflib import RDF, Literal

from rulegraph.extract.analysis import Analyser
from rulegraph.namespaces import INTERACTIONS, RG

ROOT = Path(__file__).resolve().parents[1]
GOLD = ROOT / "tests" / "gold"


@pytest.fixture(scope="module")
def analyser():
    return Analyser()


def _index(analysis, word: str) -> int:
    return next(t.index for t in analysis.tokens if t.text == word)


def test_a_negation_covers_the_clause_it_stands_in(analyser):
    analysis = analyser.analyse("Les moines guerriers ne craignent ni le Poison ni la Peur.")
    assert analysis.negated(_index(analysis, "Peur"))
    assert analysis.negated(_index(analysis, "Poison"))
    plain = analyser.analyse("Les moines guerriers craignent la Peur.")
    assert not plain.negated(_index(plain, "Peur"))


def test_a_name_in_an_if_clause_stands_in_a_condition(analyser):
    analysis = analyser.analyse("Si le porteur possède Fouisseur, il ignore les attaques d'opportunité.")
    assert analysis.in_condition(_index(analysis, "Fouisseur"))
    assert not analysis.in_condition(_index(analysis, "ignore"))


def test_a_concession_is_no_condition(analyser):
    analysis = analyser.analyse("Le guerrier reste immobile, même s'il possède Fouisseur.")
    assert analysis.in_concession(_index(analysis, "Fouisseur"))
    assert not analysis.in_condition(_index(analysis, "Fouisseur"))


@pytest.mark.parametrize(("sentence", "word", "excepted"), [
    ("Il gagne +1 en FOR, sauf contre un adversaire doté de Vigilance.", "Vigilance", True),
    ("Toute fouille échoue, à moins que le douanier ne soit accompagné d'un chien doté de Flair.", "Flair", True),
    ("Ses Maléfices touchent tous les ennemis, hormis ceux dotés de Foi.", "Foi", True),
    ("Tout allié à moins de 6 pas gagne Bravoure.", "Bravoure", False),  # a distance
    ("Sauf en cas de charge, il gagne Furie.", "Furie", False),  # the exception ends at its comma
    ("Il gagne +1 en FOR. Sauf erreur, Vigilance ne change rien.", "Vigilance", False),
])
def test_an_exception_scope_runs_from_its_marker_to_the_end_of_its_segment(analyser, sentence, word, excepted):
    analysis = analyser.analyse(sentence)
    assert analysis.in_exception(_index(analysis, word)) is excepted


@pytest.mark.parametrize(("sentence", "word", "set_apart"), [
    ("Il est immunisé à la Peur, mais pas à la Terreur.", "Terreur", True),
    ("Il est immunisé à la Peur, mais pas à la Terreur.", "Peur", False),
    ("Immunisée à la Peur et non à l'Appel de l'Ankou.", "Appel", True),
    ("Cumulable avec un Gilet, mais pas avec Parkour ; Vol reste permis.", "Vol", False),  # a new segment
    ("Il ignore la Peur mais doit tester contre Terreur.", "Terreur", False),  # "mais" alone
])
def test_a_contrast_sets_apart_the_names_after_mais_pas(analyser, sentence, word, set_apart):
    analysis = analyser.analyse(sentence)
    assert analysis.in_contrast(_index(analysis, word)) is set_apart
    assert not analysis.in_exception(_index(analysis, word))


@pytest.mark.parametrize(("sentence", "counted"), [
    ("Un (et un seul) socle de Personnage peut entrer dans un transport.", True),  # exactly one
    ("Une seule figurine de la bande peut porter la Bannière.", True),
    ("Seul un socle de Personnage peut entrer dans un transport.", False),  # only a Personnage
    ("Seule une figurine dotée de Chef peut porter la Bannière.", False),
])
def test_seul_after_an_article_counts_and_before_it_restricts(analyser, sentence, counted):
    analysis = analyser.analyse(sentence)
    seul = next(t.index for t in analysis.tokens if t.text.lower().startswith("seul"))
    assert (seul in analysis.counts()) is counted


def test_a_modal_verb_is_read_as_the_clause_modality(analyser):
    analysis = analyser.analyse("Les ennemis ne peuvent pas utiliser Embuscade.")
    clause = analysis.clause_of(_index(analysis, "Embuscade"))
    assert clause.modal == "pouvoir"
    assert clause.negated


def test_parses_are_cached_on_disk_by_sentence_and_model(tmp_path):
    sentence = "Un guerrier loyal ne peut jamais devenir rônin."
    first = Analyser(tmp_path / "parses.sqlite")
    parsed = first.analyse(sentence)
    assert first.parsed == 1
    second = Analyser(tmp_path / "parses.sqlite")
    again = second.analyse(sentence)
    assert second.parsed == 0, "a warm cache parses nothing"
    assert [(t.text, t.lemma, t.dep, t.head) for t in again.tokens] == [(t.text, t.lemma, t.dep, t.head) for t in parsed.tokens]


def test_an_unwritable_cache_only_costs_speed(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    analyser = Analyser(blocked / "parses.sqlite")
    assert analyser.analyse("Il ignore la Peur.").tokens


def test_every_interaction_edge_says_how_sure_and_why(seed_graph):
    statements = [s for s in seed_graph.subjects(RDF.type, RG.Statement)
                  if str(seed_graph.value(s, RDF.predicate)).rsplit("#", 1)[-1] in INTERACTIONS]
    assert statements
    for statement in statements:
        confidence = seed_graph.value(statement, RG.confidence)
        assert confidence is not None and 0 <= float(confidence) <= 1
        assert seed_graph.value(statement, RG.rule) is not None


def test_the_shapes_require_confidence_and_rule_on_interactions(seed_graph):
    from rulegraph.checks.shacl import check_shacl

    graph = seed_graph.__class__()
    for triple in seed_graph:
        graph.add(triple)
    victim = next(s for s in graph.subjects(RDF.type, RG.Statement) if graph.value(s, RDF.predicate) == RG.cancels)
    graph.remove((victim, RG.confidence, None))
    messages = [f.message for f in check_shacl(graph)]
    assert any("confiance" in m for m in messages)


def test_the_seed_edges_named_in_the_mission_are_typed_right(seed_build):
    edges = {(s.subject.label, s.relation, s.object.label) for s in seed_build.statements}
    assert ("Fouisseur", "cancels", "Attaque d’opportunité") in edges or ("Fouisseur", "cancels", "Attaque d'opportunité") in edges
    assert any(s == "Interception" and r == "negates" and o == "Insaisissable" for s, r, o in edges)
    assert any(s == "Illuminé" and r == "grants" and o == "Fanatique" for s, r, o in edges)
    assert any(r == "mutuallyCancels" and {s, o} == {"Frappe rapide", "Riposte rapide"} for s, r, o in edges)


def test_training_gives_the_same_model_byte_for_byte(analyser):
    from rulegraph.evaluation import default_sets
    from rulegraph.extract.training import fit, load_gold_set

    sets = [load_gold_set(name, *default_sets(ROOT)[name], analyser) for name in ("ronces", "marees")]
    examples = [e for s in sets for e in s.examples]
    assert fit(examples).to_json() == fit(examples).to_json()


def test_the_shipped_model_reads_back_and_predicts_a_known_class():
    from rulegraph.extract.typer import TypingModel, shipped_model

    model = shipped_model()
    assert model is not None and "references" in model.classes
    assert TypingModel.from_json(model.to_json()) == model
    prediction = model.predict({"bias": 1.0, "cue=cancels>": 5.0})
    assert prediction.label in model.classes and 0 <= prediction.confidence <= 1


def test_leave_one_glossary_out_ends_with_its_one_line_summary(analyser):
    from rulegraph.evaluation import cross_validate_sets, default_sets, format_cross_validation

    sets = {name: default_sets(ROOT)[name] for name in ("ronces", "marees", "plomb")}
    text = format_cross_validation(cross_validate_sets(sets))
    last = text.splitlines()[-1]
    assert re.fullmatch(r"leave-one-glossary-out: sets=3 links=\d+ precision=[01]\.\d{3} recall=[01]\.\d{3} typed=[01]\.\d{3}", last)
    assert "Calibration" in text


def test_cross_validate_refuses_a_gold_file():
    done = subprocess.run([sys.executable, "-m", "rulegraph", "evaluate", "--cross-validate", "a.tsv", "b.toml"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_a_designer_note_names_an_ability_as_a_plain_reference(build_markdown):
    result = build_markdown("""# Jeu

### Parade
Le combattant annule une attaque par tour.
=> cumulable avec Esquive ?

### Esquive
Le combattant évite les tirs.
""")
    notes = [s for s in result.statements if s.rule == "designer note"]
    assert [(s.subject.label, s.relation, s.object.label) for s in notes] == [("Parade", "references", "Esquive")]
    assert notes[0].sentence.startswith("cumulable avec Esquive")


CATEGORY_GLOSSARY = """# Jeu

Aucun sort de Nécromancie ne peut être lancé par un personnage doté de Foi.

## Sorts de Nécromancie

### Drain de vie
Le lanceur vole 1 PV.

### Souffle du tombeau
Les ennemis proches reculent.

## Traits

### Foi
Le personnage relance ses tests de Moral (voir sorts de Nécromancie).

### Écailles
Aucun sort de Nécromancie n'a d'effet sur une figurine couverte d'écailles.
"""


def asserted_statements(path, game: str, threshold: float | None = 0.0):
    """The statements of a glossary with every relation the typer guesses asserted (threshold 0,
    for single edges and for a category's):
    for tests of what a sentence reaches, apart from how sure the shipped typer is. ``None``: the
    shipped typer as a build uses it."""
    from dataclasses import replace

    from rulegraph.corpus import corpus_from_files
    from rulegraph.extract.extractor import extract_corpus
    from rulegraph.extract.typer import shipped_model

    model = shipped_model() if threshold is None else replace(shipped_model(), threshold=threshold, category_threshold=threshold)
    return extract_corpus(corpus_from_files([path], game=game), model=model)


def test_a_sentence_about_a_category_speaks_of_each_of_its_abilities(tmp_path):
    path = tmp_path / "jeu.md"
    path.write_text(CATEGORY_GLOSSARY, encoding="utf-8")
    statements = asserted_statements(path, "Jeu")
    pairs = {(s.subject.label, s.object.label) for s in statements if s.subject.kind == s.object.kind == "ability"}
    # From the general rule: each spell with Foi; from Écailles: Écailles with each spell.
    for spell in ("Drain de vie", "Souffle du tombeau"):
        assert (spell, "Foi") in pairs or ("Foi", spell) in pairs
        assert ("Écailles", spell) in pairs or (spell, "Écailles") in pairs
    # "(voir sorts de Nécromancie)" points at a section of the glossary, not at each spell.
    foi = [s for s in statements if s.sentence.startswith("Le personnage relance")]
    assert not [s for s in foi if s.object.kind == "ability"]
    assert not [s for s in statements if s.subject.label.startswith("§") or s.object.label.startswith("§")]


@pytest.fixture
def tranchees(tmp_path):
    folder = tmp_path / "tranchees"
    shutil.copytree(GOLD / "tranchees", folder)
    return folder / "corpus.toml"


def test_review_lists_the_unsure_edges_and_an_accepted_one_lasts(tranchees):
    from rulegraph.build import build
    from rulegraph.review import append_to_curation, curation_entry, review_items

    result = build(tranchees)
    items = review_items(result.statements)
    assert items and all(item.suggested for item in items)
    item = items[0]
    path = append_to_curation(tranchees, curation_entry(item, "accept"), result.corpus)
    before = path.read_text(encoding="utf-8")
    rebuilt = build(tranchees)
    curated = [s for s in rebuilt.statements if s.method == "curated"]
    assert [s.relation for s in curated] == [item.suggested]
    assert {curated[0].subject.label, curated[0].object.label} == {item.statement.subject.label, item.statement.object.label}
    assert item.id not in {i.id for i in review_items(rebuilt.statements)}
    # A second answer is appended; the first entry is kept byte for byte.
    other = review_items(rebuilt.statements, below=1.0)[0]
    append_to_curation(tranchees, curation_entry(other, "remove", reason="pas un lien"), rebuilt.corpus)
    assert path.read_text(encoding="utf-8").startswith(before)


def test_accepting_a_typed_edge_listed_below_a_confidence_confirms_it(tranchees):
    """``--below`` lists typed edges too: accepting one keeps the relation the typer asserted, as
    a curated edge, and it leaves the list."""
    from rulegraph.build import build
    from rulegraph.review import append_to_curation, curation_entry, review_items

    result = build(tranchees)
    typed = [item for item in review_items(result.statements, below=0.95) if item.suggested is None]
    assert typed
    item = typed[0]
    append_to_curation(tranchees, curation_entry(item, "accept"), result.corpus)
    rebuilt = build(tranchees)
    curated = [s for s in rebuilt.statements if s.method == "curated"]
    assert [(s.subject.label, s.relation, s.object.label) for s in curated] == [
        (item.statement.subject.label, item.statement.relation, item.statement.object.label)]
    assert item.id not in {i.id for i in review_items(rebuilt.statements, below=0.95)}


def test_review_cli_answers_and_refuses_bad_answers(tranchees):
    def run(*args):
        return subprocess.run([sys.executable, "-m", "rulegraph", "review", "--manifest", str(tranchees), *args],
                              capture_output=True, text=True, cwd=ROOT)

    listed = run()
    assert listed.returncode == 0
    first = re.search(r"^\[([0-9a-f]{8})\]", listed.stdout, re.M).group(1)
    assert run("--remove", first).returncode == 2, "a removal needs a reason"
    bad = run("--retype", first, "aime")
    assert bad.returncode == 2 and "must be one of" in bad.stderr and "Traceback" not in bad.stderr
    assert run("--accept", "00000000").returncode == 2
    assert not (tranchees.parent / "curation.toml").exists(), "a refused answer writes nothing"
    done = run("--retype", first, "negates")
    assert done.returncode == 0 and "[[retype]]" in done.stdout
    assert 'relation = "negates"' in (tranchees.parent / "curation.toml").read_text(encoding="utf-8")


def test_lexicon_suggest_drafts_states_sections_and_characteristics(tmp_path):
    out = tmp_path / "lexique.toml"
    command = [sys.executable, "-m", "rulegraph", "lexicon", "suggest", str(GOLD / "cendres" / "cendres.md"),
               "--game", "Cendres", "--out", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    import tomllib

    draft = tomllib.loads(out.read_text(encoding="utf-8"))
    assert "Sonnée" in draft["states"] or "Sonné" in draft["states"]
    assert "Dispersion" in draft["concepts"]
    assert "FOR" in draft["characteristics"]
    again = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    assert again.returncode == 2 and "never overwrites" in again.stderr


def test_without_a_lexicon_states_and_rule_sections_are_no_abilities(build_markdown):
    result = build_markdown("""# Jeu

### Revenant
Un Revenant ne peut jamais être Sonné. Il ne récupère pas de PV (voir Réparations).

### Ignifugé
La figurine ne peut jamais être En feu.
""")
    abilities = {s.object.label for s in result.statements if s.object.kind == "ability"}
    assert not abilities & {"Sonné", "Réparations", "En feu"}
    kinds = {s.object.label: s.object.kind for s in result.statements}
    assert kinds.get("Sonné") == "state" and kinds.get("En feu") == "state" and kinds.get("Réparations") == "rule"
    graph = result.graph
    assert (None, RG.involvesState, None) in graph
    assert not list(graph.subjects(RDF.type, RG.UndefinedAbility))


def test_a_glued_parameter_is_split_from_its_abbreviation():
    from rulegraph.names import parse_heading
    from rulegraph.text import tokenize

    assert parse_heading("PAx").name == "PA" and parse_heading("PAx").parameters == ("x",)
    assert parse_heading("PA2").parameters == ("2",)
    assert [t.key for t in tokenize("Il a PA3.")][-2:] == ["pa", "3"]


def test_confidence_is_written_as_a_decimal(seed_graph):
    values = list(seed_graph.objects(None, RG.confidence))
    assert values and all(isinstance(v, Literal) and str(v.datatype).endswith("#decimal") for v in values)


APP_CATEGORIES = """{
  "Pyromancie": [
    {"nom": "Trait de feu", "texte": "Une flamme frappe une figurine à 12 pouces."},
    {"nom": "Embrasement", "texte": "Toutes les figurines à 3 pouces prennent feu."}
  ],
  "Tir": [
    {"nom": "Tir précis", "texte": "Relancez un jet pour toucher raté."},
    {"nom": "Tir en cloche", "texte": "Tirez sans ligne de vue."}
  ],
  "Traits": [
    {"nom": "Pyromancien", "texte": "Seule une figurine dotée de Pyromancien peut lancer les sorts de Pyromancie."},
    {"nom": "Ignifugé", "texte": "Aucun sort de Pyromancie ne peut l'affecter. Un allié doté d'une arme de tir l'escorte."}
  ]
}
"""


def _app_build(folder, name: str, text: str, game: str, threshold: float | None = 0.0):
    """An app file written on the fly, every relation asserted (or as the shipped typer asserts
    them: ``threshold=None``): its statements, and every pair of distinct abilities it links."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    statements = asserted_statements(path, game, threshold)
    pairs = {frozenset((s.subject.label, s.object.label)) for s in statements
             if s.subject.kind == s.object.kind == "ability" and s.subject.label != s.object.label}
    return statements, pairs


def test_an_app_file_names_its_bare_categories_with_an_ability_noun(tmp_path):
    _statements, pairs = _app_build(tmp_path, "vigies.json", APP_CATEGORIES, "Vigies")
    for spell in ("Trait de feu", "Embrasement"):
        assert frozenset(("Pyromancien", spell)) in pairs
        assert frozenset(("Ignifugé", spell)) in pairs
    # "une arme de tir" is a weapon, not the category Tir: no link to its abilities.
    assert not [p for p in pairs if p & {"Tir précis", "Tir en cloche"}]


APP_ADJECTIVE_CATEGORY = """{
  "Pouvoirs psychiques": [
    {"nom": "Éclair psychique", "texte": "Tir psychique à 18 ps : FOR 5, PA 2."},
    {"nom": "Prescience", "texte": "Relancez un jet de sauvegarde raté."},
    {"nom": "Psyker", "texte": "Le personnage peut tenter un pouvoir parmi les capacités Psychiques à chaque tour."}
  ],
  "Capacités d'unité": [
    {"nom": "Néant psychique", "texte": "Les capacités Psychiques ennemies ne peuvent pas cibler une unité amie à 12 ps du porteur."},
    {"nom": "Perforant", "texte": "La PA de l'arme s'améliore de X (PA 4 devient PA 3 avec Perforant 1)."}
  ]
}
"""


def test_a_category_named_by_its_adjective_is_not_an_undefined_ability(tmp_path):
    """"les capacités Psychiques" names the category "Pouvoirs psychiques", and "PA 3" is a
    characteristic: neither becomes an ability of its own."""
    statements, pairs = _app_build(tmp_path, "dunes.json", APP_ADJECTIVE_CATEGORY, "Dunes")
    abilities = {ref.label for s in statements for ref in (s.subject, s.object) if ref.kind == "ability"}
    assert abilities <= {"Éclair psychique", "Prescience", "Psyker", "Néant psychique", "Perforant"}
    assert {frozenset(("Néant psychique", "Éclair psychique")), frozenset(("Néant psychique", "Prescience"))} <= pairs


def test_a_sentence_that_only_names_a_category_gives_its_members_no_edge(tmp_path):
    """"Les capacités de Survie qu'il achète coûtent moins": the category is named, nothing is
    said of each member; a sentence with a relation still reaches every member."""
    text = """{
  "Survie": [
    {"nom": "Endurci", "texte": "Ignore le premier jet de froid."},
    {"nom": "Bivouac", "texte": "Les alliés au contact récupèrent 1 PV."}
  ],
  "Traits": [
    {"nom": "Vétéran", "texte": "Les capacités de Survie qu'il achète coûtent 5 points de moins."},
    {"nom": "Fièvre", "texte": "Une figurine fiévreuse perd toutes ses capacités de Survie."}
  ]
}
"""
    _statements, pairs = _app_build(tmp_path, "glaces.json", text, "Glaces", threshold=None)
    assert not [p for p in pairs if "Vétéran" in p]
    assert {frozenset(("Fièvre", name)) for name in ("Endurci", "Bivouac")} <= pairs


def test_an_unsure_edge_said_of_a_whole_category_is_not_multiplied_over_its_members(tmp_path):
    """A sentence about a category reaches each of its abilities only when the typer asserts a
    relation: an unsure one would put the same doubt "à vérifier" once per member (a preamble's
    "une capacité suivie d'un X (par exemple Éperon 2)" made 44)."""
    path = tmp_path / "jeu.md"
    path.write_text(CATEGORY_GLOSSARY, encoding="utf-8")

    def pairs(threshold, other):
        return sorted(s.subject.label if s.object.label == other else s.object.label
                      for s in asserted_statements(path, "Jeu", threshold)
                      if other in (s.subject.label, s.object.label) and s.subject.kind == s.object.kind == "ability")

    spells = ["Drain de vie", "Souffle du tombeau"]
    assert pairs(0.0, "Foi") == spells and pairs(0.0, "Écailles") == spells
    assert pairs(1.01, "Foi") == [] and pairs(1.01, "Écailles") == []


def test_a_one_word_category_is_named_by_an_ability_noun_before_it(tmp_path):
    """"les pouvoirs Psioniques" names the category "Psionique" of a table's category column."""
    path = tmp_path / "legion.csv"
    path.write_text("nom;catégorie;effet\nÉclair psionique;Psionique;Un éclair frappe.\nTélékinésie;Psionique;Un objet vole.\n"
                    "Vide psychique;Xéno;Il n'est affecté par aucun des pouvoirs Psioniques.\n", encoding="utf-8")
    pairs = {frozenset((s.subject.label, s.object.label)) for s in asserted_statements(path, "Légion")
             if s.subject.kind == s.object.kind == "ability"}
    assert pairs == {frozenset(("Vide psychique", "Éclair psionique")), frozenset(("Vide psychique", "Télékinésie"))}


def test_the_games_own_word_for_its_abilities_names_a_category(tmp_path):
    """"Disciplines" opens two category names: it is this game's word for its abilities, so "ses
    Disciplines de Sang" names that category, and "Disciplines physiques : Célérité et
    Puissance" is named without what follows its colon; an ability set apart ("à l'exception de
    Peau de pierre") is not one the sentence speaks of."""
    path = tmp_path / "sang.md"
    path.write_text("# Glossaire\n\n## Disciplines de Sang\n\n### Saignée\n\nLa cible perd un PV.\n\n"
                    "### Transfusion\n\nSoigne un allié.\n\n## Disciplines physiques : Célérité et Puissance\n\n"
                    "### Célérité\n\nAgit deux fois.\n\n### Peau de pierre\n\nRésiste aux coups.\n\n"
                    "## Malédictions\n\n### Frénésie\n\nTant que la Bête tient les rênes, il perd l'usage de toutes ses "
                    "Disciplines de Sang.\n\n### Soleil\n\nSous le soleil, il perd le bénéfice de ses Disciplines physiques, "
                    "à l'exception de Peau de pierre.\n", encoding="utf-8")
    pairs = {(s.subject.label, s.object.label) for s in asserted_statements(path, "Sang")
             if s.subject.kind == s.object.kind == "ability" and s.via_category}
    assert pairs == {("Frénésie", "Saignée"), ("Frénésie", "Transfusion"), ("Soleil", "Célérité")}


def test_a_faq_answer_outside_every_entry_links_the_abilities_it_names(tmp_path):
    """A FAQ at the end of a glossary settles interactions in questions and answers that belong to
    no entry: each is read as if written in the text of the first ability it names. An
    introduction that lists abilities states no interaction."""
    path = tmp_path / "temps.md"
    path.write_text("# Glossaire\n\nLes capacités Ancrage et Stase sont décrites plus bas.\n\n## Capacités\n\n"
                    "### Ancrage\n\nLe combattant reste sur place.\n\n### Stase\n\nLa cible devient Figée.\n\n"
                    "## FAQ\n\n**Q : Un combattant doté d'Ancrage peut-il être visé par la Stase ?**\n"
                    "R : Oui, mais il n'est jamais affecté par la Stase.\n", encoding="utf-8")
    edges = {(s.subject.label, s.relation, s.object.label, s.line) for s in asserted_statements(path, "Temps")
             if s.subject.kind == s.object.kind == "ability"}
    assert edges == {("Ancrage", "immuneTo", "Stase", 18)}


def test_a_faq_question_and_its_answer_after_a_blank_line_are_read_together(tmp_path):
    path = tmp_path / "temps.md"
    path.write_text("## Capacités\n\n### Ancrage\n\nLe combattant reste sur place.\n\n### Stase\n\nLa cible devient Figée.\n\n"
                    "## FAQ\n\n**Q : Un combattant doté d'Ancrage peut-il être visé par la Stase ?**\n\n"
                    "R : Oui, mais il n'est jamais affecté par la Stase.\n", encoding="utf-8")
    edges = {(s.subject.label, s.relation, s.object.label, s.line) for s in asserted_statements(path, "Temps")
             if s.subject.kind == s.object.kind == "ability"}
    assert edges == {("Ancrage", "immuneTo", "Stase", 15)}


def test_an_article_that_opens_category_names_is_not_the_games_ability_noun():
    from rulegraph.extract.extractor import _game_ability_nouns

    assert _game_ability_nouns(["Les Pouvoirs psychiques", "Les Armes lourdes"]) == frozenset()
    assert _game_ability_nouns(["Disciplines de Sang", "Disciplines physiques : Célérité"]) == frozenset({"disciplines", "discipline"})


def test_a_relation_of_a_former_edition_is_no_longer_asserted(build_glossary):
    """"Changements : en V1, l'Ivresse annulait aussi Pied marin" names the link without it being
    in force; "désormais, seule une figurine dotée de Régent…", after a former edition's rule in
    the same sentence, is the rule in force; an imperfect without an edition marker ("comme s'il
    possédait Vol") is no former rule."""
    text = ("# Corsaires\n\n## Capacités\n\n### Ivresse\n\nLe marin titube. Changements : en V1, l'Ivresse annulait aussi Pied marin.\n\n"
            "### Gabier\n\nIl grimpe. En V1, Gabier et Loup de mer étaient incompatibles.\n\n### Loup de mer\n\nIl navigue.\n\n"
            "### Pied marin\n\nIl ne glisse pas.\n\n### Faveur\n\nDans la première édition, n'importe quel chef pouvait accorder sa faveur ; "
            "désormais, seule une figurine dotée de Régent en a le pouvoir.\n\n### Régent\n\nIl règne.\n\n"
            "### Ailes\n\nIl se déplace comme s'il possédait Vol.\n\n### Vol\n\nIl vole.\n")
    edges = {(s.subject.label, s.object.label): s for s in build_glossary(text, "corsaires.md").statements if s.object.kind == "ability"}
    former = edges[("Ivresse", "Pied marin")]
    assert former.relation == "references" and former.rule.startswith("former edition") and former.suggested is None
    copula = edges[("Gabier", "Loup de mer")]
    assert copula.relation == "references" and copula.rule.startswith("former edition")
    assert not edges[("Faveur", "Régent")].rule.startswith("former edition")
    assert not edges[("Ailes", "Vol")].rule.startswith("former edition")


def test_names_coordinated_in_one_sentence_share_their_relation(build_glossary):
    """"Parade et Leste cessent de fonctionner pour elle": both names stand in the same relation to
    the ability; the second conjunct, far from the verb in the parse, takes the surer reading."""
    text = ("# Pèlerins\n\n## Capacités\n\n### Furie\n\nUne figurine en Furie ne pense plus à parer : Parade et Leste cessent "
            "de fonctionner pour elle jusqu’à la fin du tour.\n\n### Parade\n\nIl pare.\n\n### Leste\n\nIl esquive.\n")
    edges = [s for s in build_glossary(text, "pelerins.md").statements if s.object.kind == "ability" and s.line == 7]
    assert sorted(s.object.label for s in edges) == ["Leste", "Parade"]
    assert len({(s.subject.label, s.relation, s.suggested) for s in edges}) == 1
    assert any(s.rule.endswith("shared with its coordinated name") for s in edges)


@pytest.mark.parametrize(("sentence", "word", "kind"), [
    ("Il ignore la Peur.", "Peur", "pronoun"),
    ("Cette figurine ignore Peur et Intimidation.", "Peur", "pronoun"),  # a noun for the bearer
    ("Son porteur ne craint pas la Peur.", "Peur", "pronoun"),
    ("La figurine touchée ne craint pas la Peur.", "Peur", "affected"),
    ("Les figurines ennemies ne craignent pas la Peur.", "Peur", "opponent"),
    ("Ce tir ignore Furtivité.", "Furtivité", "noun"),  # the ability's own shot, not its bearer
    ("Une figurine ignore la Peur.", "Peur", "noun"),  # any figure
    ("Vigilance annule Insaisissable.", "Vigilance", "mention"),  # the other ability acts
])
def test_the_subject_says_who_a_clause_is_about(analyser, sentence, word, kind):
    analysis = analyser.analyse(sentence)
    assert analysis.subject_kind(_index(analysis, word)) == kind


@pytest.mark.parametrize(("sentence", "word", "restricted", "negated"), [
    ("Ne peut être utilisé que si la fig. a aussi Lancer de tessons.", "Lancer", True, False),
    ("Cette compétence ne peut être choisie qu'en même temps que Discipline.", "Discipline", True, False),
    ("Elle n'est accessible qu'aux figurines dotées de Vol et Bond.", "Vol", True, False),
    ("Il ne perd Vol que s'il charge.", "Vol", False, False),  # before the "que": lost, only then
    ("Il ne peut pas utiliser Vol et Bond.", "Vol", False, True),  # "ne … pas" negates
    ("Il ne peut jamais devenir Fanatique, ce qui n'arrive qu'aux autres.", "Fanatique", False, True),
    # "qu'il" opens a clause: no partner of the expletive "ne" before it
    ("Malus de -1, à moins qu’il ne soit Mort-vivant ou qu’il possède Sang-froid.", "Sang", False, False),
])
def test_ne_que_restricts_and_does_not_negate(analyser, sentence, word, restricted, negated):
    analysis = analyser.analyse(sentence)
    index = _index(analysis, word)
    assert analysis.restricted(index) is restricted
    assert analysis.negated(index) is negated


def test_an_abbreviation_stays_one_token_and_does_not_cut_the_parse(analyser):
    """"Les fig. émaillées ignorent X": the parser used to cut at "fig." and leave X with no verb."""
    analysis = analyser.analyse("Les fig. émaillées ignorent Souffle du four.")
    assert [t.text for t in analysis.tokens][:2] == ["Les", "fig."]
    assert analysis.tokens[analysis.tokens[_index(analysis, "Souffle")].head].key == "ignorer"
    assert sum(1 for t in analysis.tokens if t.dep == "ROOT") == 1


@pytest.mark.parametrize(("sentence", "abbreviation", "kind"), [
    ("Inutile contre les att. d'un adv. doté d'Allonge.", "adv.", "adversaire"),
    ("Ne peut être utilisé que si la fig. a aussi Lancer de tessons.", "fig.", "figurine"),
])
def test_an_abbreviation_reads_as_the_word_it_stands_for(analyser, sentence, abbreviation, kind):
    analysis = analyser.analyse(sentence)
    assert analysis.tokens[_index(analysis, abbreviation)].key == kind
