"""The checks on the seed glossaries: the facts of the issue that do not depend on how well
relations are extracted, and no check crashes."""

from __future__ import annotations

from collections import Counter

import pytest
from rdflib import RDF, RDFS

from rulegraph.checks import CHECKS, run_checks
from rulegraph.namespaces import RG
from rulegraph.text import fold


@pytest.fixture(scope="module")
def seed_findings(seed_graph):
    """The findings as a French designer reads them: the tests quote the seeds' messages."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LANGUAGE", "fr")
        return run_checks(seed_graph)


def of(findings, name):
    return [f for f in findings if f.check == name]


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.name)
def test_no_check_crashes_on_the_seeds(seed_graph, check):
    findings = check.run(seed_graph)
    assert all(f.code == check.code and f.check == check.name for f in findings)


def test_four_designer_notes_each_with_the_sentence_it_questions(seed_findings):
    notes = {f.subject: f.message for f in of(seed_findings, "designer-note")}
    assert len(notes) == 4
    assert "au-dessus de 3" in notes["Garde du corps"] and "virer la limite à 3" in notes["Garde du corps"]
    assert "à moins de 1" in notes["Combat défensif"]
    assert "DEF de son antagoniste est de 1 ou de moins" in notes["Contre-attaque"]
    assert "à simplifier" in notes["Attaque d’opportunité"]


def test_fouisseur_teleportation_volant_are_one_identical_text_group(seed_findings):
    groups = [f.message for f in of(seed_findings, "identical-text")]
    group = [g for g in groups if "Fouisseur" in g]
    assert len(group) == 1
    assert "Téléportation" in group[0] and "Volant" in group[0]


def test_sens_du_combat_uses_x_without_declaring_it(seed_findings):
    messages = [f.message for f in of(seed_findings, "parameter-mismatch") if f.subject == "Sens du combat"]
    assert any("utilise X" in m for m in messages)


def test_every_repeated_epic_row_is_an_info_duplicate(seed_graph, seed_findings):
    repeated = {str(seed_graph.value(node, RDFS.label))
                for node, count in seed_graph.subject_objects(RG.occurrences) if int(count) > 1}
    reported = {f.subject for f in of(seed_findings, "duplicate-definition") if f.severity == "info"}
    assert repeated and reported == repeated
    assert {f.game for f in of(seed_findings, "duplicate-definition")} == {"Epic"}


def test_every_undefined_name_is_reported_with_where_it_is_used(seed_graph, seed_findings):
    undefined = {str(seed_graph.value(n, RDFS.label)) for n in seed_graph.subjects(RDF.type, RG.UndefinedAbility)}
    findings = of(seed_findings, "undefined-reference")
    assert {f.subject for f in findings} == undefined
    assert {"Epic", "Confrontation"} <= {f.game for f in findings}
    assert all("employé dans" in f.message and f.line for f in findings)


def test_undefined_name_defined_in_another_game_is_hinted_as_such(seed_graph, seed_findings):
    defined = {fold(str(seed_graph.value(n, RDFS.label))): n for t in (RG.CharacterAbility, RG.WeaponAbility)
               for n in seed_graph.subjects(RDF.type, t)}
    for finding in of(seed_findings, "undefined-reference"):
        if fold(finding.subject) in defined:
            assert "(autre jeu :" in finding.message


def test_typo_in_a_designer_note_is_caught_with_its_fix(seed_findings):
    typo = [f for f in of(seed_findings, "spelling") if "« dernièer »" in f.message]
    assert len(typo) == 1 and typo[0].subject == "Contre-attaque"
    assert "« dernière »" in typo[0].message


def test_spelling_reports_each_word_once_per_game_and_no_proper_name(seed_findings):
    words = [(f.game, f.message.split("»")[0]) for f in of(seed_findings, "spelling")]
    assert len(words) == len(set(words))
    assert all(word.split("« ")[1][0].islower() for _, word in words)


def test_toxique_missing_from_an_edition_between_two_that_have_it(seed_findings):
    (gap,) = [f for f in of(seed_findings, "edition-gap") if f.subject == "Toxique"]
    assert gap.severity == "warning" and "Confrontation 3.5" in gap.message


def test_seed_graph_satisfies_the_shapes(seed_findings):
    assert of(seed_findings, "shacl") == []


def test_findings_are_sorted_by_code(seed_findings):
    codes = [f.code for f in seed_findings]
    assert codes == sorted(codes)
    assert Counter(f.severity for f in seed_findings).keys() <= {"info", "warning", "error"}


def test_a_wrong_accent_in_an_ability_name_is_a_spelling_finding(seed_findings):
    dégats = [f for f in of(seed_findings, "spelling") if "« dégats »" in f.message]
    assert len(dégats) == 1 and "« dégâts »" in dégats[0].message
    assert "Dégats spirituels" in dégats[0].message
    unaccented_capitals = [f for f in of(seed_findings, "spelling") if "« eclaireur »" in f.message or "« elite »" in f.message]
    assert not unaccented_capitals, "a capital without its accent is no slip"


def test_a_near_identical_pair_says_what_one_text_adds(seed_findings):
    messages = [f.message for f in of(seed_findings, "near-identical-text")]
    assert any("« d'assaut ou » en plus" in m for m in messages)
    assert not any("∅" in m for m in messages)


def test_the_html_report_opens_on_a_table_of_contents_main_glossary_first(seed_graph):
    import re

    from rulegraph.render.report import report_pages

    page = report_pages(seed_graph)["report.html"]
    assert page.index("<nav>") < page.index('<h2 id="jeu-hell-dorado">') < page.index('<h2 id="jeu-epic">')
    nav = page[page.index("<nav>") : page.index("</nav>")]
    for target in re.findall(r'href="#([^"]+)"', nav):
        assert f'id="{target}"' in page, target
    assert 'href="#hell-dorado--fouisseur"' in nav
