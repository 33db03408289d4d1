"""LibreOffice / OpenDocument text (.odt), read with odfpy.

``text:h`` headings give the level (their outline level); spans whose style is bold or italic
(automatic styles, named styles and their parents) give the bold lead and the marked phrases,
as in the Word reader. ``rg:line`` is the paragraph's number, headings and empty paragraphs
counted, in document order (lists, sections and tables included).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

from ..errors import RulegraphError
from ..i18n import _
from ..model import Document
from .layout import Block, emphasis, parse_blocks

BINARY = True
_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
_FO = "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
_SKIPPED = {"note", "tracked-changes", "bookmark", "bookmark-start", "bookmark-end", "soft-page-break", "sequence-decls"}


class _Styles:
    """Bold and italic of every named and automatic style, following parent styles."""

    def __init__(self, document: Any) -> None:  # an odfpy OpenDocument (odfpy has no types)
        self.raw: dict[str, tuple[bool | None, bool | None, str | None]] = {}
        for container in (document.styles, document.automaticstyles):
            for element in container.childNodes:
                if element.qname != (_STYLE, "style"):
                    continue
                bold = italic = None
                for child in element.childNodes:
                    if child.qname == (_STYLE, "text-properties"):
                        weight, posture = child.getAttrNS(_FO, "font-weight"), child.getAttrNS(_FO, "font-style")
                        bold = None if weight is None else weight in ("bold", "600", "700", "800", "900")
                        italic = None if posture is None else posture in ("italic", "oblique")
                self.raw[element.getAttrNS(_STYLE, "name")] = (bold, italic, element.getAttrNS(_STYLE, "parent-style-name"))

    def look(self, name: str | None, bold: bool, italic: bool) -> tuple[bool, bool]:
        seen = set()
        found_bold = found_italic = None
        while name and name in self.raw and name not in seen:
            seen.add(name)
            own_bold, own_italic, name = self.raw[name]
            found_bold = own_bold if found_bold is None else found_bold
            found_italic = own_italic if found_italic is None else found_italic
        return (bold if found_bold is None else found_bold), (italic if found_italic is None else found_italic)


def _runs(node, styles: _Styles, bold: bool, italic: bool) -> Iterator[tuple[str, bool, bool]]:
    for child in node.childNodes:
        if child.nodeType == child.TEXT_NODE:
            yield child.data, bold, italic
            continue
        namespace, name = child.qname
        if namespace != _TEXT or name in _SKIPPED:
            continue
        if name == "s":
            yield " " * int(child.getAttrNS(_TEXT, "c") or 1), bold, italic
        elif name in ("tab", "line-break"):
            yield " ", bold, italic
        else:
            yield from _runs(child, styles, *styles.look(child.getAttrNS(_TEXT, "style-name"), bold, italic))


def _paragraphs(node) -> Iterator:
    for child in node.childNodes:
        if child.nodeType != child.ELEMENT_NODE:
            continue
        if child.qname in ((_TEXT, "p"), (_TEXT, "h")):
            yield child
        elif child.qname[1] not in _SKIPPED:
            yield from _paragraphs(child)


def _block(element, number: int, styles: _Styles) -> Block | None:
    heading = element.qname == (_TEXT, "h")
    bold, italic = styles.look(element.getAttrNS(_TEXT, "style-name"), False, False)
    runs = list(_runs(element, styles, bold, italic))
    text = " ".join("".join(r[0] for r in runs).split())
    if not text:
        return None
    if heading:
        return Block(text, number, int(element.getAttrNS(_TEXT, "outline-level") or 1))
    lead, marked = emphasis(runs)
    return Block(text, number, None, lead, marked)


def blocks(data: bytes, source: str) -> list[Block]:
    from odf.opendocument import load

    try:
        document = load(io.BytesIO(data))
        styles = _Styles(document)
        elements = list(_paragraphs(document.text))
    except Exception:  # odfpy raises zipfile, KeyError, SAX and XML errors on a damaged file
        raise RulegraphError(_('is not a readable OpenDocument text: damaged, or protected by a password; save it again from LibreOffice as .odt without a password'),
                             path=source, line=1) from None
    return [b for number, element in enumerate(elements, start=1) if (b := _block(element, number, styles))]


def parse(data: bytes, *, source: str, game: str, options: dict[str, Any]) -> Document:
    return parse_blocks(blocks(data, source), source=source, game=game, options=options, kind="OpenDocument text")
