"""Word, OpenDocument and PDF glossaries, built in the tests with python-docx, odfpy and
reportlab: small fixtures for each entry form and quirk, and the Hell Dorado chapter rebuilt in
each format and built with ``rulegraph build FILE --game "Hell Dorado"``."""

from __future__ import annotations

import io
import re

import pytest
from rdflib import RDF, RDFS, Literal

from rulegraph.build import build
from rulegraph.cli import main
from rulegraph.errors import RulegraphError
from rulegraph.graph import load_graph
from rulegraph.namespaces import RG
from rulegraph.readers import odt, pdf, read, word
from rulegraph.readers.entries import join_wrapped
from rulegraph.text import fold

from .documents import (
    HD,
    PrintedPage,
    docx_bytes,
    hell_dorado_docx,
    hell_dorado_odt,
    hell_dorado_pdf,
    odt_bytes,
)

CHAPTER_FORMATS = {"docx": hell_dorado_docx, "odt": hell_dorado_odt, "pdf": hell_dorado_pdf}


@pytest.fixture(scope="module")
def reference():
    """The plain-text chapter as the chapter reader reads it: what every format must give back."""
    return {e.name: e for e in read(HD, source="hd", game="hd").entries}


@pytest.fixture(scope="module", params=sorted(CHAPTER_FORMATS))
def chapter_build(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp(request.param)
    path = folder / f"capacites.{request.param}"
    path.write_bytes(CHAPTER_FORMATS[request.param]())
    code = main(["build", str(path), "--game", "Hell Dorado", "--out", str(folder / "out")])
    return request.param, path, code, load_graph(folder / "out" / "graph.ttl")


def _abilities(graph):
    return {str(graph.value(node, RDFS.label)): node for cls in (RG.CharacterAbility, RG.WeaponAbility)
            for node in graph.subjects(RDF.type, cls)}


def test_chapter_builds_with_every_ability(chapter_build, capsys):
    fmt, _, code, graph = chapter_build
    abilities = _abilities(graph)
    assert code == 0
    assert len(abilities) >= (85 if fmt == "pdf" else 87)
    assert (abilities["Fouisseur"], RG.cancels, abilities["Attaque d’opportunité"]) in graph


def test_chapter_sections_become_categories(chapter_build):
    _, _, _, graph = chapter_build
    abilities = _abilities(graph)
    weapon_category = graph.value(abilities["Lourde"], RG.category)
    assert str(graph.value(weapon_category, RDFS.label)) == "Capacités des armes"
    assert (abilities["Lourde"], RDF.type, RG.WeaponAbility) in graph
    assert (abilities["Fouisseur"], RDF.type, RG.CharacterAbility) in graph
    labels = {str(graph.value(c, RDFS.label)) for c in graph.subjects(RDF.type, RG.Category)}
    assert labels == {"Capacités des Personnages", "Capacités des armes"}


def test_no_running_header_or_page_number_in_labels_or_texts(chapter_build):
    _, _, _, graph = chapter_build
    texts = [str(o) for p in (RDFS.label, RG.text) for o in graph.objects(None, p)]
    assert texts
    assert not [t for t in texts if "Livre de règles" in t]
    assert not [t for t in texts if re.search(r"(^|\s)- \d+ -(\s|$)", t)]


def test_chapter_texts_match_the_plain_text(chapter_build, reference):
    """Every rule text comes back word for word: hyphenated words mended, ligatures unfolded,
    wrapped lines rejoined, tags (after the colon or on the next line) kept apart."""
    fmt, path, _, _ = chapter_build
    entries = read(path, source=path.name, game="hd").entries
    assert len(entries) == 87
    for entry in entries:
        expected = reference[entry.name]
        assert " ".join(entry.text.split()) == " ".join(expected.text.split()), entry.name
        assert (entry.parameters, entry.tags) == (expected.parameters, expected.tags), entry.name
    if fmt == "pdf":
        assert all(entry.page and entry.page >= 2 for entry in entries)
        assert entries == sorted(entries, key=lambda e: (e.page, e.line))
    else:
        assert [e.line for e in entries] == sorted({e.line for e in entries})


def test_pdf_line_and_page_point_at_the_printed_line():
    data = hell_dorado_pdf()
    entries = pdf.parse(data, source="c.pdf", game="hd", options={}).entries
    fouisseur = next(e for e in entries if e.name == "Fouisseur")
    import pdfplumber

    with pdfplumber.open(io.BytesIO(data)) as document:
        lines = [line["text"] for page in document.pages for line in page.extract_text_lines()]
        on_page = document.pages[fouisseur.page - 1].extract_text()
    assert lines[fouisseur.line - 1].startswith("- Fouisseur :")
    assert "- Fouisseur :" in on_page


# ---------------------------------------------------------------- entry forms, small fixtures

def test_word_bold_names_and_heading_sections_without_a_manifest(tmp_path):
    def write(document):
        document.add_heading("Combat", level=1)
        paragraph = document.add_paragraph()
        paragraph.add_run("Coup puissant X").bold = True
        paragraph.add_run(" : ajoute X dégâts. Annule la ")
        paragraph.add_run("Parade").italic = True
        paragraph.add_run(".")
        document.add_paragraph("")
        paragraph = document.add_paragraph()
        paragraph.add_run("Parade :").bold = True
        paragraph.add_run(" ignore une attaque.")
        document.add_heading("Tir", level=1)
        paragraph = document.add_paragraph()
        paragraph.add_run("Tir précis").bold = True
        paragraph.add_run(" : relance un tir raté.")

    path = tmp_path / "regles.docx"
    path.write_bytes(docx_bytes(write))
    entries = read(path, source=path.name, game="g").entries
    assert [(e.name, e.parameters, e.glossary_category, e.line) for e in entries] == [
        ("Coup puissant", ("X",), "Combat", 2), ("Parade", (), "Combat", 4), ("Tir précis", (), "Tir", 6)]
    assert entries[0].text == "ajoute X dégâts. Annule la Parade."
    assert entries[0].paragraphs[0].marked == ("Parade",)


def test_odt_heading_per_ability_with_a_tag_paragraph():
    from odf.text import H, P, Span

    def write(document, bold, italic):
        document.text.addElement(H(outlinelevel=1, text="Capacités"))
        document.text.addElement(H(outlinelevel=2, text="Fouisseur"))
        document.text.addElement(P(text="Capacité liée au terrain"))
        paragraph = P(text="Ignore l'")
        paragraph.addElement(Span(stylename=italic, text="Attaque d'opportunité"))
        paragraph.addText(".")
        document.text.addElement(paragraph)
        document.text.addElement(H(outlinelevel=2, text="Volant"))
        document.text.addElement(P(text="Survole les décors."))

    entries = odt.parse(odt_bytes(write), source="r.odt", game="g", options={}).entries
    assert [(e.name, e.line, e.tags, e.glossary_category) for e in entries] == [
        ("Fouisseur", 2, ("Capacité liée au terrain",), "Capacités"), ("Volant", 5, (), "Capacités")]
    assert entries[0].paragraphs[0].marked == ("Attaque d'opportunité",)


def test_manifest_maps_a_category_to_weapon_abilities(tmp_path):
    from odf.text import H, P, Span

    def write(document, bold, italic):
        for section, name in (("Dons", "Rapide"), ("Lames", "Tranchant")):
            document.text.addElement(H(outlinelevel=1, text=section))
            paragraph = P()
            paragraph.addElement(Span(stylename=bold, text=name))
            paragraph.addText(" : une règle.")
            document.text.addElement(paragraph)

    (tmp_path / "regles.odt").write_bytes(odt_bytes(write))
    (tmp_path / "corpus.toml").write_text(
        '[[game]]\nid = "g"\nname = "G"\n\n[[source]]\npath = "regles.odt"\ngame = "g"\n'
        '[source.categories]\n"Lames" = "weapon"\n', encoding="utf-8")
    graph = build(tmp_path / "corpus.toml").graph
    abilities = _abilities(graph)
    assert (abilities["Tranchant"], RDF.type, RG.WeaponAbility) in graph
    assert (abilities["Rapide"], RDF.type, RG.CharacterAbility) in graph
    assert graph.value(graph.value(abilities["Rapide"], RG.category), RDFS.label) == Literal("Dons", lang="fr")


def test_pdf_cleanup_on_a_small_printed_glossary():
    """Two pages with a running header and page numbers, a ligature, a hyphenated word and a
    real compound cut at its hyphen ("peut-" / "être")."""
    page = PrintedPage(header="Mon jeu - Règles", ligatures=True)
    page.heading("Capacités", 14)
    page.gap()
    page.paragraph("ne bénéficie d'aucun couvert; le tireur peut-être soufflé, afin de", lead="Souffle : ")
    for index in range(40):
        page.gap()
        page.paragraph(f"une règle numéro {index} qui suffit.", lead=f"- Capacité {chr(65 + index % 26)}{index} : ")
    document = pdf.parse(page.pdf(), source="m.pdf", game="g", options={})
    first = document.entries[0]
    assert first.name == "Souffle" and first.text == "ne bénéficie d'aucun couvert; le tireur peut-être soufflé, afin de"
    assert first.page == 1 and first.glossary_category == "Capacités"
    assert len(document.entries) == 41 and {e.page for e in document.entries} == {1, 2}
    assert all("Mon jeu" not in e.text and not re.search(r"- \d+ -", e.text) for e in document.entries)


def test_pdf_hyphenation_and_ligatures():
    assert join_wrapped("il bénéfi-", "cie d'un bonus") == ("il bénéficie d'un bonus", len("il bénéficie "))
    assert join_wrapped("il peut-", "être touché") == ("il peut-être touché", len("il peut-être "))
    assert join_wrapped("ligne", "suivante") == ("ligne suivante", len("ligne "))
    assert join_wrapped("un mot cou-", "pé") == ("un mot coupé", len("un mot coupé"))
    assert "ﬁn du ﬂot".translate(pdf.LIGATURES) == "fin du flot"


# ---------------------------------------------------------------- errors: one line, exit 2

def _pdf(encrypt=None, text=True) -> bytes:
    from reportlab.pdfgen.canvas import Canvas

    stream = io.BytesIO()
    canvas = Canvas(stream, encrypt=encrypt, invariant=1)
    if text:
        canvas.drawString(50, 700, "- Fouisseur : ignore les attaques.")
    else:
        canvas.rect(50, 50, 200, 200, fill=1)
    canvas.showPage()
    canvas.save()
    return stream.getvalue()


def _encrypted_pdf() -> bytes:
    from reportlab.lib.pdfencrypt import StandardEncryption

    return _pdf(encrypt=StandardEncryption("secret", canPrint=0))


@pytest.mark.parametrize(("name", "make", "message"), [
    ("capacites.pdf", lambda: _pdf(text=False), "no text layer: this PDF is scanned; export it again with text, or run OCR first"),
    ("capacites.pdf", _encrypted_pdf, "is protected by a password"),
    ("capacites.pdf", lambda: _pdf()[:400], "is not a readable PDF"),
    ("capacites.docx", lambda: hell_dorado_docx()[:2000], "is not a readable Word document"),
    ("capacites.docx", lambda: b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600), "password-protected"),
    ("capacites.odt", lambda: hell_dorado_odt()[:1500], "is not a readable OpenDocument text"),
])
def test_unreadable_documents_are_one_line_and_exit_2(tmp_path, capsys, name, make, message):
    path = tmp_path / name
    path.write_bytes(make())
    assert main(["build", str(path), "--game", "G", "--out", str(tmp_path / "out")]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "Traceback" not in error
    assert f"{path}:1: " in error and message in error
    assert not (tmp_path / "out").exists()


def test_a_document_without_entries_says_how_to_write_one():
    def write(document):
        document.add_paragraph("Du texte sans capacité.")

    with pytest.raises(RulegraphError, match="heading style") as error:
        word.parse(docx_bytes(write), source="r.docx", game="g", options={})
    assert error.value.line == 1


def test_text_lines_of_a_pdf_carry_their_page(chapter_build):
    fmt, _, _, graph = chapter_build
    pages = {int(p) for line in graph.subjects(RDF.type, RG.TextLine) for p in graph.objects(line, RG.page)}
    assert (len(pages) > 5) if fmt == "pdf" else not pages
    fouisseur = _abilities(graph)["Fouisseur"]
    assert fold(str(graph.value(fouisseur, RG.text))).startswith("un personnage qui possede")


def test_every_text_line_of_the_pdf_points_at_its_printed_line_and_page(chapter_build):
    fmt, path, _, graph = chapter_build
    if fmt != "pdf":
        pytest.skip("pages and extracted-text lines are the PDF's")
    import pdfplumber

    with pdfplumber.open(path) as document:
        printed = [(number, line["text"]) for number, page in enumerate(document.pages, start=1)
                   for line in page.extract_text_lines()]
    checked = 0
    for text_line in graph.subjects(RDF.type, RG.TextLine):
        text = str(graph.value(text_line, RG.text))
        page, line = int(graph.value(text_line, RG.page)), int(graph.value(text_line, RG.line))
        assert printed[line - 1][0] == page
        assert text[:15] in printed[line - 1][1], (text, printed[line - 1])
        checked += 1
    assert checked > 300


def test_word_character_styles_count_as_bold_and_italic():
    def write(document):
        paragraph = document.add_paragraph()
        paragraph.add_run("Riposte", style="Strong")
        paragraph.add_run(" : annule l'")
        paragraph.add_run("Assaut", style="Emphasis")
        paragraph.add_run(".")

    entry = word.parse(docx_bytes(write), source="r.docx", game="g", options={}).entries[0]
    assert (entry.name, entry.text, entry.paragraphs[0].marked) == ("Riposte", "annule l'Assaut.", ("Assaut",))


def test_spelling_finds_in_each_format_what_it_finds_in_the_plain_text(french, chapter_build):
    """Words mended across lines and pages reach the line-by-line checks whole."""
    from rulegraph.checks import run_checks

    def words(graph):
        return sorted(re.search(r"« (.+?) »", f.message).group(1) for f in run_checks(graph, ["spelling"]))

    _, _, _, graph = chapter_build
    assert words(graph) == words(build(files=[HD], game="Hell Dorado").graph)


def test_a_markdown_glossary_of_ability_tables_reads_one_entry_per_row(build_glossary):
    """"| Capacité | Effet |" tables under section headings: each row an ability of that section,
    and the notes under a table speak of its abilities."""
    result = build_glossary("# Dédale\n\nChaque héros possède des capacités.\n\n## Capacités des héros\n\n"
                            "| Capacité | Coût | Effet |\n|---|---|---|\n| **Courage** | 2 | Le héros attaque sans test. |\n"
                            "| Demi-dieu | 5 | Le héros relance un dé. |\n\nUn Demi-dieu possède d'office Courage.\n\n"
                            "## Créatures\n\n| Capacité | Effet |\n|---|---|\n| Peur | Les ennemis reculent. |\n",
                            "dedale.md", game="Dédale")
    assert [(e.name, e.line, e.glossary_category, e.text) for e in result.corpus.entries()] == [
        ("Courage", 9, "Capacités des héros", "Le héros attaque sans test."),
        ("Demi-dieu", 10, "Capacités des héros", "Le héros relance un dé."),
        ("Peur", 18, "Créatures", "Les ennemis reculent.")]
    assert {(s.subject.label, s.object.label, s.line) for s in result.statements
            if s.subject.kind == s.object.kind == "ability"} == {("Demi-dieu", "Courage", 12)}


def test_ability_tables_under_setext_headings_keep_continuation_rows_and_designer_notes(build_glossary):
    """Titles underlined with === or ---, a row whose name cell is empty going on with the row
    above, and notes beside a table: a note of the first ability its paragraph names, else of
    the last row above it."""
    result = build_glossary("Dédale\n======\n\nCapacités des héros\n-------------------\n\n"
                            "| Capacité | Effet |\n|---|---|\n| Courage | Le héros attaque sans test. |\n"
                            "| | Exception : pas contre un Titan. |\n| Bond | Le héros saute. |\n\n"
                            "=> Bond cumulable avec Courage ? à tester\n\n=> trop fort ?\n\n"
                            "Créatures\n---------\n\n| Capacité | Effet |\n|---|---|\n| Peur | Les ennemis reculent. |\n",
                            "dedale.md", game="Dédale")
    entries = result.corpus.entries()
    assert [(e.name, e.line, e.glossary_category, e.text) for e in entries] == [
        ("Courage", 9, "Capacités des héros", "Le héros attaque sans test.\nException : pas contre un Titan."),
        ("Bond", 11, "Capacités des héros", "Le héros saute."),
        ("Peur", 22, "Créatures", "Les ennemis reculent.")]
    assert [(e.name, [(n.text, n.line) for n in e.notes]) for e in entries] == [
        ("Courage", []), ("Bond", [("Bond cumulable avec Courage ? à tester", 13), ("trop fort ?", 15)]), ("Peur", [])]


def test_a_section_of_prose_after_the_entries_is_read_sentence_by_sentence(build_glossary):
    """"## Combos interdits" holds no entry: each of its sentences is read as if written in the
    text of the first ability it names; the introduction before the entries and an index table
    after them state nothing."""
    result = build_glossary("# Chicago\n\nOn y trouve Loyal, Balance et Parrain.\n\n## Capacités\n\n### Loyal\n\nIl reste.\n\n"
                            "### Balance\n\nIl parle.\n\n### Parrain\n\nIl commande.\n\n## Combos interdits\n\n"
                            "Quelques mariages ne tiennent pas. Loyal et Balance sont incompatibles.\n"
                            "Pas de Parrain qui soit aussi une Balance.\n\n## Annexe\n\n| Famille | Capacités |\n|---|---|\n"
                            "| Chicago | Loyal, Balance, Parrain |\n",
                            "chicago.md", game="Chicago")
    assert [e.name for e in result.corpus.entries()] == ["Loyal", "Balance", "Parrain"]
    edges = {(s.subject.label, s.object.label, s.line): s.relation for s in result.statements
             if s.subject.kind == s.object.kind == "ability"}
    assert set(edges) == {("Loyal", "Balance", 21), ("Parrain", "Balance", 22)}
    assert edges["Loyal", "Balance", 21] == "excludes"


@pytest.mark.parametrize(("introduction", "linked"), [
    ("Les capacités communes sont accessibles à tous. Les capacités de clan sont réservées au clan : "
     "on ne peut en acheter ailleurs que si l'on possède Mercenaire.", set()),
    ("Les capacités communes nécessitent Mercenaire.", {("Bushidō", "Mercenaire"), ("Riposte", "Mercenaire")}),
])
def test_a_category_an_introduction_names_reaches_only_its_own_sentence(build_glossary, introduction, linked):
    result = build_glossary(f"# Lames\n\n{introduction}\n\n## Capacités communes\n\n### Bushidō\n\nIl tient.\n\n"
                            "### Riposte\n\nIl répond.\n\n## Capacités de clan\n\n### Mercenaire\n\nIl se vend.\n",
                            "lames.md", game="Lames")
    assert {(s.subject.label, s.object.label) for s in result.statements
            if s.subject.kind == s.object.kind == "ability"} == linked


def test_a_results_table_inside_an_entry_stays_its_text(build_markdown):
    result = build_markdown("## Capacités\n\n### Explosion\n\n| D6 | Effet |\n|---|---|\n| 1-2 | Rien. |\n| 3-6 | Touche. |\n\n"
                           "### Vol\n\nLe héros vole.\n", game="G")
    assert [e.name for e in result.corpus.entries()] == ["Explosion", "Vol"]


def test_a_table_inside_one_entry_of_a_prose_glossary_stays_that_entrys_text(build_markdown):
    """"## Invocation" holds a "| Nom | Effet |" table, "## Vol" and "## Peur" are prose: the
    glossary is its "##" entries, not the table's rows."""
    result = build_markdown("## Invocation\n\nInvoque une créature.\n\n| Nom | Effet |\n|---|---|\n| Loup | Mord. |\n\n"
                           "## Vol\n\nLe héros vole.\n\n## Peur\n\nLes ennemis reculent.\n", game="G")
    assert [e.name for e in result.corpus.entries()] == ["Invocation", "Vol", "Peur"]
