"""The curation file: a designer adds, removes or retypes an edge with a reason; applied on every
build; an entry naming an unknown ability, or one that no longer matches, is an error with its line."""

from __future__ import annotations

import shutil

import pytest
from rdflib import Literal

from rulegraph.build import build
from rulegraph.errors import RulegraphError
from rulegraph.extract.curation import apply_curation, parse_curation
from rulegraph.namespaces import RG

from .conftest import DATA


def _apply(seed_build, text):
    entries = parse_curation(text, seed_build.corpus, path="curation.toml")
    return apply_curation(seed_build.statements, entries, seed_build.corpus)


def _edges(statements, game="hell-dorado"):
    return {(s.subject.label, s.relation, s.object.label, s.method) for s in statements if s.subject.game == game}


def test_add_puts_a_curated_edge_with_the_sentence_evidence(seed_build):
    result = _apply(seed_build, """
[[add]]
game = "hell-dorado"
subject = "protecteur"
relation = "references"
object = "attaque d'opportunite"
reason = "AdO's text describes Protecteur without naming it"
sentence = "Un combattant qui possède cette capacité ne perd pas sa zone de contrôle"
""")
    (added,) = [s for s in result if s.method == "curated" and s.subject.label == "Protecteur"]
    assert (added.relation, added.object.label) == ("references", "Attaque d’opportunité")
    assert added.source == "000_10d76c9141a2b7c0.txt" and added.line == 192
    assert added.reason.startswith("AdO's text")


def test_remove_drops_the_edge_in_either_direction_when_symmetric(seed_build):
    result = _apply(seed_build, """
[[remove]]
game = "hell-dorado"
subject = "Prestige"
relation = "excludes"
object = "Loyal"
reason = "test"
""")
    assert not {e for e in _edges(result) if e[1] == "excludes" and {e[0], e[2]} == {"Loyal", "Prestige"}}
    assert len(result) < len(seed_build.statements)


def test_retype_changes_the_relation_and_marks_it_curated(seed_build):
    result = _apply(seed_build, """
[[retype]]
game = "hell-dorado"
subject = "Embuscade"
was = "references"
relation = "requires"
object = "Déploiement avancé"
reason = "test"
""")
    assert ("Embuscade", "requires", "Déploiement avancé", "curated") in _edges(result)
    assert ("Embuscade", "references", "Déploiement avancé", "extracted") not in _edges(result)
    (retyped,) = [s for s in result if s.method == "curated" and s.subject.label == "Embuscade"]
    assert retyped.cue is None and retyped.reason == "test" and retyped.line == 81


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ('# note\n\n[[add]]\ngame = "hell-dorado"\nsubject = "Fouisseur"\nrelation = "grants"\nobject = "Vol plané"\nreason = "x"\n', 7, "'Vol plané' is not an ability"),
        ('[[remove]]\ngame = "hell-dorado"\nsubject = "Fouiseur"\nrelation = "cancels"\nobject = "Charge"\nreason = "x"\n', 5, "'Charge' is not an ability"),
        ('[[add]]\ngame = "hell-dorado"\nsubject = "Fouisseur"\nrelation = "annule"\nobject = "Volant"\nreason = "x"\n', 4, "relation 'annule'"),
        ('[[add]]\ngame = "hell-dorado"\nsubject = "Fouisseur"\nrelation = "grants"\nobject = "Volant"\n', 1, "needs reason"),
        ('[[add]]\ngame = "inconnu"\nsubject = "A"\nrelation = "grants"\nobject = "B"\nreason = "x"\n', 2, "game 'inconnu'"),
        ('[[change]]\ngame = "hell-dorado"\n', 1, "unknown table"),
    ],
)
def test_bad_entries_are_errors_with_the_curation_line(seed_build, text, line, message):
    with pytest.raises(RulegraphError) as caught:
        _apply(seed_build, text)
    assert caught.value.line == line
    assert message in caught.value.message


def test_unknown_ability_error_suggests_the_closest_name(seed_build):
    with pytest.raises(RulegraphError, match="did you mean Fouisseur"):
        _apply(seed_build, '[[remove]]\ngame = "hell-dorado"\nsubject = "Fouissseurs du sol"\nrelation = "cancels"\nobject = "Volant"\nreason = "x"\n')


def test_a_correction_that_matches_no_edge_is_reported(seed_build):
    with pytest.raises(RulegraphError, match="no extracted edge") as caught:
        _apply(seed_build, '\n[[remove]]\ngame = "hell-dorado"\nsubject = "Fouisseur"\nrelation = "grants"\nobject = "Volant"\nreason = "x"\n')
    assert caught.value.line == 2


def test_build_applies_the_curation_file_next_to_the_manifest(seed_build, seed_graph):
    curated = [s for s in seed_build.statements if s.method == "curated"]
    assert curated and all(s.reason for s in curated)
    nodes = set(seed_graph.subjects(RG.method, Literal("curated")))
    assert nodes and all(seed_graph.value(n, RG.reason) is not None for n in nodes)


def test_build_without_a_curation_file_keeps_the_extraction(tmp_path):
    target = tmp_path / "data"
    shutil.copytree(DATA, target)
    (target / "curation.toml").unlink()
    result = build(target / "corpus.toml")
    assert all(s.method == "extracted" for s in result.statements)


def test_a_broken_curation_file_stops_the_build(tmp_path):
    target = tmp_path / "data"
    shutil.copytree(DATA, target)
    (target / "curation.toml").write_text('[[add]]\ngame = "epic"\nsubject = "Antigrav"\nrelation = "grants"\nobject = "Nulle part"\nreason = "x"\n', encoding="utf-8")
    with pytest.raises(RulegraphError) as caught:
        build(target / "corpus.toml")
    assert caught.value.path.endswith("curation.toml") and caught.value.line == 5


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ('[[add]]\ngame = "hell-dorado"\nsubject = "Fouisseur"\nrelation = "references"\nobject = "Volant"\nreason = 3\n', 6, "reason must be a quoted text"),
        ('[[add]]\ngame = "hell-dorado"\nsubject = "Fouisseur"\nrelation = "references"\nobject = "Volant"\nreason = "r"\n'
         'sentence = "Une phrase que Fouisseur ne contient pas."\n', 7, "not in the text of 'Fouisseur'"),
    ],
)
def test_wrong_kinds_and_unknown_sentences_are_errors_at_their_line(seed_build, text, line, message):
    with pytest.raises(RulegraphError) as caught:
        _apply(seed_build, text)
    assert caught.value.line == line and message in caught.value.message


def test_a_curation_file_that_is_not_utf8_is_a_clear_error(tmp_path, seed_build):
    from rulegraph.extract.curation import load_curation

    path = tmp_path / "curation.toml"
    path.write_bytes("[[add]]\nreason = \"é\"\n".encode("latin-1"))
    with pytest.raises(RulegraphError, match="UTF-8"):
        load_curation(path, seed_build.corpus)
