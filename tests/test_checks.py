"""Each check on a tiny fixture that holds its fault (it must be found) and on a clean one (no
false alarm). Relation checks get their edges written by hand, placed on the fixture's lines, so
they test the check and not the extractor."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from rdflib import RDF, Literal

from rulegraph.build import build
from rulegraph.checks import CHECKS, run_checks
from rulegraph.checks.designer_notes import check_designer_notes
from rulegraph.checks.duplicates import (
    check_duplicate_definitions,
    check_identical_texts,
    check_near_identical_texts,
    text_similarity,
)
from rulegraph.checks.editions import check_edition_gaps
from rulegraph.checks.parameters import check_parameter_mismatches, declared_letters, parameter_letter
from rulegraph.checks.references import check_undefined_references
from rulegraph.checks.relations import (
    check_contradictions,
    check_grant_cycles,
    check_one_sided_relations,
    check_self_references,
)
from rulegraph.checks.shacl import check_shacl
from rulegraph.checks.spelling import check_spelling
from rulegraph.checks.to_review import check_to_review
from rulegraph.corpus import corpus_from_files
from rulegraph.graph import ability_uri, build_graph
from rulegraph.model import Statement, TermRef
from rulegraph.namespaces import RG, term_uri
from rulegraph.vocabulary import relation_phrase

CHECKS_DIR = Path(__file__).resolve().parent / "fixtures" / "checks"


def fixture_graph(name: str, game: str):
    return build(files=[CHECKS_DIR / name], game=game).graph


@pytest.fixture(scope="module")
def faulty():
    return fixture_graph("faulty.md", "Brumes")


@pytest.fixture(scope="module")
def clean():
    return fixture_graph("clean.md", "Marées")


def subjects(findings) -> list[str]:
    return sorted(f.subject for f in findings)


# ------------------------------------------------------------------ text checks


def test_designer_note_is_reported_with_the_sentence_it_questions(faulty):
    (finding,) = check_designer_notes(faulty)
    assert finding.subject == "Garde" and finding.line == 37
    assert "virer la limite à 3 ?" in finding.message
    assert "sans dépasser 3" in finding.message


def test_no_designer_note_no_finding(clean):
    assert check_designer_notes(clean) == []


def test_exact_duplicate_is_info_and_different_text_is_error(faulty):
    findings = {f.subject: f for f in check_duplicate_definitions(faulty)}
    assert findings["Rempart"].severity == "info" and findings["Rempart"].line == 43
    assert findings["Bastion"].severity == "error" and findings["Bastion"].line == 47
    assert "ne peut jamais être déplacé" in findings["Bastion"].message


def test_no_duplicate_no_finding(clean):
    assert check_duplicate_definitions(clean) == []


def test_identical_texts_form_one_group(faulty):
    (finding,) = check_identical_texts(faulty)
    assert "Rempart" in finding.message and "Bastion" in finding.message


def test_near_identical_texts_quote_the_words_that_differ(french, faulty):
    (finding,) = check_near_identical_texts(faulty)
    assert finding.subject == "Élan" and "Fougue" in finding.message
    assert "« bonus » / « malus »" in finding.message


def test_distinct_texts_are_neither_identical_nor_near(clean):
    assert check_identical_texts(clean) == [] and check_near_identical_texts(clean) == []


def test_similarity_measure_is_word_based():
    words = "le porteur recoit un bonus de 1 cbt".split()
    assert text_similarity(words, words) == 1.0
    assert text_similarity(words, [w if w != "bonus" else "malus" for w in words]) == pytest.approx(7 / 8)


@pytest.mark.parametrize("parameters, letters", [
    (("X/D",), {"X", "D"}), (("XX",), {"X"}), (("+X",), {"X"}), (("X", "Y"), {"X", "Y"}), (("3",), set()),
])
def test_declared_letters(parameters, letters):
    assert declared_letters(parameters) == letters


@pytest.mark.parametrize("word, letter", [("X", "X"), ("XX", "X"), ("D", "D"), ("n", "N"), ("Xénon", None), ("DEF", None), ("y", None)])
def test_parameter_letter(word, letter):
    assert parameter_letter(word) == letter


def test_parameter_mismatches_both_ways_and_slots(french, faulty):
    findings = {f.subject: f.message for f in check_parameter_mismatches(faulty)}
    assert set(findings) == {"Rage", "Vigie", "Marque", "Sceau"}
    assert "utilise X" in findings["Rage"] and "+X CBT" in findings["Rage"]
    assert "déclare le paramètre D" in findings["Vigie"]
    assert "(mot-clé)" in findings["Marque"]
    assert "entre parenthèses" in findings["Sceau"]


def test_declared_and_used_parameters_and_slots_give_no_finding(clean):
    assert check_parameter_mismatches(clean) == []


def test_typo_is_reported_once_with_a_suggestion(french, faulty):
    findings = check_spelling(faulty)
    assert [f.subject for f in findings] == ["Veille"]
    assert "« prochainne »" in findings[0].message and "« prochaine »" in findings[0].message


def test_correct_french_gives_no_spelling_finding(clean):
    assert check_spelling(clean) == []


# ------------------------------------------------------------------ relation checks


def entry_line(corpus, name: str) -> int:
    entry = next(e for e in corpus.entries() if e.name == name)
    return entry.paragraphs[0].line


def graph_with_edges(fixture: str, edges: list[tuple[str, str, str, str]]):
    """The fixture's graph plus hand-written edges (subject, relation, object, text that states it)."""
    corpus = corpus_from_files([CHECKS_DIR / fixture], game="Forges")
    statements = []
    for subject, relation, obj, author in edges:
        entry = next(e for e in corpus.entries() if e.name == author)
        statements.append(Statement(
            TermRef("forges", "ability", subject), relation, TermRef("forges", "ability", obj),
            entry.text, entry.source, entry_line(corpus, author)))
    return build_graph(corpus, statements)


FAULTY_EDGES = [
    ("Enclume", "cancels", "Marteau", "Enclume"),
    ("Enclume", "mutuallyCancels", "Soufflet", "Enclume"),
    ("Marteau", "grants", "Étincelle", "Marteau"),
    ("Étincelle", "grants", "Marteau", "Étincelle"),
    ("Étincelle", "grants", "Étincelle", "Étincelle"),
    ("Tenaille", "requires", "Braise", "Tenaille"),
    ("Tenaille", "excludes", "Braise", "Tenaille"),
    ("Braise", "grants", "Marteau", "Braise"),
    ("Braise", "cancels", "Marteau", "Braise"),
    ("Marteau", "grants", "Fumée", "Marteau"),
]
CLEAN_EDGES = [
    ("Enclume", "mutuallyCancels", "Soufflet", "Enclume"),
    ("Soufflet", "mutuallyCancels", "Enclume", "Soufflet"),
    ("Marteau", "grants", "Étincelle", "Marteau"),
    ("Tenaille", "requires", "Braise", "Tenaille"),
]


@pytest.fixture(scope="module")
def forge():
    return graph_with_edges("relations.md", FAULTY_EDGES)


@pytest.fixture(scope="module")
def forge_clean():
    return graph_with_edges("relations_clean.md", CLEAN_EDGES)


def test_symmetric_relation_stated_in_one_text_only(french, forge):
    findings = {f.subject: f for f in check_one_sided_relations(forge)}
    assert set(findings) == {"Soufflet", "Braise"}
    assert "« Enclume » dit qu’elle s’annule mutuellement avec « Soufflet »" in findings["Soufflet"].message
    assert f"{relation_phrase('excludes', 'fr')} « Braise »" in findings["Braise"].message
    assert findings["Soufflet"].line == 11


def test_one_sided_relation_says_when_the_other_text_mentions_it_differently(french):
    forge_with_mention = graph_with_edges("relations.md", [*FAULTY_EDGES, ("Soufflet", "references", "Enclume", "Soufflet")])
    findings = {f.subject: f for f in check_one_sided_relations(forge_with_mention)}
    assert "qui la mentionne" in findings["Soufflet"].message
    assert "n’en dit rien" in findings["Braise"].message


def test_symmetric_relation_stated_in_both_texts(forge_clean):
    assert check_one_sided_relations(forge_clean) == []


def test_granted_and_cancelled_or_required_and_excluded(forge):
    findings = {(f.subject, f.line) for f in check_contradictions(forge)}
    assert {s for s, _ in findings} == {"Braise", "Tenaille"}
    assert all(f.severity == "error" for f in check_contradictions(forge))


def test_no_contradiction_in_a_consistent_glossary(forge_clean):
    assert check_contradictions(forge_clean) == []


def test_grant_cycle_is_found_and_self_grant_is_a_self_reference(french, forge):
    (cycle,) = check_grant_cycles(forge)
    assert "Marteau → Étincelle → Marteau" in cycle.message
    (self_ref,) = check_self_references(forge)
    assert self_ref.subject == "Étincelle" and f"{relation_phrase('grants', 'fr')} elle-même" in self_ref.message


def test_no_cycle_no_self_reference(forge_clean):
    assert check_grant_cycles(forge_clean) == [] and check_self_references(forge_clean) == []


def test_undefined_reference_lists_places_and_hints(forge):
    (finding,) = check_undefined_references(forge)
    assert finding.subject == "Fumée"
    assert "Marteau (relations.md:" in finding.message


def test_every_reference_defined_no_finding(forge_clean):
    assert check_undefined_references(forge_clean) == []


# ------------------------------------------------------------------ edges to review


def typed_statements(edges: list[tuple[str, str, str, str, float, str | None]]):
    """The Forges fixture's corpus and typer-like statements: (subject, relation, object, author,
    confidence, suggested edge or None). A suggestion leaves the edge as references, as the typer
    does when unsure."""
    corpus = corpus_from_files([CHECKS_DIR / "relations.md"], game="Forges")
    statements = []
    for subject, relation, obj, author, confidence, suggestion in edges:
        entry = next(e for e in corpus.entries() if e.name == author)
        suggested = suggestion.split()[1] if suggestion else None
        statements.append(Statement(
            TermRef("forges", "ability", subject), "references" if suggested else relation, TermRef("forges", "ability", obj),
            entry.text, entry.source, entry_line(corpus, author), reason=suggestion, confidence=confidence,
            rule=f"typer (cue={relation}, <b>gras</b>)", suggested=suggested, span=(0, 1), owner=author))
    return corpus, statements


UNSURE_EDGES = [
    ("Enclume", "cancels", "Marteau", "Enclume", 0.41, "Enclume cancels Marteau"),
    ("Tenaille", "requires", "Braise", "Tenaille", 0.276, "Braise requires Tenaille"),
    ("Marteau", "grants", "Étincelle", "Marteau", 0.93, None),
]
SURE_EDGES = [(s, r, o, a, 0.93, None) for s, r, o, a, _, _ in UNSURE_EDGES]


def test_each_unsure_edge_is_listed_with_sentence_place_suggestion_confidence_and_review_id(french):
    from rulegraph.review import review_items

    corpus, statements = typed_statements(UNSURE_EDGES)
    findings = {f.subject: f for f in check_to_review(build_graph(corpus, statements))}
    assert set(findings) == {"Enclume", "Tenaille"}
    assert all(f.severity == "info" and f.check == "to-review" and f.code == "RG014" for f in findings.values())
    enclume = findings["Enclume"]
    assert enclume.message.startswith("à vérifier : « Enclume » annule « Marteau » ?")
    assert (enclume.source, enclume.line) == ("relations.md", entry_line(corpus, "Enclume"))
    assert "« Le porteur annule la capacité Marteau." in enclume.message and f"(relations.md:{enclume.line})" in enclume.message
    assert "confiance 0,41 ; règle : typer (cue=cancels, <b>gras</b>)" in enclume.message
    assert "« Braise » nécessite « Tenaille » ?" in findings["Tenaille"].message, "the suggested direction is kept"
    ids = {item.statement.subject.label: item.id for item in review_items(statements)}
    assert f"ID de revue {ids['Enclume']} : rulegraph review --accept {ids['Enclume']}" in enclume.message
    assert f"ID de revue {ids['Tenaille']}" in findings["Tenaille"].message


def test_check_messages_are_in_english_on_request(forge):
    corpus, statements = typed_statements(UNSURE_EDGES)
    enclume = next(f for f in check_to_review(build_graph(corpus, statements)) if f.subject == "Enclume")
    assert enclume.message.startswith(f"to review: “Enclume” {relation_phrase('cancels', 'en')} “Marteau”? The typer is not sure")
    assert "(confidence 0.41; rule: typer (cue=cancels, <b>gras</b>))" in enclume.message and "Review ID " in enclume.message
    soufflet = next(f for f in check_one_sided_relations(forge) if f.subject == "Soufflet")
    assert soufflet.message.startswith(f"The text of “Enclume” says that it {relation_phrase('mutuallyCancels', 'en')} “Soufflet”")
    assert "write it on both sides, or check that it is meant." in soufflet.message


def test_french_elides_de_before_a_vowel_and_english_says_of(french, monkeypatch):
    from rulegraph.text import of_name

    assert (of_name("Enclume"), of_name("Soufflet")) == ("d’« Enclume »", "de « Soufflet »")
    monkeypatch.setenv("LANGUAGE", "en")
    assert (of_name("Enclume"), of_name("Soufflet")) == ("of “Enclume”", "of “Soufflet”")


def test_surely_typed_edges_are_not_to_review():
    corpus, statements = typed_statements(SURE_EDGES)
    assert check_to_review(build_graph(corpus, statements)) == []


def test_to_review_ids_are_those_rulegraph_review_answers_on_a_gold_glossary(french):
    from rulegraph.review import review_items

    result = build(Path(__file__).resolve().parent / "gold" / "tranchees" / "corpus.toml")
    listed = {f.message.split("ID de revue ", 1)[1][:8] for f in check_to_review(result.graph)}
    assert listed == {item.id for item in review_items(result.statements)}


# ------------------------------------------------------------------ editions and SHACL


def test_edition_missing_between_two_editions_that_have_it(french):
    graph = build(CHECKS_DIR / "editions" / "corpus.toml").graph
    (finding,) = check_edition_gaps(graph)
    assert finding.subject == "Brume" and finding.severity == "warning"
    assert "Troisième (ligne 4)" in finding.message and "Première" in finding.message


def test_ability_in_every_edition_no_gap():
    graph = build(CHECKS_DIR / "editions" / "corpus.toml").graph
    assert "Givre" not in subjects(check_edition_gaps(graph))


def test_shacl_catches_a_missing_line_and_an_edge_to_a_non_ability(clean):
    broken = clean.__class__()
    for triple in clean:
        broken.add(triple)
    houle = ability_uri(next(iter([TermRef("marees", "ability", "Houle")])))
    broken.remove((houle, RG.line, None))
    state = term_uri("marees", "state", "Trempé")
    broken.add((state, RDF.type, RG.State))
    broken.add((houle, RG.cancels, state))
    findings = check_shacl(broken)
    messages = " ".join(f.message for f in findings)
    assert "numéro de ligne" in messages and "relier deux capacités" in messages
    assert {f.subject for f in findings} >= {"Houle"}


def test_well_formed_graph_passes_shacl(clean):
    assert check_shacl(clean) == []


def test_structural_literal_check_rejects_a_line_that_is_not_a_number(clean):
    broken = clean.__class__()
    for triple in clean:
        broken.add(triple)
    houle = ability_uri(TermRef("marees", "ability", "Houle"))
    broken.set((houle, RG.line, Literal("douze")))
    assert any(f.subject == "Houle" for f in check_shacl(broken))


def test_clean_glossary_has_no_finding_at_all(clean):
    assert run_checks(clean) == []


def test_codes_and_names_are_unique_and_stable():
    codes = [c.code for c in CHECKS]
    assert codes == [f"RG{n:03d}" for n in range(1, len(CHECKS) + 1)]
    assert len({c.name for c in CHECKS}) == len(CHECKS)


@pytest.mark.parametrize(
    ("word", "infinitive"),
    [("défaussés", "défausser"), ("ciblez", "cibler"), ("possèdera", "posséder"), ("duplique", "dupliquer"),
     ("possédent", None), ("reserve", None), ("dernièer", None)],
)
def test_spelling_accepts_conjugations_of_known_verbs_but_not_misspelt_ones(word, infinitive):
    from rulegraph.checks.spelling import verb_form_of
    from rulegraph.text import french_dictionary

    assert verb_form_of(word, french_dictionary()) == infinitive


def test_spelling_in_the_preamble_names_its_line(french, seed_graph):
    from rulegraph.checks.spelling import check_spelling

    preamble = [f for f in check_spelling(seed_graph) if "possedée" in f.message]
    assert [(f.subject, f.line) for f in preamble] == [("règles générales", 4)]


def test_spelling_knows_words_written_with_a_ligature(build_markdown):
    from rulegraph.checks.spelling import check_spelling

    result = build_markdown("## Capacités\n\n### Bravoure\n\nLe combattant a du cœur à l’ouvrage.\n")
    assert check_spelling(result.graph) == []


def test_spelling_and_parameter_findings_point_at_the_line_of_the_word(french, seed_graph):
    from rulegraph.checks.parameters import check_parameter_mismatches
    from rulegraph.checks.spelling import check_spelling

    lines = {f.message.split("»")[0].split("«")[-1].strip(): f.line for f in check_spelling(seed_graph)}
    assert (lines["reserve"], lines["bénéfi"]) == (128, 42)
    sens = next(f for f in check_parameter_mismatches(seed_graph) if f.subject == "Sens du combat")
    assert sens.line == 214


def test_shacl_split_validation_finds_what_one_validation_finds(seed_graph):
    """The shipped shapes are validated in two runs (rgs:InteractionStatement only on the
    statements that lack a confidence or a rule): the findings are those of one pySHACL run."""
    from rulegraph.checks.shacl import shapes

    broken = seed_graph.__class__()
    for triple in seed_graph:
        broken.add(triple)
    statements = sorted(broken.subjects(RDF.type, RG.Statement))
    interaction = next(s for s in statements if broken.value(s, RDF.predicate) == RG.cancels)
    other = next(s for s in statements if broken.value(s, RDF.predicate) == RG.modifies)
    broken.remove((interaction, RG.rule, None))
    broken.remove((other, RG.confidence, None))
    broken.remove((statements[0], RG.line, None))
    split = check_shacl(broken)
    assert sorted(map(repr, split)) == sorted(map(repr, check_shacl(broken, shapes())))
    assert any("confiance" in f.message and str(interaction) in f.message for f in split)
    assert not any(str(other) in f.message for f in split if "confiance" in f.message)


def test_shacl_validated_in_a_forked_process_gives_the_same_report(seed_graph, monkeypatch):
    """A large graph's SHACL check runs in a forked child beside the other checks: the report is
    the one the checks give in-process (the seeds, with the size limit lowered to them)."""
    from rulegraph.checks import registry

    broken = seed_graph.__class__()
    for triple in seed_graph:
        broken.add(triple)
    interaction = next(s for s in sorted(broken.subjects(RDF.type, RG.Statement)) if broken.value(s, RDF.predicate) == RG.cancels)
    broken.remove((interaction, RG.rule, None))
    in_process = run_checks(broken)
    assert any(f.code == "RG013" for f in in_process)
    monkeypatch.setattr(registry, "FORK_FROM_TRIPLES", 0)
    assert run_checks(broken) == in_process


def test_checks_started_early_report_on_the_graph_as_it_is_when_collected(seed_graph):
    """start_checks (what a build calls once its graph exists) validates in the background; the
    report is the in-process one, and a graph changed in between is validated again."""
    from rulegraph.checks import start_checks

    broken = seed_graph.__class__()
    for triple in seed_graph:
        broken.add(triple)
    in_process = run_checks(broken)
    start_checks(broken)
    assert run_checks(broken) == in_process
    start_checks(broken)
    interaction = next(s for s in sorted(broken.subjects(RDF.type, RG.Statement)) if broken.value(s, RDF.predicate) == RG.cancels)
    broken.remove((interaction, RG.rule, None))
    assert any(f.code == "RG013" for f in run_checks(broken)) and not any(f.code == "RG013" for f in in_process)


def test_a_validation_of_the_same_content_is_read_from_the_cache(seed_graph, tmp_path, monkeypatch):
    """A build names its graph's content by the Turtle's digest: the SHACL findings of that
    content are kept, and the next build with the same digest reads them and stops the
    validation it started; another digest is validated."""
    from rulegraph.checks import name_content, start_checks
    from rulegraph.graph import turtle_bytes
    from rulegraph.store import digest

    monkeypatch.setenv("RULEGRAPH_CACHE", str(tmp_path))
    broken = seed_graph.__class__()
    for triple in seed_graph:
        broken.add(triple)
    interaction = next(s for s in sorted(broken.subjects(RDF.type, RG.Statement)) if broken.value(s, RDF.predicate) == RG.cancels)
    broken.remove((interaction, RG.rule, None))
    content = digest(turtle_bytes(broken))
    start_checks(broken)
    name_content(broken, content)
    validated = run_checks(broken, ["shacl"])
    assert validated and len(list((tmp_path / "shacl").glob("*.pickle"))) == 1
    (kept,) = (tmp_path / "shacl").glob("*.pickle")
    kept.write_bytes(pickle.dumps(validated[:1]))
    start_checks(broken)
    name_content(broken, content)
    assert run_checks(broken, ["shacl"]) == validated[:1]
    start_checks(seed_graph)
    name_content(seed_graph, digest(turtle_bytes(seed_graph)))
    assert run_checks(seed_graph, ["shacl"]) == []
    assert len(list((tmp_path / "shacl").glob("*.pickle"))) == 2


def test_a_validation_started_early_is_stopped_when_the_checks_run_leave_shacl_out(seed_graph):
    """A build that starts SHACL in a child, then runs only some checks, leaves no child behind."""
    import multiprocessing

    from rulegraph.checks import start_checks

    before = set(multiprocessing.active_children())
    start_checks(seed_graph)
    started = set(multiprocessing.active_children()) - before
    assert started, "start_checks forks a child where fork exists"
    findings = run_checks(seed_graph, ["RG001"])
    assert {f.code for f in findings} == {"RG001"}
    assert not set(multiprocessing.active_children()) & started
    assert all(not child.is_alive() for child in started)
