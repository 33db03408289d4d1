"""JSON glossary (app data): a list of objects, or an object holding the list under a key.

The manifest names the fields (``name_field``, ``text_field``, optional ``category_field`` and
``entries_key``). JSON has no line numbers, so each entry's line is found by locating its name
field in the raw text.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..errors import RulegraphError
from ..model import CATEGORIES, CHARACTER, Document, Paragraph
from .entries import make_entry
from .markdown import strip_markup


def _entry_lines(text: str, name_field: str, count: int) -> list[int]:
    pattern = re.compile(rf'"{re.escape(name_field)}"\s*:')
    starts = [m.start() for m in pattern.finditer(text)][:count]
    lines = [text.count("\n", 0, start) + 1 for start in starts]
    return lines + [1] * (count - len(lines))


def parse(text: str, *, source: str, game: str, options: dict[str, Any]) -> Document:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RulegraphError(f"invalid JSON: {error.msg}", path=source, line=error.lineno) from None
    key = options.get("entries_key")
    if key:
        if not isinstance(data, dict) or key not in data:
            raise RulegraphError(f"no key {key!r} at the top level; fix entries_key in the manifest", path=source, line=1)
        data = data[key]
    if not isinstance(data, list):
        raise RulegraphError("expected a list of abilities (or set entries_key in the manifest)", path=source, line=1)
    name_field = options.get("name_field", "name")
    text_field = options.get("text_field", "text")
    category_field = options.get("category_field")
    default_category = options.get("default_category", CHARACTER)
    lines = _entry_lines(text, name_field, len(data))
    document = Document(source=source, game=game)
    for item, line in zip(data, lines):
        if not isinstance(item, dict) or not isinstance(item.get(name_field), str):
            raise RulegraphError(f"entry without a string field {name_field!r}; fix name_field in the manifest", path=source, line=line)
        body = item.get(text_field, "")
        if isinstance(body, list):
            body = "\n".join(map(str, body))
        if not isinstance(body, str):
            raise RulegraphError(f"field {text_field!r} must be text", path=source, line=line)
        category = item.get(category_field, default_category) if category_field else default_category
        if category not in CATEGORIES:
            raise RulegraphError(f"category {category!r} must be one of {', '.join(CATEGORIES)}", path=source, line=line)
        paragraphs = []
        for chunk in filter(None, (c.strip() for c in body.split("\n"))):
            clean, marked = strip_markup(chunk)
            paragraphs.append(Paragraph(clean, line, None, marked))
        tags = item.get("tags", [])
        document.entries.append(
            make_entry(
                item[name_field], paragraphs, game=game, source=source, line=line, category=category,
                tags=tags if isinstance(tags, list) else [tags],
            )
        )
    return document
