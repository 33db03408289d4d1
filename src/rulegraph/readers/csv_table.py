"""Delimited table with BBCode-like markup (Epic): ``nom capacité;texte`` rows.

``[justifier]…[/justifier]`` blocks become paragraphs, ``[g]…[/g]`` a sub-heading of the
paragraph it opens; other tags are dropped and their text kept. An unclosed tag (the seed has a
``[justifier] [justifier]``) only starts a new paragraph. A category column (``catégorie``,
``category``, or ``category_field``) gives each row its glossary category; other columns are
kept as attributes.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from typing import Any

from ..errors import RulegraphError
from ..i18n import _
from ..model import CHARACTER, Document, Paragraph
from ..text import editor_lines, fold, line_breaks
from . import fields
from .entries import category_class, column_notes, make_entry

_BLOCK_TAG = re.compile(r"\[/?(?:justifier|centrer|center|p|quote|list|\*)\]", re.IGNORECASE)
_SUBHEADING = re.compile(r"^\s*\[g\](?P<heading>.*?)\[/g\]\s*:?\s*", re.IGNORECASE)
_ANY_TAG = re.compile(r"\[/?[a-z*][a-z0-9=#\"' ]*\]", re.IGNORECASE)


def markup_paragraphs(markup: str, line: int) -> list[Paragraph]:
    """Turn one cell of BBCode-like markup into clean paragraphs."""
    paragraphs = []
    for block in _BLOCK_TAG.split(markup):
        heading = None
        sub = _SUBHEADING.match(block)
        if sub:
            heading = " ".join(_ANY_TAG.sub("", sub.group("heading")).split())
            block = block[sub.end():]
        clean = " ".join(_ANY_TAG.sub("", block).split())
        if clean or heading:
            paragraphs.append(Paragraph(clean, line, heading))
    return paragraphs


def _cell_line(row: list[str], index: int, row_line: int) -> int:
    """The line where an editor shows a cell: the cells before it push it down by their line breaks."""
    return row_line + sum(line_breaks(cell) for cell in row[:index])


def _cell_paragraphs(row: list[str], index: int, row_line: int) -> list[Paragraph]:
    """One cell's paragraphs, each at the line where an editor shows it: a line break typed in
    a spreadsheet cell ends a paragraph ("Un seul par bande" / "Exclut Meneur" are two), unless
    the sentence goes on in lower case ("il gagne +1 en" / "force") or the line above is only a
    ``[g]…[/g]`` sub-heading, which opens the paragraph below it."""
    first = _cell_line(row, index, row_line)
    chunks: list[tuple[int, str]] = []
    for offset, text in enumerate(editor_lines(row[index])):
        if chunks and (_SUBHEADING.fullmatch(chunks[-1][1].strip())
                       or (text.strip()[:1].islower() and not chunks[-1][1].rstrip().endswith(_SENTENCE_ENDS))):
            chunks[-1] = (chunks[-1][0], f"{chunks[-1][1]} {text}")
        else:
            chunks.append((first + offset, text))
    return [paragraph for line, text in chunks for paragraph in markup_paragraphs(text, line)]


_SENTENCE_ENDS = (".", "!", "?", ":", ";", "»", '"', ")")


#: Delimiters a spreadsheet export uses; the header row tells which one this file has.
_DELIMITERS = ";,\t|"


def _delimiter(text: str) -> str:
    """The delimiter of the header row: csv.Sniffer over the first line, else ';' (Epic)."""
    first = next((line for line in editor_lines(text) if line.strip()), "")
    try:
        return csv.Sniffer().sniff(first, delimiters=_DELIMITERS).delimiter
    except csv.Error:
        return ";"


def _column(header: list[str], wanted: str | None, usual: tuple[str, ...], fallback: int, taken: tuple[str, ...] = ()) -> str:
    """The column the manifest names, else the first of a usual name, else by position."""
    if wanted:
        return wanted
    return fields.find(header, usual, taken) or (header[fallback] if len(header) > fallback else "")


def parse(text: str, *, source: str, game: str, options: dict[str, Any]) -> Document:
    delimiter = options.get("delimiter") or _delimiter(text)
    # newline="" lets the csv module see \r, \r\n and \n as an editor does, and nothing else.
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        header = next(reader)
    except StopIteration:
        raise RulegraphError(_('the table is empty; it needs a header row'), path=source, line=1) from None
    except csv.Error as error:
        raise RulegraphError(_('malformed header: {error}').format(error=_explain(error)), path=source, line=1) from None
    columns = {fold(name): index for index, name in enumerate(header)}
    name_field = _column(header, options.get("name_field"), fields.NAME_FIELDS, 0)
    text_field = _column(header, options.get("text_field"), fields.TEXT_FIELDS, 1, taken=(name_field,))
    if len(header) < 2:
        raise RulegraphError(_('the header has one column ({header}); a glossary table needs a name and a text column, separated by one of {items} (or set delimiter in the manifest)').format(header=', '.join(header), items=' '.join(repr(d) for d in _DELIMITERS)),
                             path=source, line=1)
    for field in (name_field, text_field):
        if fold(field) not in columns:
            raise RulegraphError(
                _('header has no column {field!r} (found: {header}); fix the header or set name_field/text_field in the manifest').format(field=field, header=', '.join(header)),
                path=source,
                line=1,
            )
    name_at, text_at = columns[fold(name_field)], columns[fold(text_field)]
    category_field = options.get("category_field")
    if category_field and fold(category_field) not in columns:
        raise RulegraphError(_('header has no column {category_field!r} (found: {header}); fix category_field in the manifest').format(category_field=category_field, header=', '.join(header)), path=source, line=1)
    read = [header[name_at], header[text_at]]
    category_name = header[columns[fold(category_field)]] if category_field else fields.find(header, fields.CATEGORY_FIELDS, read)
    category_at = header.index(category_name) if category_name is not None else None
    read.append(category_name or "")
    note_name = fields.find_notes(header, read)
    note_at = header.index(note_name) if note_name is not None else None
    read.append(note_name or "")
    more_at = [i for i, h in enumerate(header) if h not in read and fields.is_more_text(h)]
    others = [i for i in range(len(header)) if i not in {name_at, text_at, category_at, note_at, *more_at} and header[i].strip()]
    mapping = {fold(k): v for k, v in (options.get("categories") or {}).items()}
    document = Document(source=source, game=game)
    default_class = options.get("default_category", CHARACTER)
    for row_line, row in _rows(reader, source):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise RulegraphError(
                _('row has {count} field(s), the header {count2}: a {delimiter!r} inside a text needs the text in double quotes').format(count=len(row), count2=len(header), delimiter=delimiter),
                path=source,
                line=row_line,
            )
        label = row[category_at].strip() if category_at is not None else ""
        paragraphs = _cell_paragraphs(row, text_at, row_line)
        for index in more_at:
            paragraphs += _cell_paragraphs(row, index, row_line)
        rulings, notes = column_notes(_cell_paragraphs(row, note_at, row_line) if note_at is not None else [], paragraphs)
        document.entries.append(
            make_entry(
                row[name_at].strip(), paragraphs + rulings,
                game=game, source=source, line=row_line, category=category_class(label, mapping, default_class),
                glossary_category=label, attributes=[(header[i].strip(), row[i].strip()) for i in others if row[i].strip()],
                extra_notes=notes,
            )
        )
    if not document.entries:
        raise RulegraphError(_('the table has a header but no ability rows; add one row per ability'),
                             path=source, line=reader.line_num + 1)
    return document


def _explain(error: csv.Error) -> str:
    """The csv module's message, said as what to change in the file."""
    if "field larger than field limit" in str(error):
        return (f"a cell is longer than {csv.field_size_limit():,} characters; split the text, "
                "or look for a double quote opened and never closed above it")
    return f"{error}; close the double quote that opens its text"


def _rows(reader, source: str) -> Iterator[tuple[int, list[str]]]:
    """Rows with the line each starts on; an unclosed quote is an error at the row that opens it,
    not a silent merge of every row after it."""
    line = reader.line_num + 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise RulegraphError(_('malformed row: {error}').format(error=_explain(error)), path=source, line=line) from None
        yield line, row
        line = reader.line_num + 1
