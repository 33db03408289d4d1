"""Plain-text chapter (Hell Dorado): preamble, section headings, ``- Name PARAMS :`` entries.

A chapter with no such entry may be written as rulebooks are: each name alone on its line, in
capitals, followed at once by its rule text (``FRAPPE PRÉVENTIVE``); a line in capitals followed
by a blank line is a section (``7.2 CAPACITÉS DE TIR``). Names and sections written in capitals
are kept as the rules write them in sentences ("Frappe préventive"), without a section number.
A chapter may also give each ability a paragraph of its own, ``Charge (X) : Lorsque…``, with no
dash. Sections after the last entry are commentary on the entries, or a list of pairs when their
title names a relation (``CAPACITÉS NON CUMULABLES`` then ``conscrit / vétéran``).

Text wrapped at a fixed width (a PDF pasted as text) is rejoined into paragraphs, a word cut by
a hyphen mended; page numbers and running heads left between paragraphs are dropped.

A tag may follow the colon (``Capacité liée au recrutement``) or stand on the next line
(``Effet de commandement - Dominance commandement clair``): a short line without final
punctuation, followed by the rule text. Bullet lines inside an entry stay in
it: an entry header is a ``- Name :`` line that follows a blank line. A section heading
(``Capacités des armes``) is a short line alone between blank lines, a title in capitals after a
blank line (``CERCLE DES ESPRITS``, its description on the next lines), or one the manifest's
``categories`` names: it sets the entries' glossary category.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import Any

from ..errors import RulegraphError
from ..i18n import _
from ..model import CHARACTER, Document, Entry, Paragraph
from ..names import is_upper_case, looks_like_name, sentence_case, without_rule_number
from ..text import editor_lines, fold
from . import fields
from .entries import (
    HYPHENATED,
    PAGE_NUMBER,
    category_class,
    enough_entries,
    governing_words,
    join_wrapped,
    make_entry,
    relation_list_line,
    running_key,
)

#: The name starts and ends with a non-space, so the spaces around it are matched one way only
#: (a lazy name followed by ``\s*`` backtracked quadratically on a long run of spaces).
ENTRY_HEADER = re.compile(r"^\s*[-–•]\s+(?P<head>[^:\s](?:[^:]*[^:\s])?)\s*:\s*(?P<after>.*)$")
_TAG_MAX_WORDS = 8
_FINAL_PUNCTUATION = re.compile(r"[.!?;:]\s*$")
_DIGIT = re.compile(r"\d")
_RUNNING_HEAD_MAX = 80


def is_tag(text: str) -> bool:
    """A short text without final punctuation: a tag (``Capacité liée au recrutement``), not rules."""
    text = text.strip()
    return 0 < len(text.split()) <= _TAG_MAX_WORDS and not _FINAL_PUNCTUATION.search(text)


def _is_title(lines: list[str], number: int) -> bool:
    """A short first line followed by a blank line is the chapter's title, not rules."""
    return number == 1 and is_tag(lines[0]) and (len(lines) < 2 or not lines[1].strip())


def _is_section(lines: list[str], number: int, previous_blank: bool) -> bool:
    """A short line alone between blank lines, or a title of two words or more in capitals after
    a blank line (``CERCLE DES ESPRITS``), whose next line may describe the section, or a title
    in capitals over footnotes (``NOTES`` then ``[1] …``)."""
    line = lines[number - 1]
    if not previous_blank or not is_tag(line) or ENTRY_HEADER.match(line):
        return False
    following = lines[number] if number < len(lines) else ""
    return not following.strip() or (line.isupper() and (len(re.findall(r"[^\W\d_]{2,}", line)) >= 2
                                                         or _FOOTNOTE.match(following.strip()) is not None))


#: A horizontal rule a fanzine or a text export draws between blocks ("-----", "=====", "* * *"):
#: a separator, like a blank line.
_RULE_LINE = re.compile(r"(?:[-_=*~]\s*){5,}")


def _is_sidebar(lines: list[str], number: int, previous_blank: bool) -> bool:
    """A boxed aside among the entries: a label and a title in capitals after a blank line, its
    text on the very next line ("ENCADRÉ : LA PYRAMIDE HUMAINE", "CONSEIL DE JEU : …"). Its
    paragraph is commentary, not the text of the entry above it."""
    line = lines[number - 1].strip()
    label, colon, title = line.partition(":")
    following = lines[number].strip() if number < len(lines) else ""
    return (previous_blank and bool(colon) and bool(label.strip()) and bool(title.strip()) and is_upper_case(line)
            and bool(following) and not ENTRY_HEADER.match(line) and not _is_dash_entry(lines, number + 1, True))


def _is_dash_entry(lines: list[str], number: int, previous_blank: bool) -> bool:
    header = ENTRY_HEADER.match(lines[number - 1]) if previous_blank else None
    return bool(header and looks_like_name(header.group("head")))


def _is_capital_entry(lines: list[str], number: int, previous_blank: bool) -> bool:
    """A name alone in capitals after a blank line, followed by its rule text (or by a tag line,
    then the text): "ASSAUT CONCERTÉ" then "Pour chaque allié…"."""
    line = lines[number - 1].strip()
    if not previous_blank or not is_upper_case(line) or not looks_like_name(line):
        return False
    following = [lines[n].strip() for n in range(number, min(number + 2, len(lines)))]
    if not following or not following[0]:
        return False
    return not is_tag(following[0]) or (len(following) > 1 and bool(following[1]) and not is_tag(following[1]))


#: "2.8 Botte secrète": a name after its paragraph number of two levels or more (a single "3." numbers
#: a section: "3. COMPÉTENCES DE COMBAT").
_NUMBERED_NAME = re.compile(r"^(?:§\s*)?\d+(?:\.\d+)+\.?\s+(?P<name>\S.*)$")


def _is_numbered_entry(lines: list[str], number: int, previous_blank: bool) -> bool:
    """A numbered name alone on its line after a blank line, its rule text on the next lines
    ("2.8 Botte secrète" then "• Effet : …"), as a rulebook's appendix numbers its skills."""
    numbered = _NUMBERED_NAME.match(lines[number - 1].strip()) if previous_blank else None
    following = lines[number].strip() if number < len(lines) else ""
    return bool(numbered and looks_like_name(numbered.group("name")) and following)


#: "Charge (X) : Lorsque la figurine…": a name, a colon and the rule text on one line. The name
#: ends on a non-space, so the spaces before the colon are matched one way only.
_COLON_HEADER = re.compile(r"^(?P<head>[^\W\d_](?:[^:]*[^:\s])?)\s*:\s*(?P<after>\S.*)$")


#: "Riposte<TAB>Chaque fois que…": a word processor's name and text on one line, split by a tab.
_TAB_HEADER = re.compile(r"^(?P<head>[^\t]*[^\t\s])\t+(?P<after>\S.*)$")


def _name_and_text(line: str) -> re.Match[str] | None:
    """A line's name and rule text, split by a tab or else by a colon."""
    return _TAB_HEADER.match(line) or _COLON_HEADER.match(line)


def _colon_head(line: str) -> str | None:
    header = _name_and_text(line.strip())
    head = header.group("head") if header else ""
    return head if head[:1].isupper() and looks_like_name(head) and not fields.is_label(head) else None


def _after_blank(lines: list[str]) -> list[bool]:
    """Per line, whether a blank line (or the start of the file) comes before it."""
    return [True] + [not line.strip() for line in lines[:-1]]


def entry_openers(lines: list[str]) -> tuple[set[int], set[int]]:
    """The lines that open an entry written without a dash: names alone in capitals, numbered
    names alone ("2.8 Botte secrète"), or "Name : text" paragraphs (at least a few, nearly all with different names), whichever form
    opens more entries; none of either when a line of the chapter is a ``- Name :`` entry (that
    form wins). A title in capitals with its description on the next line ("LE FEU" then "Les
    foyers…") among "Name : text" paragraphs is a section."""
    previous = _after_blank(lines)
    numbers = range(1, len(lines) + 1)
    if any(_is_dash_entry(lines, n, previous[n - 1]) for n in numbers):
        return set(), set()
    capitals = {n for n in numbers if _is_capital_entry(lines, n, previous[n - 1])}
    numbered = {n for n in numbers if _is_numbered_entry(lines, n, previous[n - 1])}
    # A tabbed line needs no blank line before it: a word processor's entries follow each other.
    heads = {n: head for n in numbers if (previous[n - 1] or _TAB_HEADER.match(lines[n - 1].strip()))
             and (head := _colon_head(lines[n - 1]))}
    if not enough_entries(heads.values()):
        heads = {}
    if not enough_entries([without_rule_number(lines[n - 1]) for n in numbered]):
        numbered = set()
    alone = max(capitals, numbered, key=len)
    return (alone, set()) if len(alone) >= len(heads) else (set(), set(heads))


def parse(text: str, *, source: str, game: str, options: dict[str, Any]) -> Document:
    categories = {fold(k): v for k, v in (options.get("categories") or {}).items()}
    default_class = options.get("default_category", CHARACTER)
    category, section = default_class, ""
    lines = editor_lines(text)
    printed = _page_marks(lines)
    document = Document(source=source, game=game)
    current: dict[str, Any] | None = None
    entries: list[dict[str, Any]] = []
    capitals, colons = entry_openers(lines)
    openers = capitals | colons
    # Text outside the entries, with the section it stands in: (section index, title, paragraph).
    outside: list[tuple[int, str, Paragraph]] = []
    section_index = last_entry_section = 0
    previous_blank = True
    asides: list[Paragraph] = []
    in_aside = False
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if number in printed:
            continue
        if not line or _RULE_LINE.fullmatch(line):
            previous_blank, in_aside = True, False
            continue
        if _is_title(lines, number):
            continue
        if not openers and fold(line) not in categories and _is_sidebar(lines, number, previous_blank):
            current, in_aside, previous_blank = None, True, False
            continue
        if in_aside:
            if not _is_dash_entry(lines, number, True):
                asides.append(Paragraph(line, number))
                continue
            in_aside, previous_blank = False, True
        if number not in openers and (fold(line) in categories or _is_section(lines, number, previous_blank)):
            section = sentence_case(without_rule_number(line)) if capitals or colons else line
            category = category_class(section, categories, default_class)
            current = None
            previous_blank = True
            section_index += 1
            continue
        if number in openers or _is_dash_entry(lines, number, previous_blank):
            header = ENTRY_HEADER.match(line) or (_name_and_text(line) if number in colons else None)
            head, after = (header.group("head"), header.group("after").strip()) if header else (sentence_case(without_rule_number(line)), "")
            last_entry_section = section_index
            current = {"head": head, "line": number, "category": category, "section": section, "section_index": section_index,
                       "tags": [], "paragraphs": []}
            if after and is_tag(after):
                current["tags"].append(after)
            elif after:
                current["paragraphs"].append(Paragraph(after, number))
            entries.append(current)
        elif current is None:
            outside.append((section_index, section, Paragraph(line, number)))
        elif not current["paragraphs"] and "next_line_tag" not in current and is_tag(line):
            current["next_line_tag"] = Paragraph(line, number)
            current["tags"].append(line)
        elif current["paragraphs"] and not previous_blank and _continues(current["paragraphs"][-1].text, line):
            current["paragraphs"][-1] = _joined(current["paragraphs"][-1], line, number)
        else:
            current["paragraphs"].append(Paragraph(line, number))
        previous_blank = False
    if not entries:
        raise RulegraphError(_("no entry found; start each entry with '- Name :' after a blank line, or write each ability as a paragraph 'Name : text', or each name alone on a line in capitals, its rule text on the next line"), path=source, line=1)
    outside = _footnotes_to_entries(outside, entries)
    for raw_entry in entries:
        document.entries.append(_make_entry(raw_entry, source=source, game=game))
    _place_outside_text(document, outside, last_entry_section, {raw["section_index"] for raw in entries})
    document.commentary = tuple(sorted((*document.commentary, *asides), key=lambda paragraph: paragraph.line))
    return document


#: A footnote's call in a text ("aucun effet sur lui[3].") and the footnote itself ("[3] Précision : …").
_FOOTNOTE_CALL = re.compile(r"(?<=\S)\[(\d{1,3})\]")
_FOOTNOTE = re.compile(r"^\[(?P<number>\d{1,3})\]\s*(?P<text>\S.*)$")


def _footnotes_to_entries(outside: list[tuple[int, str, Paragraph]], entries: list[dict[str, Any]]) -> list[tuple[int, str, Paragraph]]:
    """A footnote ("[3] Précision : Garde haute ne protège pas du Contre-chant") belongs to the
    entry whose text calls it, wherever the notes were gathered (after the entries, or read as
    the last entry's text): it goes on with that entry's rule, at its own line, and the calls
    leave the text. Footnotes no entry calls stay where they are."""
    called: dict[str, dict[str, Any]] = {}
    for raw in entries:
        for paragraph in raw["paragraphs"]:
            for number in _FOOTNOTE_CALL.findall(paragraph.text):
                called.setdefault(number, raw)

    def called_note(paragraph: Paragraph) -> tuple[dict[str, Any], Paragraph] | None:
        footnote = _FOOTNOTE.match(paragraph.text)
        if footnote is None or footnote.group("number") not in called:
            return None
        return called[footnote.group("number")], replace(paragraph, text=footnote.group("text"))

    notes = []
    for raw in entries:
        kept = []
        for paragraph in raw["paragraphs"]:
            if (note := called_note(paragraph)) is not None:
                notes.append(note)
            else:
                kept.append(replace(paragraph, text=_FOOTNOTE_CALL.sub("", paragraph.text)) if _FOOTNOTE_CALL.search(paragraph.text) else paragraph)
        raw["paragraphs"] = kept
    left = []
    for item in outside:
        if (note := called_note(item[2])) is not None:
            notes.append(note)
        else:
            left.append(item)
    for raw, paragraph in notes:
        raw["paragraphs"].append(paragraph)
    return left


def _place_outside_text(document: Document, outside: list[tuple[int, str, Paragraph]], last_entry_section: int,
                        entry_sections: set[int]) -> None:
    """Text before the entries or among them is the preamble, but a section's text before its
    first entry presents that section; a section after the last entry's section is commentary
    on the entries ("Précisions"), or a relation list when its title names one ("ANNEXE —
    CAPACITÉS NON CUMULABLES" then "conscrit / vétéran")."""
    preamble: list[Paragraph] = []
    presented: list[tuple[str, Paragraph]] = []
    commentary: list[Paragraph] = []
    lists: list[tuple[str, Paragraph]] = []
    for index, title, paragraph in outside:
        if index in entry_sections and index > 0:
            presented.append((title, paragraph))
        elif index <= last_entry_section:
            preamble.append(paragraph)
        elif (listed := relation_list_line(title, paragraph)) is not None:
            lists.append(listed)
        else:
            commentary.append(paragraph)
    document.preamble, document.commentary, document.relation_lists = tuple(preamble), tuple(commentary), tuple(lists)
    document.section_texts = tuple(presented)


def _page_marks(lines: list[str]) -> set[int]:
    """Lines a PDF pasted as text leaves between paragraphs: page numbers alone on their line,
    and running heads (a short line with a page number and no final punctuation that comes back,
    number aside, three times or more: "LES MOINES DE SHAOLIN — 34"; abilities written alike,
    "… dépenser 1 PC …", are rule text)."""
    heads = [_DIGIT.search(line) is not None and len(line.strip()) <= _RUNNING_HEAD_MAX
             and not _FINAL_PUNCTUATION.search(line) for line in lines]
    keys = Counter(running_key(line) for line, head in zip(lines, heads, strict=True) if head)
    return {number for number, (line, head) in enumerate(zip(lines, heads, strict=True), start=1)
            if PAGE_NUMBER.match(line) or (head and keys[running_key(line)] >= 3)}


def _continues(text: str, line: str) -> bool:
    """Whether ``line`` goes on with the paragraph ``text`` (text wrapped at a fixed width, as a
    PDF pasted as text is): the paragraph stops on no final punctuation, and the line starts in
    lower case, or the paragraph stops on a word that needs what follows (an article, a
    preposition: "… la" / "Garde impénétrable ne s'applique pas"), or on a hyphenated word."""
    if _FINAL_PUNCTUATION.search(text):
        return False
    last = fold(text.rsplit(None, 1)[-1]) if text.split() else ""
    return line[:1].islower() or HYPHENATED.search(text) is not None or last in governing_words()


def _joined(paragraph: Paragraph, line: str, number: int) -> Paragraph:
    text, start = join_wrapped(paragraph.text, line)
    last_line = paragraph.line + len(paragraph.breaks)
    breaks = (*paragraph.breaks, *[start] * (number - last_line))
    return Paragraph(text, paragraph.line, paragraph.heading, paragraph.marked, breaks)


def _make_entry(raw: dict[str, Any], *, source: str, game: str) -> Entry:
    if "next_line_tag" in raw and not raw["paragraphs"]:
        raw["tags"].remove(raw["next_line_tag"].text)
        raw["paragraphs"].append(raw["next_line_tag"])
    return make_entry(
        raw["head"], raw["paragraphs"], game=game, source=source, line=raw["line"],
        category=raw["category"], tags=raw["tags"], glossary_category=raw["section"],
    )
