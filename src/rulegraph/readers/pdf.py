"""PDF (a printed rulebook chapter), read with pdfplumber (pdfminer.six underneath).

A PDF holds lines, not paragraphs, so the reader undoes the printing before the entries are
found the way the Word reader finds them (:mod:`.layout`):
- running headers and footers (a line, digits aside, at the top or bottom of most pages) and page
  numbers (``4``, ``- 4 -``, ``Page 4/12``) are dropped;
- ligatures (ﬁ, ﬂ…) are unfolded;
- lines are rejoined into paragraphs: a paragraph ends at a wider gap, a heading, a line ended
  early (the next line's first word would have fitted on it), or where a sentence ends before a
  ``- Name :`` line or a bold name, or after a lone tag line ("Effet de commandement - …");
- a word hyphenated across two lines is joined ("bénéfi-" + "cie"), except a compound whose
  second half is a pronoun or particle ("peut-" + "être", "a-" + "t-il");
- lines bold and larger than the body text are section headings (larger is higher).
``rg:line`` is the line in the text extracted from the whole file (every line of every page,
headers included, in order), ``rg:page`` the page.
"""

from __future__ import annotations

import io
import re
import statistics
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..errors import RulegraphError
from ..i18n import _
from ..model import Document
from .chapter import is_tag
from .entries import HYPHENATED, PAGE_NUMBER, join_wrapped, running_key
from .layout import Block, parse_blocks

BINARY = True
LIGATURES = str.maketrans({"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "ft", "ﬆ": "st"})
_BULLET = re.compile(r"^[-–•]\s")
_SENTENCE_END = re.compile(r"[.!?:»)]\s*$")
_EDGE_LINES = 2
_HEADING_RATIO = 1.15
_SPACE = 0.3
#: A gap between two characters wider than this (points) is a space, as pdfplumber counts it.
_WORD_GAP = 3
_GAP_RATIO = 1.5


@dataclass(slots=True)
class _Line:
    text: str
    number: int
    page: int
    top: float
    x1: float
    first_word: float
    size: float
    bold: bool
    lead: str
    marked: tuple[str, ...]


def _styled_line(raw: dict[str, Any], number: int, page: int) -> _Line:
    """The line's text, spaced where its characters leave a gap as pdfplumber spaces them, with
    its ligatures unfolded, and which characters are bold or italic (the font name says it:
    ``…-Bold``, ``…-Oblique``)."""
    styles: list[tuple[str, bool, bool]] = []
    previous: dict[str, Any] | None = None
    first_word_end = None
    for char in raw["chars"]:
        if previous is not None and char["text"] == previous["text"] and abs(char["x0"] - previous["x0"]) < 0.5:
            continue  # the same glyph drawn twice (a ligature's two letters, or a bold made by overprinting)
        font = char["fontname"].lower()
        bold = any(w in font for w in ("bold", "black", "heavy", "semibold"))
        italic = any(w in font for w in ("italic", "oblique"))
        if previous is not None and char["x0"] - previous["x1"] > _WORD_GAP and not char["text"].isspace():
            styles.append((" ", bold, italic))
        if first_word_end is None and previous is not None and styles and styles[-1][0].isspace():
            first_word_end = previous["x1"]
        styles += [(c, bold, italic) for c in char["text"].translate(LIGATURES)]
        previous = char
    chars = [c for c in raw["chars"] if c["text"].strip()]
    text = "".join(c for c, _, _ in styles)
    start = chars[0]["x0"] if chars else 0.0
    first_word = (first_word_end if first_word_end is not None else (chars[-1]["x1"] if chars else 0.0)) - start
    sizes = Counter(round(c["size"], 1) for c in chars)
    visible = [(b, i) for c, b, i in styles if not c.isspace()]
    lead_end = next((k for k, (c, b, _) in enumerate(styles) if not b and not c.isspace()), len(styles))
    marked: list[str] = []
    phrase: list[str] = []
    for c, b, i in styles[lead_end:]:
        if b or i or (c.isspace() and phrase):
            phrase.append(c)
        elif phrase:
            marked.append("".join(phrase).strip())
            phrase = []
    if phrase:
        marked.append("".join(phrase).strip())
    return _Line(
        text=" ".join(text.split()), number=number, page=page, top=float(raw["top"]),
        x1=float(chars[-1]["x1"]) if chars else float(raw["x1"]), first_word=float(first_word),
        size=sizes.most_common(1)[0][0] if sizes else 0.0, bold=bool(visible) and all(b for b, _ in visible),
        lead=" ".join(text[:lead_end].split()), marked=tuple(m for m in marked if m),
    )


def _open(data: bytes, source: str) -> list[list[_Line]]:
    """Every page's lines, numbered through the file."""
    import pdfplumber
    from pdfminer.pdfdocument import PDFPasswordIncorrect

    pages: list[list[_Line]] = []
    try:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            number = 0
            for page_number, page in enumerate(pdf.pages, start=1):
                lines = []
                for raw in page.extract_text_lines(return_chars=True, strip=True):
                    number += 1
                    lines.append(_styled_line(raw, number, page_number))
                pages.append([line for line in lines if line.text])
    except Exception as error:  # pdfminer wraps its parser errors; the password error may come wrapped
        cause = getattr(error, "__cause__", None) or getattr(error, "args", [None])[0]
        if isinstance(error, PDFPasswordIncorrect) or isinstance(cause, PDFPasswordIncorrect):
            raise RulegraphError(_('is protected by a password; export it again without one, or save an unprotected copy'), path=source, line=1) from None
        raise RulegraphError(_('is not a readable PDF: damaged or incomplete; export it again from the document'), path=source, line=1) from None
    if not any(pages):
        raise RulegraphError(_('no text layer: this PDF is scanned; export it again with text, or run OCR first'),
                             path=source, line=1)
    return pages


def drop_running_lines(pages: list[list[_Line]]) -> list[_Line]:
    """The lines without page numbers and the headers and footers repeated on most pages."""
    edges = [page[:_EDGE_LINES] + page[-_EDGE_LINES:] for page in pages]
    seen = Counter(key for edge in edges for key in {running_key(line.text) for line in edge})
    enough = max(2, (len(pages) + 1) // 2)
    running = {key for key, count in seen.items() if count >= enough}
    kept = []
    for page, edge in zip(pages, edges):
        dropped = {id(line) for line in edge if PAGE_NUMBER.match(line.text) or running_key(line.text) in running}
        kept += [line for line in page if id(line) not in dropped]
    return kept


def _blocks(lines: list[_Line]) -> list[Block]:
    sizes: Counter[float] = Counter()
    for line in lines:
        sizes[line.size] += len(line.text)
    body = sizes.most_common(1)[0][0]
    heading_sizes = sorted({line.size for line in lines if line.bold and line.size >= body * _HEADING_RATIO}, reverse=True)
    ends = [line.x1 for line in lines if line.size == body]
    right = statistics.quantiles(ends, n=20)[-1] if len(ends) > 2 else max(ends)
    steps = [b.top - a.top for a, b in zip(lines, lines[1:]) if a.page == b.page and a.size == b.size == body and b.top > a.top]
    step = statistics.median(steps) if steps else body * 1.2
    blocks: list[Block] = []
    current: list[_Line] = []

    def flush():
        if not current:
            return
        first = current[0]
        level = heading_sizes.index(first.size) + 1 if first.bold and first.size in heading_sizes else None
        text, breaks, page_breaks, marked = first.text, [], [], list(first.marked)
        for previous, line in zip(current, current[1:]):
            text, start = join_wrapped(text, line.text)
            breaks += [start] * (line.number - previous.number)
            page_breaks += [start] * (line.page - previous.page)
            marked += line.marked
        blocks.append(Block(text, first.number, level, "" if level else first.lead, tuple(marked), tuple(breaks),
                            first.page, tuple(page_breaks)))
        current.clear()

    for line in lines:
        if current and (_starts_paragraph(current[-1], line, body=body, right=right, step=step)
                        or (len(current) == 1 and is_tag(current[0].text) and line.text[:1].isupper())):
            flush()
        current.append(line)
    flush()
    return blocks


def _starts_paragraph(previous: _Line, line: _Line, *, body: float, right: float, step: float) -> bool:
    if previous.size != line.size:
        return True
    if line.size != body:  # a heading over two lines, or a note in smaller print
        return previous.page != line.page or line.top - previous.top > step * _GAP_RATIO * line.size / body
    if HYPHENATED.search(previous.text) and line.text[:1].islower():
        return False
    ends_sentence = bool(_SENTENCE_END.search(previous.text))
    # The printer moves a word to the next line only when it does not fit: if it would have
    # fitted, the line was ended on purpose.
    room_left = previous.x1 + body * _SPACE + line.first_word < right
    opens = bool(_BULLET.match(line.text)) or bool(line.lead)
    if previous.page != line.page:
        return room_left or (ends_sentence and opens)
    return line.top - previous.top > step * _GAP_RATIO or room_left or (ends_sentence and opens)


def parse(data: bytes, *, source: str, game: str, options: dict[str, Any]) -> Document:
    lines = drop_running_lines(_open(data, source))
    if not lines:
        raise RulegraphError(_('no text left once page numbers and running headers are removed'), path=source, line=1)
    return parse_blocks(_blocks(lines), source=source, game=game, options=options, kind="PDF")
