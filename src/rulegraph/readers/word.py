"""Word document (.docx), read with python-docx.

Heading styles (``Heading N``, ``Titre N``, ``Title``) give the level; bold runs that open a
paragraph are its lead, a candidate name; other bold or italic runs are kept as marked phrases,
as the Markdown reader keeps ``_Nom_``. ``rg:line`` is the paragraph's number in the document
body (empty paragraphs counted), so "paragraph 12" is where Word's navigation shows it.
"""

from __future__ import annotations

import io
import re
from typing import Any

from ..errors import RulegraphError
from ..i18n import _
from ..model import Document
from .layout import Block, emphasis, parse_blocks

BINARY = True
_HEADING_STYLE = re.compile(r"^(?:heading|titre|überschrift|titolo|encabezado)\s*(\d)$", re.IGNORECASE)
_TITLE_STYLES = {"title", "titre"}
#: The signature of an OLE compound file: an old .doc, or a .docx protected by a password.
_OLE_SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


def _level(paragraph) -> int | None:
    name = (paragraph.style.name if paragraph.style is not None else "") or ""
    match = _HEADING_STYLE.match(name.strip())
    if match:
        return int(match.group(1)) + 1
    return 1 if name.strip().casefold() in _TITLE_STYLES else None


class _CharacterStyles:
    """Bold and italic of each character style, by style id, read once: asking each run for its
    style object makes python-docx search the styles part every time."""

    def __init__(self, document):
        from docx.enum.style import WD_STYLE_TYPE

        self.fonts = {style.style_id: (bool(style.font.bold), bool(style.font.italic))
                      for style in document.styles if style.type == WD_STYLE_TYPE.CHARACTER}

    def of(self, run) -> tuple[bool, bool]:
        bold, italic = self.fonts.get(run.element.style, (False, False))
        return bool(run.bold if run.bold is not None else bold), bool(run.italic if run.italic is not None else italic)


def _styled(paragraph, styles: _CharacterStyles) -> tuple[str, tuple[str, ...]]:
    """The bold text opening the paragraph, and the other emphasised phrases."""
    return emphasis((run.text, *styles.of(run)) for run in paragraph.runs)


def blocks(data: bytes, source: str) -> list[Block]:
    if data.startswith(_OLE_SIGNATURE):
        raise RulegraphError(_('is an old .doc or a password-protected document; save it from Word or LibreOffice as .docx without a password'), path=source, line=1)
    import docx

    try:
        document = docx.Document(io.BytesIO(data))
    except Exception:  # zipfile, python-docx and lxml raise several types for a damaged package
        raise RulegraphError(_('is not a readable Word document (damaged, or not a .docx); open it in Word or LibreOffice and save it again as .docx'), path=source, line=1) from None
    styles = _CharacterStyles(document)
    found = []
    for number, paragraph in enumerate(document.paragraphs, start=1):
        text = " ".join(paragraph.text.split())
        if not text:
            continue
        level = _level(paragraph)
        lead, marked = _styled(paragraph, styles) if level is None else ("", ())
        found.append(Block(text, number, level, " ".join(lead.split()), marked))
    return found


def parse(data: bytes, *, source: str, game: str, options: dict[str, Any]) -> Document:
    return parse_blocks(blocks(data, source), source=source, game=game, options=options, kind="Word document")
