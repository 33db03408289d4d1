"""Plain-text chapter (Hell Dorado): preamble, section headings, ``- Name PARAMS :`` entries.

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
from typing import Any

from ..errors import RulegraphError
from ..i18n import _
from ..model import CHARACTER, Document, Entry, Paragraph
from ..names import looks_like_name
from ..text import editor_lines, fold
from .entries import category_class, make_entry

#: The name starts and ends with a non-space, so the spaces around it are matched one way only
#: (a lazy name followed by ``\s*`` backtracked quadratically on a long run of spaces).
ENTRY_HEADER = re.compile(r"^\s*[-–•]\s+(?P<head>[^:\s](?:[^:]*[^:\s])?)\s*:\s*(?P<after>.*)$")
_TAG_MAX_WORDS = 8
_FINAL_PUNCTUATION = re.compile(r"[.!?;:]\s*$")


def is_tag(text: str) -> bool:
    """A short text without final punctuation: a tag (``Capacité liée au recrutement``), not rules."""
    text = text.strip()
    return 0 < len(text.split()) <= _TAG_MAX_WORDS and not _FINAL_PUNCTUATION.search(text)


def _is_title(lines: list[str], number: int) -> bool:
    """A short first line followed by a blank line is the chapter's title, not rules."""
    return number == 1 and is_tag(lines[0]) and (len(lines) < 2 or not lines[1].strip())


def _is_section(lines: list[str], number: int, previous_blank: bool) -> bool:
    """A short line alone between blank lines, or a title of two words or more in capitals after
    a blank line (``CERCLE DES ESPRITS``), whose next line may describe the section."""
    line = lines[number - 1]
    if not previous_blank or not is_tag(line) or ENTRY_HEADER.match(line):
        return False
    following = lines[number] if number < len(lines) else ""
    return not following.strip() or (line.isupper() and len(re.findall(r"[^\W\d_]{2,}", line)) >= 2)


def parse(text: str, *, source: str, game: str, options: dict[str, Any]) -> Document:
    categories = {fold(k): v for k, v in (options.get("categories") or {}).items()}
    default_class = options.get("default_category", CHARACTER)
    category, section = default_class, ""
    lines = editor_lines(text)
    document = Document(source=source, game=game)
    preamble: list[Paragraph] = []
    current: dict[str, Any] | None = None
    entries: list[dict[str, Any]] = []
    previous_blank = True
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            previous_blank = True
            continue
        if _is_title(lines, number):
            continue
        if fold(line) in categories or _is_section(lines, number, previous_blank):
            section = line
            category = category_class(section, categories, default_class)
            current = None
            previous_blank = True
            continue
        header = ENTRY_HEADER.match(line) if previous_blank else None
        if header and looks_like_name(header.group("head")):
            current = {"head": header.group("head"), "line": number, "category": category, "section": section, "tags": [], "paragraphs": []}
            after = header.group("after").strip()
            if after and is_tag(after):
                current["tags"].append(after)
            elif after:
                current["paragraphs"].append(Paragraph(after, number))
            entries.append(current)
        elif current is None:
            preamble.append(Paragraph(line, number))
        elif not current["paragraphs"] and "next_line_tag" not in current and is_tag(line):
            current["next_line_tag"] = Paragraph(line, number)
            current["tags"].append(line)
        else:
            current["paragraphs"].append(Paragraph(line, number))
        previous_blank = False
    if not entries:
        raise RulegraphError(_("no entry found; entries start with '- Name :' after a blank line"), path=source, line=1)
    for raw_entry in entries:
        document.entries.append(_make_entry(raw_entry, source=source, game=game))
    document.preamble = tuple(preamble)
    return document


def _make_entry(raw: dict[str, Any], *, source: str, game: str) -> Entry:
    if "next_line_tag" in raw and not raw["paragraphs"]:
        raw["tags"].remove(raw["next_line_tag"].text)
        raw["paragraphs"].append(raw["next_line_tag"])
    return make_entry(
        raw["head"], raw["paragraphs"], game=game, source=source, line=raw["line"],
        category=raw["category"], tags=raw["tags"], glossary_category=raw["section"],
    )
