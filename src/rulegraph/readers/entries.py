"""What every reader does once it has a heading and paragraphs: split the heading into name,
parameters and slots, and the designer notes out of the rule text."""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import RulegraphError
from ..model import EditionText, Entry, Note, Paragraph
from ..names import parse_heading
from ..notes import split_note


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
