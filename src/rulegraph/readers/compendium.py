"""One ability across editions (Confrontation): its heading, then per edition a name line and
that edition's text, or ``–`` when the edition does not have the ability.

The manifest names the editions; an edition named there and missing from the file is an error,
so a typo in the manifest cannot silently drop a text.
"""

from __future__ import annotations

from typing import Any

from ..errors import RulegraphError
from ..i18n import _
from ..model import Document, EditionText, Note, Paragraph
from ..names import parse_heading
from ..text import editor_lines, fold
from .entries import make_entry, split_notes

ABSENT_MARKS = {"–", "-", "—", "−", "n/a", "absent", "aucun", "aucune"}


def parse(text: str, *, source: str, game: str, options: dict[str, Any]) -> Document:
    editions = options.get("editions") or []
    if not editions:
        raise RulegraphError(_("a compendium needs 'editions = [...]' in its manifest entry"), path=source, line=1)
    by_key = {fold(name): name for name in editions}
    lines = editor_lines(text)
    heading_line = next((n for n, line in enumerate(lines, 1) if line.strip()), None)
    if heading_line is None:
        raise RulegraphError(_('the file is empty'), path=source, line=1)
    name_key = fold(parse_heading(lines[heading_line - 1]).name)
    blocks: dict[str, tuple[int, list[Paragraph]]] = {}
    current: str | None = None
    for number, raw in enumerate(lines[heading_line:], start=heading_line + 1):
        line = raw.strip()
        if not line:
            continue
        if fold(line) in by_key:
            current = by_key[fold(line)]
            if current in blocks:
                raise RulegraphError(_('edition {current!r} appears twice').format(current=current), path=source, line=number)
            blocks[current] = (number, [])
        elif current is None:
            raise RulegraphError(
                _('text before the first edition name; expected one of: {editions}').format(editions=', '.join(editions)),
                path=source,
                line=number,
            )
        elif line not in ABSENT_MARKS:
            blocks[current][1].append(Paragraph(_without_heading(line, name_key), number))
    missing = [name for name in editions if name not in blocks]
    if missing:
        raise RulegraphError(
            _("edition(s) {missing} named in the manifest do not appear in this file; fix the manifest's editions list or the file").format(missing=', '.join(missing)),
            path=source,
            line=heading_line,
        )
    edition_texts: list[EditionText] = []
    notes: tuple[Note, ...] = ()
    for name in editions:
        first_line, paragraphs = blocks[name]
        kept, edition_notes = split_notes(paragraphs)
        notes += edition_notes
        edition_texts.append(EditionText(name, first_line, kept))
    lineage = options.get("lineage") or editions
    newest = next(
        (e for name in reversed(lineage) for e in edition_texts if e.edition == name and e.present),
        None,
    )
    entry = make_entry(
        lines[heading_line - 1].strip(), newest.paragraphs if newest else (), game=game, source=source,
        line=heading_line, category=options.get("default_category", "character"),
        editions=tuple(edition_texts), extra_notes=notes,
    )
    return Document(source=source, game=game, entries=[entry])


def _without_heading(line: str, name_key: str) -> str:
    """An edition text may repeat the heading ("Toxique/X (passive) : De nombreuses…")."""
    head, colon, rest = line.partition(":")
    if colon and rest.strip() and fold(parse_heading(head).name) == name_key:
        return rest.strip()
    return line
