"""Build Word, OpenDocument and PDF fixtures in the tests, with the libraries that write those
formats (python-docx, odfpy, reportlab), so no binary file is committed or reviewed.

The Hell Dorado chapter (data/000_…txt) is rebuilt in each format the way a designer would lay
it out: the chapter's blank-line blocks become paragraphs, its ``- Name :`` lines entries.
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HD = ROOT / "data" / "000_10d76c9141a2b7c0.txt"
RUNNING_HEADER = "Hell Dorado - Livre de règles - Capacités"
_ENTRY = re.compile(r"^-\s+(?P<head>[^:]+?)\s*:\s*(?P<after>.*)$")


@dataclass
class ChapterEntry:
    head: str
    after: str
    lines: list[str] = field(default_factory=list)


@dataclass
class Chapter:
    """The chapter as a designer's document holds it: title, preamble, sections of entries."""

    title: str
    preamble: list[str]
    sections: list[tuple[str, list[ChapterEntry]]]


def hell_dorado_chapter() -> Chapter:
    blocks = [b.splitlines() for b in re.split(r"\n\s*\n", HD.read_text(encoding="utf-8").strip())]
    title, preamble, sections = blocks[0][0], [], []
    for block in blocks[1:]:
        entry = _ENTRY.match(block[0])
        if entry:
            sections[-1][1].append(ChapterEntry(entry["head"], entry["after"], block[1:]))
        elif len(block) == 1 and len(block[0].split()) <= 5:
            sections.append((block[0], []))
        else:
            preamble += block
    return Chapter(title, preamble, sections)


# ---------------------------------------------------------------- Word

def docx_bytes(build) -> bytes:
    """A .docx made by ``build(document)`` with python-docx."""
    import docx

    document = docx.Document()
    build(document)
    stream = io.BytesIO()
    document.save(stream)
    return stream.getvalue()


def hell_dorado_docx() -> bytes:
    """A heading per ability (Heading 2), sections as Heading 1, the title as Title."""
    chapter = hell_dorado_chapter()

    def build(document):
        document.add_heading(chapter.title, level=0)
        for line in chapter.preamble:
            document.add_paragraph(line)
        for section, entries in chapter.sections:
            document.add_heading(section, level=1)
            for entry in entries:
                document.add_heading(entry.head, level=2)
                if entry.after:
                    document.add_paragraph(entry.after)
                for line in entry.lines:
                    document.add_paragraph(line)

    return docx_bytes(build)


# ---------------------------------------------------------------- OpenDocument

def odt_bytes(build) -> bytes:
    """An .odt made by ``build(document, bold_style, italic_style)`` with odfpy."""
    from odf.opendocument import OpenDocumentText
    from odf.style import Style, TextProperties

    document = OpenDocumentText()
    bold = Style(name="Gras", family="text")
    bold.addElement(TextProperties(fontweight="bold"))
    italic = Style(name="Italique", family="text")
    italic.addElement(TextProperties(fontstyle="italic"))
    document.automaticstyles.addElement(bold)
    document.automaticstyles.addElement(italic)
    build(document, bold, italic)
    stream = io.BytesIO()
    document.write(stream)
    return stream.getvalue()


def hell_dorado_odt() -> bytes:
    """The chapter's ``- Name :`` paragraphs with the name in bold; title and sections as headings."""
    from odf.text import H, P, Span

    chapter = hell_dorado_chapter()

    def build(document, bold, italic):
        body = document.text
        body.addElement(H(outlinelevel=1, text=chapter.title))
        for line in chapter.preamble:
            body.addElement(P(text=line))
        for section, entries in chapter.sections:
            body.addElement(H(outlinelevel=2, text=section))
            for entry in entries:
                header = P(text="- ")
                header.addElement(Span(stylename=bold, text=entry.head))
                header.addText(" :" + (f" {entry.after}" if entry.after else ""))
                body.addElement(header)
                for line in entry.lines:
                    body.addElement(P(text=line))

    return odt_bytes(build)


# ---------------------------------------------------------------- PDF

def _fonts():
    import reportlab
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    folder = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
    for name, file in (("Vera", "Vera.ttf"), ("Vera-Bold", "VeraBd.ttf"), ("Vera-Italic", "VeraIt.ttf")):
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, os.path.join(folder, file)))


def _hyphen_point(word: str) -> int | None:
    """Where a printer would cut a long plain word: before a consonant that follows a vowel."""
    if len(word) < 9 or not word.isalpha():
        return None
    for index in range(len(word) - 4, 3, -1):
        if word[index - 1] in "aeiouéèêàâîôûy" and word[index] not in "aeiouéèêàâîôûy":
            return index
    return None


class PrintedPage:
    """Lays text out as a printed book does: wrapped and hyphenated lines, a running header and
    a page number ``- N -`` on every page, a gap between blocks."""

    def __init__(self, header: str | None = RUNNING_HEADER, size: float = 10, ligatures: bool = False):
        from reportlab.lib.pagesizes import A5
        from reportlab.pdfgen.canvas import Canvas

        _fonts()
        self.stream = io.BytesIO()
        self.canvas = Canvas(self.stream, pagesize=A5, invariant=1)
        self.width, self.height = A5
        self.margin, self.size, self.header, self.ligatures = 40, size, header, ligatures
        self.page = 0
        self._new_page()

    def _new_page(self):
        if self.page:
            self.canvas.showPage()
        self.page += 1
        if self.header:
            self.canvas.setFont("Vera-Italic", 8)
            self.canvas.drawCentredString(self.width / 2, self.height - 25, self.header)
        self.canvas.setFont("Vera", 9)
        self.canvas.drawCentredString(self.width / 2, 20, f"- {self.page} -")
        self.y = self.height - self.margin - 10

    def _line(self, pieces: list[tuple[str, str]], size: float):
        if self.y < self.margin + 10:
            self._new_page()
        text = self.canvas.beginText(self.margin, self.y)
        for font, piece in pieces:
            text.setFont(font, size)
            text.textOut(piece.replace("fi", "ﬁ").replace("fl", "ﬂ") if self.ligatures else piece)
        self.canvas.drawText(text)
        self.y -= size * 1.25

    def paragraph(self, text: str, *, lead: str = "", font: str = "Vera", size: float | None = None):
        """``lead`` is printed in bold before ``text``; lines wrap at the right margin."""
        from reportlab.pdfbase.pdfmetrics import stringWidth

        size = size or self.size
        room = self.width - 2 * self.margin
        line: list[tuple[str, str]] = [("Vera-Bold", lead)] if lead else []
        used = stringWidth(lead, "Vera-Bold", size)
        words = text.split()
        while words:
            word = words.pop(0)
            gap = " " if line and (line[-1][1] and not line[-1][1].endswith(" ")) else ""
            width = stringWidth(gap + word, font, size)
            if used + width <= room:
                line.append((font, gap + word))
                used += width
                continue
            cut = _hyphen_point(word)
            if cut and used + stringWidth(gap + word[:cut] + "-", font, size) <= room:
                line.append((font, gap + word[:cut] + "-"))
                words.insert(0, word[cut:])
            else:
                words.insert(0, word)
            self._line(line, size)
            line, used = [], 0
        if line:
            self._line(line, size)

    def gap(self):
        self.y -= self.size * 0.8

    def heading(self, text: str, size: float):
        self.gap()
        self.paragraph(text, font="Vera-Bold", size=size)

    def pdf(self) -> bytes:
        self.canvas.save()
        return self.stream.getvalue()


def hell_dorado_pdf(ligatures: bool = True) -> bytes:
    """The chapter as printed: bold larger section headings, ``- Name :`` in bold, wrapped and
    hyphenated lines, the running header and ``- N -`` on every page, fi/fl as ligatures."""
    chapter = hell_dorado_chapter()
    page = PrintedPage(ligatures=ligatures)
    page.heading(chapter.title, 16)
    for line in chapter.preamble:
        page.paragraph(line)
    for section, entries in chapter.sections:
        page.heading(section, 13)
        for entry in entries:
            page.gap()
            page.paragraph(entry.after, lead=f"- {entry.head} : ")
            for line in entry.lines:
                page.paragraph(line)
    return page.pdf()
