"""What the Word, ODT and PDF readers share once a document is a list of styled paragraphs:
finding the entries the ways designers write them, and the sections that give their category.

An entry is written as
- a heading per ability (the heading level used most, when its headings open rule text;
  higher levels are sections);
- a bold name opening a paragraph, followed by ``:`` (``**Fouisseur** : …``), or a short
  paragraph all in bold;
- the chapter form ``- Name PARAMS :`` (the plain-text chapter's), the name bold or not.
The form that finds more entries wins; with it, every heading is a section. After a name, a
short text without final punctuation (after the colon, or as the first paragraph followed by
others) is a tag, as in the chapter reader.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..errors import RulegraphError
from ..i18n import _
from ..model import CHARACTER, Document, Paragraph
from ..names import looks_like_name
from ..text import fold
from .chapter import ENTRY_HEADER, is_tag
from .entries import category_class, make_entry


@dataclass(frozen=True, slots=True)
class Block:
    """One paragraph of a document: its text, where it is, and the styling that tells its role.

    ``line`` is the paragraph's number (Word, ODT) or the line of the extracted text it starts on
    (PDF); ``level`` a heading level (1 is the top), None for body text; ``lead`` the bold text
    that opens it; ``marked`` the other phrases in bold or italics (a hint that they are names).
    """

    text: str
    line: int
    level: int | None = None
    lead: str = ""
    marked: tuple[str, ...] = ()
    breaks: tuple[int, ...] = ()
    page: int | None = None
    page_breaks: tuple[int, ...] = ()

    def paragraph(self, text: str | None = None, offset: int = 0) -> Paragraph:
        """This block as rule text; ``text`` is what is left of it after a name took its start."""
        if text is None:
            return Paragraph(self.text, self.line, None, self.marked, self.breaks, self.page, self.page_breaks)
        breaks = tuple(b - offset for b in self.breaks if b > offset)
        line = self.line + sum(1 for b in self.breaks if b <= offset)
        page_breaks = tuple(b - offset for b in self.page_breaks if b > offset)
        page = None if self.page is None else self.page + sum(1 for b in self.page_breaks if b <= offset)
        return Paragraph(text, line, None, tuple(m for m in self.marked if m in text), breaks, page, page_breaks)


def emphasis(runs: Iterable[tuple[str, bool, bool]]) -> tuple[str, tuple[str, ...]]:
    """From a paragraph's runs (text, bold, italic): the bold text that opens it (a name before
    its rule), and the other emphasised phrases (name hints), whitespace collapsed."""
    lead: list[str] = []
    marked: list[str] = []
    phrase: list[str] = []
    leading = True
    for piece, is_bold, is_italic in runs:
        if leading and (is_bold or not piece.strip()):
            lead.append(piece)
            continue
        leading = False
        if piece.strip() and (is_bold or is_italic):
            phrase.append(piece)
        elif phrase:
            marked.append(" ".join("".join(phrase).split()))
            phrase = []
    if phrase:
        marked.append(" ".join("".join(phrase).split()))
    return " ".join("".join(lead).split()), tuple(m for m in marked if m)


def _inline_head(block: Block) -> tuple[str, str, int] | None:
    """``(heading, text after the colon, offset of that text)`` when the block opens an entry."""
    if block.level is not None:
        return None
    header = ENTRY_HEADER.match(block.text)
    if header and looks_like_name(header.group("head")):
        return header.group("head"), header.group("after").strip(), header.start("after")
    lead = block.lead.strip()
    if not lead:
        return None
    rest = block.text[block.text.find(lead) + len(lead):] if lead in block.text else ""
    head = lead.lstrip("-–• ").rstrip()
    if head.endswith(":"):
        head, rest = head[:-1].rstrip(), ":" + rest
    if rest.lstrip().startswith(":") and looks_like_name(head):
        after = rest.lstrip()[1:]
        offset = len(block.text) - len(after.lstrip())
        return head, after.strip(), offset
    if not rest.strip() and looks_like_name(head):
        return head, "", len(block.text)
    return None


def _heading_level(blocks: list[Block]) -> tuple[int | None, int]:
    """The heading level used most (deepest on a tie), and how many of its headings open rule
    text directly: a heading followed by a bold-name entry is a section, not an ability."""
    counts = Counter(b.level for b in blocks if b.level is not None and looks_like_name(b.text.rstrip(" :")))
    if not counts:
        return None, 0
    level = max(counts, key=lambda lv: (counts[lv], lv))
    followed = zip(blocks, blocks[1:])
    return level, sum(1 for b, after in followed if b.level == level and after.level is None and not _inline_head(after))


def parse_blocks(blocks: list[Block], *, source: str, game: str, options: dict[str, Any], kind: str) -> Document:
    """Entries, sections and preamble of a styled document (``kind`` names it in errors)."""
    mapping = {fold(k): v for k, v in (options.get("categories") or {}).items()}
    default_class = options.get("default_category", CHARACTER)
    entry_level, headed = _heading_level(blocks)
    inline = sum(1 for b in blocks if _inline_head(b))
    if inline > headed:
        entry_level = None
    section = ""
    preamble: list[Paragraph] = []
    raw_entries: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for block in blocks:
        if block.level is not None and block.level == entry_level:
            current = _open(raw_entries, block.text.rstrip(" :"), block, section)
            continue
        if block.level is not None:
            section, current = block.text.rstrip(" :"), None
            continue
        head = _inline_head(block) if entry_level is None else None
        if head:
            name, after, offset = head
            current = _open(raw_entries, name, block, section)
            if after and is_tag(after):
                current["tags"].append(after)
            elif after:
                current["paragraphs"].append(block.paragraph(after, offset))
        elif current is None:
            preamble.append(block.paragraph())
        else:
            current["paragraphs"].append(block.paragraph())
    if not raw_entries:
        raise RulegraphError(
            _("no entry found in this {kind}; give each ability a heading style, or start its paragraph with its name in bold followed by ':', or write '- Name :'").format(kind=kind), path=source, line=1)
    document = Document(source=source, game=game, preamble=tuple(preamble))
    for raw in raw_entries:
        paragraphs = raw["paragraphs"]
        if len(paragraphs) > 1 and is_tag(paragraphs[0].text):
            raw["tags"].append(paragraphs.pop(0).text)
        document.entries.append(make_entry(
            raw["head"], paragraphs, game=game, source=source, line=raw["line"],
            category=category_class(raw["section"], mapping, default_class), tags=raw["tags"],
            glossary_category=raw["section"], page=raw["page"],
        ))
    return document


def _open(raw_entries: list[dict[str, Any]], head: str, block: Block, section: str) -> dict[str, Any]:
    entry = {"head": head, "line": block.line, "page": block.page, "section": section, "tags": [], "paragraphs": []}
    raw_entries.append(entry)
    return entry
