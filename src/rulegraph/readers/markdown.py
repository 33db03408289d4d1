"""Markdown glossary (wikis): ``##`` sections set the category, ``###`` headings are entries.

A file with no ``###`` heading uses ``##`` for entries, unless it holds its abilities in tables
(``| Capacité | Effet |``, one row per ability, read by markdown-it-py): then every heading is a
section, each row an entry, and the paragraphs beside a table its commentary. ``_italic_``, ``*italic*`` and
``**bold**``, a wiki's ``[[links]]`` and a virtual tabletop's ``@UUID[…]{links}`` are removed from
the text and remembered as marked phrases, a hint for the extractor that they are names. A wiki's link arrow before a name ("ignore → Bousculade") is
typography too, and is removed like a link's brackets, unless the document's arrows say "gives"
("Alliés à 6 ps → Transe", :func:`arrows_give`): then they stay, and a cue reads them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from ..errors import RulegraphError
from ..i18n import _
from ..model import CHARACTER, Document, Paragraph
from ..names import is_upper_case, looks_like_name, parse_heading
from ..notes import split_note
from ..text import editor_lines, fold
from . import fields
from .entries import category_class, enough_entries, governing_words, make_entry, relation_list_line

#: The title runs to the end of the line; its closing ``#`` marks are cut by :func:`_title`, since
#: a regex that also matched them backtracked cubically on a heading with a long run of spaces.
_HEADING = re.compile(r"^(?P<level>#{1,6})\s+(?P<title>\S.*)$")
_EMPHASIS = re.compile(r"\*\*(?P<b>[^*]+?)\*\*|__(?P<u>[^_]+?)__|(?<![\w*])\*(?P<i>[^*\s][^*]*?)\*(?!\w)|(?<!\w)_(?P<e>[^_\s][^_]*?)_(?!\w)")
#: ``~~removed rule~~``: GitHub's strikethrough.
_STRUCK = re.compile(r"~~[^~]+~~")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_CODE = re.compile(r"`([^`]*)`")
#: ``[text](url)``; neither part may hold a bracket of its kind, which keeps the scan linear.
_LINK = re.compile(r"\[([^\[\]]+)\]\([^()]*\)")
#: A virtual tabletop's link to another document, with the text it shows:
#: ``@UUID[Item.40jr16i55IjLzFCM]{Furie}``, ``@Compendium[monde.capacites.abc]{Vol}``.
_ENRICHER = re.compile(r"@[A-Za-z]+\[[^\[\]]*\]\{(?P<shown>[^{}]+)\}")
#: A wiki's link (MediaWiki, DokuWiki, Obsidian): ``[[Page]]``, ``[[Page#Section|shown text]]``.
_WIKI_LINK = re.compile(r"\[\[(?P<page>[^\[\]|#]*)(?:#[^\[\]|]*)?(?:\|(?P<shown>[^\[\]]*))?\]\]")
#: An arrow right before a name: "→ Vol plané" (not "PA 4 → PA 3", which says "becomes").
_ARROW_TO_NAME = r"[→⇒➔➜►▶☞]\s*(?=[«\"(]?[A-ZÀ-ÝŒÆ])"
#: The arrow with the spaces before it, not after a number: what a link arrow's removal takes.
_LINK_ARROW = re.compile(r"(?<![\d\s])\s*" + _ARROW_TO_NAME)
#: The arrow alone (the word before it is read off the line, not matched: a pattern that also
#: matched it would scan every run of letters again from each of its positions).
_ARROW_BEFORE_NAME = re.compile(_ARROW_TO_NAME)
#: What may open a line before an arrow that starts it: indentation and a list bullet.
_LINE_OPENING = re.compile(r"^\s*(?:[-*+]\s+)?$")
_TABLE_ROW = re.compile(r"^\s*\|")
_TAG_LINE = re.compile(r"(?:tags?|étiquettes?)\s*:\s*.+", re.IGNORECASE)


def arrows_give(lines: list[str]) -> bool:
    """Whether the document's arrows before names say "gives" ("Alliés à 6 ps → Transe", a
    designer's shorthand) rather than point at another entry ("immunisé à → Bousculade", a
    wiki's link). A link arrow stands where the name would stand without it, after a word that
    governs it (a preposition, an article, a verb: the extractor's name stop words); an arrow
    that says "gives" follows the end of a phrase, or opens the line. Three arrows at least,
    and at most one in four after such a word."""
    before = [_word_before(line, match.start()) for line in lines for match in _ARROW_BEFORE_NAME.finditer(line)]
    if len(before) < 3:
        return False
    governing = governing_words()
    governed = sum(word in governing for word in before)
    return governed * 4 <= len(before)


def _word_before(line: str, position: int) -> str:
    """The folded word right before ``position`` ("" at the start of a line or of a list item)."""
    if _LINE_OPENING.match(line[:position]):
        return ""
    words = line[max(0, position - 40):position].split()
    return fold(words[-1]) if words else ""


def strip_markup(text: str, keep_arrows: bool = False) -> tuple[str, tuple[str, ...]]:
    """``le _Camouflage_ et **Ruse**`` → ``le Camouflage et Ruse`` and the marked phrases; text
    struck out (``~~Incompatible avec Vol.~~``) is a rule the author removed, and is dropped.
    ``keep_arrows``: the document's arrows say "gives" (:func:`arrows_give`) and stay."""
    marked: list[str] = []
    if _HTML_HINT.search(text):
        text, emphasised = _without_html(text)
        marked += emphasised
    text = _STRUCK.sub("", text)

    def keep(match: re.Match[str]) -> str:
        phrase = next(g for g in match.groups() if g is not None)
        marked.append(phrase)
        return phrase

    def linked(match: re.Match[str]) -> str:
        phrase = (match.group("shown") or match.groupdict().get("page") or "").strip()
        marked.append(phrase)
        return phrase

    clean = _EMPHASIS.sub(keep, _WIKI_LINK.sub(linked, _ENRICHER.sub(linked, text)))
    clean = _CODE.sub(r"\1", clean)
    clean = _LINK.sub(r"\1", clean)
    if not keep_arrows:
        clean = _LINK_ARROW.sub(lambda m: "" if m.start() == 0 or m.string[m.start() - 1] == "(" else " ", clean)
    return clean, tuple(marked)


#: Inline HTML a CMS or forum export leaves in Markdown: a tag (``<br>``, ``<b>``) or an entity
#: (``&nbsp;``, ``&laquo;``, ``&#233;``).
_HTML_HINT = re.compile(r"</?[A-Za-z][^<>]*>|&(?:[A-Za-z]+|#\d+|#x[0-9A-Fa-f]+);")
_HTML_BREAKS = frozenset({"br", "p", "div", "li", "tr", "hr"})
#: Struck-out text, like ``~~…~~``: a rule the author removed.
_HTML_STRUCK = frozenset({"del", "s", "strike"})
#: Tags an export writes around text; any other "<…>" is the author's ("<niveau>", "Force<Endurance").
_HTML_EMPHASIS = frozenset({"b", "strong", "i", "em", "u"})
_HTML_INLINE = _HTML_BREAKS | _HTML_STRUCK | _HTML_EMPHASIS | frozenset(
    {"span", "font", "small", "big", "sup", "sub", "a", "ul", "ol", "table", "td", "th", "center", "blockquote"})
_SPACES = re.compile(r"[ \t\xa0]{2,}|\xa0")


class _InlineHtml(HTMLParser):
    """The text of a line with inline HTML, read by the standard library's HTML parser: a break
    is a space, an entity its character, bold or italic text a phrase marked as a likely name."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.marked: list[str] = []
        self._open: list[list[str]] = []
        self._struck = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _HTML_INLINE:
            self.handle_data(self.get_starttag_text() or "")
        elif tag in _HTML_BREAKS:
            self.parts.append(" ")
        elif tag in _HTML_STRUCK:
            self._struck += 1
        elif tag in _HTML_EMPHASIS:
            self._open.append([])

    def handle_endtag(self, tag: str) -> None:
        if tag not in _HTML_INLINE:
            self.handle_data(f"</{tag}>")
        elif tag in _HTML_STRUCK:
            self._struck = max(0, self._struck - 1)
        elif tag in _HTML_EMPHASIS and self._open:
            phrase = "".join(self._open.pop()).strip()
            if phrase:
                self.marked.append(phrase)

    def handle_data(self, data: str) -> None:
        if self._struck:
            return
        self.parts.append(data)
        for phrase in self._open:
            phrase.append(data)


def _without_html(text: str) -> tuple[str, list[str]]:
    parser = _InlineHtml()
    parser.feed(text)
    parser.close()
    return _SPACES.sub(" ", "".join(parser.parts)), parser.marked


def _title(match: re.Match[str]) -> str:
    """A heading's text without its closing ``#`` marks (``### Garde ##`` → ``Garde``)."""
    title = match.group("title").rstrip()
    return title.rstrip("#").rstrip() or title


_SETEXT_UNDERLINE = re.compile(r"^ {0,3}(?P<mark>=+|-+)[ \t]*$")


def _with_atx_headings(lines: list[str]) -> list[str]:
    """A one-line title underlined with ``===`` or ``---`` (a Setext heading) written as ``#`` or
    ``##``, its underline left blank: the line numbers stay those of the file."""
    out = list(lines)
    for index in range(1, len(lines)):
        underline = _SETEXT_UNDERLINE.match(lines[index])
        title = lines[index - 1]
        before = lines[index - 2] if index >= 2 else ""
        if (underline and title.strip() and not before.strip() and not _HEADING.match(title)
                and not _LIST_ITEM.match(title) and "|" not in title and not title.startswith((" " * 4, "\t"))):
            level = "#" if underline.group("mark").startswith("=") else "##"
            out[index - 1], out[index] = f"{level} {title.strip()}", ""
    return out


#: "- **Perforant (X)** : les attaques…", "- **Pilote :** la figurine…", "- **Coup de boutoir** † : …":
#: a list item that opens on a name in bold; :func:`_bold_name` reads the colon or dash after it.
#: (The name is bounded and the rest taken whole, so the scan stays linear on a line of spaces.)
_BULLET_ENTRY = re.compile(r"^ {0,3}[-*+][ \t]+(?:\*\*|__)(?P<name>[^*_\n]{1,80}?)(?:\*\*|__)(?P<rest>.*)$")
#: What may stand between the bold name and its colon ("† :", "(X) :"), and the colon or dash.
_AFTER_NAME = re.compile(r"(?P<extra>[^:*_]{0,24}?)(?::|[ \t][—–-][ \t])")


def _bold_name(match: re.Match[str] | None, *, dot: bool) -> tuple[str, str] | None:
    """(heading, text) of a line that opens on a name in bold followed by a colon or a dash: inside
    the bold ("**Pilote :** …"), after it ("**Pilote** : …", "**Coup de boutoir** † : …"), or,
    with ``dot``, a full stop ("**Perchiste.** …"); None for another bold phrase."""
    if match is None:
        return None
    name, rest = match.group("name").strip(), match.group("rest")
    if name.endswith(":") or (dot and name.endswith(".")):
        name, text = name[:-1].strip(), rest.strip()
    elif dot and rest.lstrip().startswith("."):
        text = rest.lstrip()[1:].strip()
    elif (after := _AFTER_NAME.match(rest)) is not None:
        extra = after.group("extra").strip()
        name, text = (f"{name} {extra}" if re.search(r"\w", extra) else name), rest[after.end():].strip()
    else:
        return None
    # "**1.1 Possession.**" opens a numbered rule paragraph, not an entry.
    if dot and ("." in name or name[:1].isdigit()):
        return None
    return (name, text) if name and looks_like_name(name) else None


def _bullet_entries(lines: list[str]) -> dict[int, tuple[str, str]]:
    """Line → (heading, first line of text) of each entry written as a list item in bold, when
    the glossary is written that way (a wiki's "- **Name** : text" under category headings)."""
    found: dict[int, tuple[str, str]] = {}
    for number, line in enumerate(lines, 1):
        named = _bold_name(_BULLET_ENTRY.match(line), dot=False)
        if named is not None:
            found[number] = named
    if not enough_entries(head for head, _text in found.values()):
        return {}
    # Headings whose text holds bullet entries must outnumber those whose text is prose without
    # them: five "- **Posture du …** :" items inside one "### Postures" entry among "### Charge"
    # and "### Tir" are its text. (A section that only lists links, "## Voir aussi", is neither.)
    starts = [n for n, line in enumerate(lines, 1) if _HEADING.match(line)] + [len(lines) + 1]
    with_bullets = with_prose = 0
    for start, end in zip(starts, starts[1:]):
        body = range(start + 1, end)
        if any(n in found for n in body):
            with_bullets += 1
        elif any(lines[n - 1].strip() and not _LIST_ITEM.match(lines[n - 1]) for n in body):
            with_prose += 1
    return found if with_bullets > with_prose else {}


#: "**Perchiste.** Le batelier…", "**Pilote :** la figurine…", "**Lesté** — le combattant…": a
#: paragraph that opens on a name in bold (as a converted rulebook writes its entries).
_BOLD_LEAD = re.compile(r"^(?:\*\*|__)(?P<name>[^*_\n]{1,80}?)(?:\*\*|__)(?P<rest>.*)$")
#: "**__Feutre épais__**" alone on its line, its text on the next (a chat's pinned messages).
_BOLD_ALONE = re.compile(r"^[ \t]*(?:\*\*|__){1,2}(?P<name>[^*_\n]{1,80}?)(?:\*\*|__){1,2}[ \t]*$")


def _bold_lead_entries(lines: list[str]) -> dict[int, tuple[str, str]]:
    """Line → (heading, first line of text) of each paragraph that opens on a name in bold after
    a blank line or a heading (or a name in bold alone on its line, its text on the next), when
    at least a few do, nearly all with different names; a label ("**Effet :**", "**Q :**") is
    none."""
    found: dict[int, tuple[str, str]] = {}
    for number, line in enumerate(lines, 1):
        before = lines[number - 2] if number >= 2 else ""
        if before.strip() and not _HEADING.match(before):
            continue
        named = _bold_name(_BOLD_LEAD.match(line), dot=True)
        if named is not None and named[1] and not fields.is_label(named[0]):
            found[number] = named
        elif (alone := _bold_alone(lines, number)) is not None:
            found[number] = (alone, "")
    return found if enough_entries(head for head, _text in found.values()) else {}


def _bold_alone(lines: list[str], number: int) -> str | None:
    """The name of a line that is only a name in bold ("**__Feutre épais__**"), its text on the
    very next line: a chat's pinned messages title each ability this way."""
    alone = _BOLD_ALONE.match(lines[number - 1])
    following = lines[number] if number < len(lines) else ""
    name = alone.group("name").strip() if alone else ""
    if not name or not following.strip() or _HEADING.match(following) or fields.is_label(name):
        return None
    return name if looks_like_name(name) else None


def _is_loose_entry(title: str, level: int, holds_leads: bool) -> bool:
    """In a glossary whose entries are also bold paragraphs (a converted rulebook), a heading
    below the first level is an entry when it reads as a name not written in capitals; the
    others ("## CAPACITÉS DE COMBAT", "## Commandement, dévotion et superstitions") are sections,
    and so is a heading right over a bold paragraph entry ("### 🎃 Types de figurines" then
    "**Épouvantail** — …") or one that opens with a commentary word ("## Interactions connues")."""
    words = fields.key(title).split()
    commentary = bool(words) and (fields.is_label(words[0]) or fields.is_more_text(words[0]))
    return level >= 2 and not holds_leads and not commentary and not is_upper_case(title) and looks_like_name(title)


def _holding_leads(lines: list[str], headings: list[tuple[int, re.Match[str] | None]], leads: dict[int, tuple[str, str]]) -> set[int]:
    """The headings whose first line is a bold paragraph entry or a deeper heading: sections over
    entries, not entries of their own (a converted rulebook's "#### Mal de rivière" has its own
    text first)."""
    holding = set()
    for number, heading in headings:
        if heading is None:
            continue
        first = next((n for n in range(number + 1, len(lines) + 1) if lines[n - 1].strip()), None)
        below = headings[first - 1][1] if first is not None else None
        if first in leads or below is not None and len(below.group("level")) > len(heading.group("level")):
            holding.add(number)
    return holding


def _goes_on_bullet_entry(line: str, after_blank: bool) -> bool:
    """A line after a list item entry goes on with it when it is indented (a second paragraph, an
    example, a sub-list) or follows at once without being another item ("=> à revoir ?")."""
    if line.startswith((" ", "\t")):
        return True
    return not after_blank and not _LIST_ITEM.match(line)


def _is_table_delimiter(line: str) -> bool:
    """A table's "|---|:--:|" row: dashes, colons, pipes and spaces only."""
    return "---" in line and not line.strip(" \t|:-")


def _paragraphs(lines: list[tuple[int, str]], keep_arrows: bool = False) -> list[Paragraph]:
    """Blank lines separate paragraphs; each list item and each table row is its own
    paragraph (a table of profiles is no 12,000-character sentence)."""
    paragraphs: list[Paragraph] = []
    buffer: list[tuple[int, str]] = []

    def flush() -> None:
        if buffer:
            pieces: list[str] = []
            marked: list[str] = []
            breaks: list[int] = []
            length = 0
            for _, text in buffer:
                clean, emphasised = strip_markup(text, keep_arrows)
                clean = " ".join(clean.split())
                if pieces:
                    length += 1
                    breaks.append(length)
                pieces.append(clean)
                marked += emphasised
                length += len(clean)
            paragraphs.append(Paragraph(" ".join(pieces), buffer[0][0], None, tuple(marked), tuple(breaks)))
            buffer.clear()

    for number, line in lines:
        if not line.strip() or _is_table_delimiter(line):
            flush()
        elif _LIST_ITEM.match(line) or _TABLE_ROW.match(line):
            flush()
            buffer.append((number, line.strip()))
        else:
            buffer.append((number, line.strip().lstrip(">").strip()))
    flush()
    return paragraphs


@dataclass(frozen=True, slots=True)
class _Table:
    """A table of abilities: the lines it spans (1-based, inclusive) and its rows as (line, name,
    text lines); a row with an empty name cell goes on with the row above ("| | Exception : … |")."""

    first: int
    last: int
    rows: tuple[tuple[int, str, tuple[tuple[int, str], ...]], ...]


def _ability_tables(text: str) -> list[_Table]:
    """Every pipe table whose header names an ability column and a text column."""
    if "|" not in text:
        return []
    from markdown_it import MarkdownIt

    tables: list[_Table] = []
    span: list[int] | None = None
    rows: list[tuple[int, list[str]]] = []
    for token in MarkdownIt("commonmark").enable("table").parse(text):
        if token.type == "table_open" and token.map:
            span, rows = token.map, []
        elif token.type == "tr_open" and token.map:
            rows.append((token.map[0] + 1, []))
        elif token.type == "inline" and span is not None and rows:
            rows[-1][1].append(token.content)
        elif token.type == "table_close" and span is not None and rows:
            header = rows[0][1]
            name = fields.find(header, fields.TABLE_NAME_FIELDS)
            body = fields.find(header, fields.TEXT_FIELDS, taken=(name,) if name else ())
            if name is not None and body is not None:
                more = [i for i, cell in enumerate(header) if cell not in (name, body) and fields.is_more_text(cell)]
                tables.append(_Table(span[0] + 1, span[1], _rows(rows[1:], header.index(name), [header.index(body), *more])))
            span = None
    return tables


def _rows(rows: list[tuple[int, list[str]]], name_at: int, text_at: list[int]) -> tuple[tuple[int, str, tuple[tuple[int, str], ...]], ...]:
    """(line, name, text lines) per ability: the text column, then any column that goes on with
    the rule ("Interactions", "Précisions"), each its own paragraph; a row without a name adds
    its text to the row above."""
    read: list[tuple[int, str, list[tuple[int, str]]]] = []
    for line, cells in rows:
        if len(cells) <= max(name_at, text_at[0]):
            continue
        name = cells[name_at].strip()
        texts = [cells[index].strip() for index in text_at if index < len(cells) and cells[index].strip()]
        lines = [item for text in texts for item in ((line, ""), (line, text))][1:]
        if name:
            read.append((line, name, lines or [(line, "")]))
        elif lines and read:
            read[-1][2].extend([(line, ""), *lines])
    return tuple((line, name, tuple(lines)) for line, name, lines in read)


def _table_lines(tables: list[_Table]) -> set[int]:
    return {n for table in tables for n in range(table.first, table.last + 1)}


def _tables_outnumber_headings(tables: list[_Table], headings: list[tuple[int, re.Match[str] | None]], in_table: set[int],
                               line_count: int) -> bool:
    """A rulebook with its glossary in tables ("### 9.1 Compétences d'Agilité" over a "| Nom |
    Type | Description |" table, among sections of prose rules): tables under two sections or
    more, and more ability rows than the sections without a table that would otherwise be read
    as entries ("###", else "##"). One "### Invocation" entry holding a table among entries of
    prose is not that."""
    sections = _sections(headings, line_count)
    entry_level = 3 if any(level == 3 for level, _ in sections) else 2
    with_table = prose_entries = 0
    for level, body in sections:
        if any(n in in_table for n in body):
            with_table += 1
        elif level == entry_level:
            prose_entries += 1
    return with_table >= 2 and sum(len(table.rows) for table in tables) > prose_entries


def _sections(headings: list[tuple[int, re.Match[str] | None]], line_count: int) -> list[tuple[int, range]]:
    """Each heading's level and the lines of its body, up to the next heading."""
    found = [(n, match) for n, match in headings if match]
    ends = [n for n, _ in found[1:]] + [line_count + 1]
    return [(len(match.group("level")), range(start + 1, end)) for (start, match), end in zip(found, ends, strict=True)]


def _tables_hold_the_glossary(lines: list[str], headings: list[tuple[int, re.Match[str] | None]], in_table: set[int]) -> bool:
    """Every section of the deepest heading level that has text holds a table of abilities, but
    for sections of prose after the last table ("## Interactions"), no more of them than of
    sections with a table: a "| Nom | Effet |" table inside one "## Invocation" entry among
    others written as prose is that entry's text. (The title above them may have an
    introduction.)"""
    sections = _sections(headings, len(lines))
    deepest = max((level for level, _ in sections), default=0)
    last_table = max(in_table, default=0)
    with_tables = trailing = 0
    for level, body in sections:
        if level != deepest:
            continue
        has_table = any(n in in_table for n in body)
        has_prose = any(lines[n - 1].strip() and n not in in_table for n in body)
        with_tables += has_table
        if has_prose and not has_table:
            if body.start <= last_table:  # prose before the last table: a heading that is an entry
                return False
            trailing += 1
    return trailing <= with_tables


def _parse_tables(lines: list[str], tables: list[_Table], in_table: set[int], *, source: str, game: str, categories: dict[str, Any],
                  default_class: str, keep_arrows: bool) -> Document:
    """A glossary of ability tables: every heading a section, every row an entry, the paragraphs
    of a section that holds a table or comes after the last table its commentary, the others the
    preamble. A designer's note
    beside a table ("=> Bond cumulable avec Vol ?") is a note of the first ability its paragraph
    names, else of the last row above it."""
    document = Document(source=source, game=game)
    rows_at = {table.first: table for table in tables}
    category, section = default_class, ""
    loose: list[tuple[str, int, str]] = []
    sections_with_tables: set[str] = set()
    rows: list[dict[str, Any]] = []
    for number, line in enumerate(lines, 1):
        heading = _HEADING.match(line)
        if heading:
            section, _markup = strip_markup(_title(heading))
            category = category_class(section, categories, default_class)
        elif number in rows_at:
            sections_with_tables.add(section)
            for row_line, name, cell_lines in rows_at[number].rows:
                title, _markup = strip_markup(name)
                rows.append({"title": title, "key": fold(parse_heading(title).name), "line": row_line,
                             "lines": list(cell_lines), "category": category, "section": section, "notes": []})
        elif number not in in_table:
            loose.append((section, number, line))
    # A section of prose after the last table ("## Interactions") is commentary too; a table that
    # is no glossary (profiles listing their abilities) states no interaction: the preamble keeps it.
    last_table = max(in_table, default=0)
    beside: list[tuple[int, str]] = []
    preamble: list[tuple[int, str]] = []
    for s, n, line in loose:
        commentary_line = not _TABLE_ROW.match(line) and (s in sections_with_tables or (n > last_table and s))
        (beside if commentary_line else preamble).append((n, line))
    commentary: list[Paragraph] = []
    for paragraph in _paragraphs(beside, keep_arrows):
        rule, note = split_note(paragraph)
        owner = _note_owner(rows, paragraph) if note is not None else None
        if owner is None:
            commentary.append(paragraph)
            continue
        owner["notes"].append(note)
        if rule is not None:
            commentary.append(rule)
    document.entries.extend(
        make_entry(row["title"], _paragraphs(row["lines"], keep_arrows), game=game, source=source, line=row["line"],
                   category=row["category"], glossary_category=row["section"], extra_notes=tuple(row["notes"]))
        for row in rows)
    document.preamble = tuple(_paragraphs(preamble, keep_arrows))
    document.commentary = tuple(commentary)
    return document


def _note_owner(rows: list[dict[str, Any]], paragraph: Paragraph) -> dict[str, Any] | None:
    """The row a note beside a table is about: the first ability its paragraph names, else the
    last row above it."""
    text = fold(paragraph.text)
    named = [(match.start(), row) for row in rows
             if (match := re.search(rf"(?<!\w){re.escape(row['key'])}(?!\w)", text))]
    if named:
        return min(named, key=lambda item: item[0])[1]
    above = [row for row in rows if row["line"] < paragraph.line]
    return above[-1] if above else None


def parse(text: str, *, source: str, game: str, options: dict[str, Any]) -> Document:
    categories = {fold(k): v for k, v in (options.get("categories") or {}).items()}
    default_class = options.get("default_category", CHARACTER)
    category, section = default_class, ""
    lines = _with_atx_headings(editor_lines(text))
    keep_arrows = arrows_give(lines)
    headings = [(n, _HEADING.match(line)) for n, line in enumerate(lines, 1)]
    levels = {len(m.group("level")) for _, m in headings if m}
    if (tables := _ability_tables(text)) and (_tables_outnumber_headings(tables, headings, in_table := _table_lines(tables), len(lines))
                                               or 3 not in levels and _tables_hold_the_glossary(lines, headings, in_table)):
        return _parse_tables(lines, tables, in_table, source=source, game=game, categories=categories, default_class=default_class,
                             keep_arrows=keep_arrows)
    leads = _bold_lead_entries(lines)
    bullets = leads or _bullet_entries(lines)
    # With bullet entries, every heading is a section; with bold paragraphs, headings that read
    # as names are entries too, whatever their level.
    entry_level = 7 if bullets else 3 if 3 in levels else 2
    holding = _holding_leads(lines, headings, leads)
    document = Document(source=source, game=game)
    # Text outside every entry, by section: a section of prose with no entry, after the entries
    # ("## Combos interdits"), is commentary on them; the rest is the preamble.
    outside: list[tuple[int, int, str]] = []
    sections_with_entries: set[int] = set()
    section_index = 0
    titles: dict[int, str] = {}
    current: dict[str, Any] | None = None
    raw_entries: list[dict[str, Any]] = []
    after_blank = True
    for number, match in headings:
        line = lines[number - 1]
        title = strip_markup(_title(match))[0] if match else ""
        if number in bullets:
            head, after = bullets[number]
            current = {"head": head, "line": number, "category": category, "section": section, "lines": [(number, after)],
                       "item": number not in leads}
            raw_entries.append(current)
            sections_with_entries.add(section_index)
        elif (current is not None and current.get("item") and not match and line.strip()
              and not _goes_on_bullet_entry(line, after_blank)):
            current = None
            outside.append((section_index, number, line))
        elif match and (len(match.group("level")) == entry_level
                        or leads and _is_loose_entry(title, len(match.group("level")), number in holding)):
            current = {"head": title, "line": number, "category": category, "section": section, "lines": []}
            raw_entries.append(current)
            sections_with_entries.add(section_index)
        elif match and len(match.group("level")) < entry_level:
            section = title
            section_index += 1
            titles[section_index] = title
            category = category_class(title, categories, default_class)
            current = None
        elif current is not None:
            current["lines"].append((number, line))
        else:
            outside.append((section_index, number, line))
        after_blank = not line.strip()
    if not raw_entries:
        raise RulegraphError(
            _("no entry found; write each ability as a '### Name' heading (or '##' if there are no sections)"),
            path=source,
            line=1,
        )
    for raw in raw_entries:
        paragraphs = _paragraphs(raw["lines"], keep_arrows)
        tags: list[str] = []
        if paragraphs and _TAG_LINE.fullmatch(paragraphs[0].text):
            tags = [t.strip() for t in paragraphs.pop(0).text.split(":", 1)[1].split(",") if t.strip()]
        document.entries.append(
            make_entry(
                raw["head"], paragraphs, game=game, source=source, line=raw["line"],
                category=raw["category"], tags=tags, glossary_category=raw["section"],
            )
        )
    # A table there is an index ("| Sénat | Imperium, Veto, … |"), not commentary.
    first_with_entries = min(sections_with_entries)
    commentary = {i for i, _n, _line in outside if i > first_with_entries and i not in sections_with_entries}
    said = [(i, n, line) for i, n, line in outside if not (i in commentary and _TABLE_ROW.match(line))]
    # A section's text before its first entry presents that section ("## Compétences de Croyance"
    # then "Aucune d'elles ne peut être prise par un combattant doté de Vol").
    presented = {i for i in sections_with_entries if i > 0}
    document.preamble = tuple(_paragraphs([(n, line) for i, n, line in said if i not in commentary and i not in presented], keep_arrows))
    document.section_texts = tuple((titles[i], paragraph) for i in sorted(presented)
                                   for paragraph in _paragraphs([(n, line) for j, n, line in said if j == i], keep_arrows))
    # Each line of a list of pairs on its own, whether or not it is a list item.
    lists: list[tuple[str, Paragraph]] = []
    remarks: list[tuple[int, str]] = []
    for i, n, line in said:
        if i not in commentary:
            continue
        single = _paragraphs([(n, line)], keep_arrows)
        if single and (listed := relation_list_line(titles[i], single[0])) is not None:
            lists.append(listed)
        else:
            remarks.append((n, line))
    document.commentary, document.relation_lists = tuple(_paragraphs(remarks, keep_arrows)), tuple(lists)
    return document

