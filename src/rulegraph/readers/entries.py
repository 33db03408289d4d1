"""What every reader does once it has a heading and paragraphs: split the heading into name,
parameters and slots, and the designer notes out of the rule text."""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import RulegraphError
from ..model import EditionText, Entry, Note, Paragraph
from ..names import parse_heading
from ..notes import split_note
from ..text import split_sentences

#: The longest sentence read. The longest in the shipped glossaries has 461 characters; the
#: extractor's work grows faster than linearly with a sentence's length, so a run of text with no
#: full stop (a pasted table, a file without punctuation) is refused instead of taking minutes.
MAX_SENTENCE_CHARACTERS = 3000


def split_notes(paragraphs: Iterable[Paragraph]) -> tuple[tuple[Paragraph, ...], tuple[Note, ...]]:
    """Rule paragraphs without their ``=> …`` notes, and the notes."""
    kept: list[Paragraph] = []
    notes: list[Note] = []
    for paragraph in paragraphs:
        rule, note = split_note(paragraph)
        kept += [rule] if rule else []
        notes += [note] if note else []
    return tuple(kept), tuple(notes)


def make_entry(
    heading: str,
    paragraphs: Iterable[Paragraph],
    *,
    game: str,
    source: str,
    line: int,
    category: str,
    tags: Iterable[str] = (),
    editions: tuple[EditionText, ...] = (),
    extra_notes: tuple[Note, ...] = (),
) -> Entry:
    parts = parse_heading(heading)
    if not parts.name:
        raise RulegraphError("an entry has no name; write the ability's name before its text", path=source, line=line)
    rule, notes = split_notes(paragraphs)
    for paragraph in (*rule, *(p for edition in editions for p in edition.paragraphs)):
        check_sentence_lengths(paragraph, source)
    return Entry(
        name=parts.name,
        heading=heading,
        game=game,
        source=source,
        line=line,
        category=category,
        parameters=parts.parameters,
        slots=parts.slots,
        paragraphs=rule,
        tags=tuple(tags) + parts.kinds,
        notes=extra_notes + notes,
        editions=editions,
    )


def check_sentence_lengths(paragraph: Paragraph, source: str) -> None:
    """Refuse a sentence longer than :data:`MAX_SENTENCE_CHARACTERS`, at the line it starts on."""
    if len(paragraph.text) <= MAX_SENTENCE_CHARACTERS:
        return
    for offset, sentence in split_sentences(paragraph.text):
        if len(sentence) > MAX_SENTENCE_CHARACTERS:
            raise RulegraphError(
                f"a sentence of {len(sentence):,} characters without a full stop (the limit is "
                f"{MAX_SENTENCE_CHARACTERS:,}); end its sentences with '.', or split the text",
                path=source, line=paragraph.line_at(offset))
