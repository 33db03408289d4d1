"""Markdown glossary (wikis): ``##`` sections set the category, ``###`` headings are entries.

A file with no ``###`` heading uses ``##`` for entries. ``_italic_``, ``*italic*`` and
``**bold**`` are removed from the text and remembered as marked phrases, a hint for the
extractor that they are names. A wiki's link arrow before a name ("ignore → Bousculade") is
typography too, and is removed like a link's brackets.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import RulegraphError
from ..i18n import _
from ..model import CHARACTER, Document, Paragraph
from ..text import editor_lines, fold
from .entries import category_class, make_entry

#: The title runs to the end of the line; its closing ``#`` marks are cut by :func:`_title`, since
#: a regex that also matched them backtracked cubically on a heading with a long run of spaces.
_HEADING = re.compile(r"^(?P<level>#{1,6})\s+(?P<title>\S.*)$")
_EMPHASIS = re.compile(r"\*\*(?P<b>[^*]+?)\*\*|__(?P<u>[^_]+?)__|(?<![\w*])\*(?P<i>[^*\s][^*]*?)\*(?!\w)|(?<!\w)_(?P<e>[^_\s][^_]*?)_(?!\w)")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_CODE = re.compile(r"`([^`]*)`")
#: ``[text](url)``; neither part may hold a bracket of its kind, which keeps the scan linear.
_LINK = re.compile(r"\[([^\[\]]+)\]\([^()]*\)")
#: "→ Vol plané": an arrow that points at a name (not "PA 4 → PA 3", which says "becomes").
_LINK_ARROW = re.compile(r"(?<![\d\s])\s*[→⇒➔➜►▶☞]\s*(?=[«\"(]?[A-ZÀ-Ý])")
_TAG_LINE = re.compile(r"(?:tags?|étiquettes?)\s*:\s*.+", re.IGNORECASE)


def strip_markup(text: str) -> tuple[str, tuple[str, ...]]:
    """``le _Camouflage_ et **Ruse**`` → ``le Camouflage et Ruse`` and the marked phrases."""
    marked: list[str] = []

    def keep(match: re.Match[str]) -> str:
        phrase = next(g for g in match.groups() if g is not None)
        marked.append(phrase)
        return phrase

    clean = _EMPHASIS.sub(keep, text)
    clean = _CODE.sub(r"\1", clean)
    clean = _LINK.sub(r"\1", clean)
    clean = _LINK_ARROW.sub(lambda m: "" if m.start() == 0 or m.string[m.start() - 1] == "(" else " ", clean)
    return clean, tuple(marked)


def _title(match: re.Match[str]) -> str:
    """A heading's text without its closing ``#`` marks (``### Garde ##`` → ``Garde``)."""
    title = match.group("title").rstrip()
    return title.rstrip("#").rstrip() or title


def _paragraphs(lines: list[tuple[int, str]]) -> list[Paragraph]:
    """Blank lines separate paragraphs; each list item is its own paragraph."""
    paragraphs: list[Paragraph] = []
    buffer: list[tuple[int, str]] = []

    def flush() -> None:
        if buffer:
            pieces: list[str] = []
            marked: list[str] = []
            breaks: list[int] = []
            length = 0
            for _, text in buffer:
                clean, emphasised = strip_markup(text)
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
        if not line.strip():
            flush()
        elif _LIST_ITEM.match(line):
            flush()
            buffer.append((number, line.strip()))
        else:
            buffer.append((number, line.strip().lstrip(">").strip()))
    flush()
    return paragraphs


def parse(text: str, *, source: str, game: str, options: dict[str, Any]) -> Document:
    categories = {fold(k): v for k, v in (options.get("categories") or {}).items()}
    default_class = options.get("default_category", CHARACTER)
    category, section = default_class, ""
    lines = editor_lines(text)
    headings = [(n, _HEADING.match(line)) for n, line in enumerate(lines, 1)]
    levels = {len(m.group("level")) for _, m in headings if m}
    entry_level = 3 if 3 in levels else 2
    document = Document(source=source, game=game)
    preamble: list[tuple[int, str]] = []
    current: dict[str, Any] | None = None
    raw_entries: list[dict[str, Any]] = []
    for number, match in headings:
        line = lines[number - 1]
        if match and len(match.group("level")) == entry_level:
            title, _markup = strip_markup(_title(match))
            current = {"head": title, "line": number, "category": category, "section": section, "lines": []}
            raw_entries.append(current)
        elif match and len(match.group("level")) < entry_level:
            title, _markup = strip_markup(_title(match))
            section = title
            category = category_class(title, categories, default_class)
            current = None
        elif current is not None:
            current["lines"].append((number, line))
        else:
            preamble.append((number, line))
    if not raw_entries:
        raise RulegraphError(
            _("no entry found; write each ability as a '### Name' heading (or '##' if there are no sections)"),
            path=source,
            line=1,
        )
    for raw in raw_entries:
        paragraphs = _paragraphs(raw["lines"])
        tags: list[str] = []
        if paragraphs and _TAG_LINE.fullmatch(paragraphs[0].text):
            tags = [t.strip() for t in paragraphs.pop(0).text.split(":", 1)[1].split(",") if t.strip()]
        document.entries.append(
            make_entry(
                raw["head"], paragraphs, game=game, source=source, line=raw["line"],
                category=raw["category"], tags=tags, glossary_category=raw["section"],
            )
        )
    document.preamble = tuple(_paragraphs(preamble))
    return document
