"""JSON glossary (app data), in the shapes apps write it: a list of records, a list under a key
(``{"skills": […]}``), or an object of categories (``{"combat": […], "tir": […]}``), where each
key becomes the entries' glossary category; records may also sit under their names
(``{"tir": {"Tir rapide": {"texte": …}}}``).

Field names are detected among the usual ones (``nom``/``name``/``titre``…, ``texte``/``text``/
``description``/``effet``…) unless the manifest or the command line names them (``name_field``,
``text_field``, ``category_field``, ``entries_key``). Other fields are kept as attributes.

JSON has no line numbers, so the file is parsed with the standard library's own pure-Python
scanner, whose object and array hooks record where each value starts: every entry gets its own
line however many sources read the file. The same hooks refuse nesting deeper than
:data:`MAX_DEPTH` (Python would overflow its stack) at the line where it happens.
"""

from __future__ import annotations

import json
import json.decoder
import json.scanner
import re
from bisect import bisect_right
from collections.abc import Callable
from typing import Any

from ..errors import RulegraphError
from ..i18n import _
from ..model import CHARACTER, Document, Note, Paragraph
from ..text import fold
from .entries import category_class, column_notes, make_entry
from .fields import (
    CATEGORY_FIELDS,
    ID_FIELDS,
    NAME_FIELDS,
    NOTE_FIELDS,
    TAG_FIELDS,
    TEXT_FIELDS,
    WRAPPED_TEXT_FIELDS,
    find,
    find_notes,
    is_more_text,
    matches,
    relation_of,
)
from .fields import key as field_key
from .markdown import strip_markup

#: Keys that hold the list of entries without being a category of them.
CONTAINER_KEYS = {
    "abilities", "skills", "capacites", "competences", "entries", "items", "data", "regles", "rules",
    "traits", "talents", "glossary", "glossaire", "list", "liste", "records", "results",
}
MAX_DEPTH = 64


class _Object(dict[str, Any]):
    """A JSON object with where it starts and ends in the text; ``translations`` holds, for a
    field read in one language of ``{"en": …, "fr": …}``, that object and the language's key."""

    __slots__ = ("start", "end", "translations")
    start: int
    end: int
    translations: dict[str, tuple[Any, str]]


class _Array(list[Any]):
    __slots__ = ("start", "end")
    start: int
    end: int


#: An object's opening brace up to its first string value ('{\n "value": "').
_WRAPPED_STRING = re.compile(r'\{\s*"[^"\\]*"\s*:\s*(?=")')


class _Locator:
    """Line numbers of offsets in one text."""

    def __init__(self, text: str):
        self.text = text
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line(self, offset: int) -> int:
        return bisect_right(self.starts, offset)

    def field_line(self, item: Any, key: str) -> int | None:
        """The line of ``"key":`` inside a located object."""
        if not isinstance(item, _Object):
            return None
        if key in getattr(item, "translations", {}):
            item, key = item.translations[key]
            if not isinstance(item, _Object):
                return None
        match = re.compile(rf'"{re.escape(key)}"\s*:\s*').search(self.text, item.start, item.end)
        if match is None:
            return self.line(item.start)
        # A text wrapped in an object of its own ("description": {"value": "<p>…"}) is where its
        # string starts.
        wrapped = _WRAPPED_STRING.match(self.text, match.end()) if self.text.startswith("{", match.end()) else None
        return self.line(wrapped.end() if wrapped else match.start())


def load_located(text: str, source: str) -> tuple[Any, _Locator]:
    """Parse JSON keeping each object's and array's span; every failure is one ``file:line`` error."""
    locator = _Locator(text)
    decoder = json.JSONDecoder()
    depth = 0
    scanned = [0]

    def tracked(scan: Callable) -> Callable:
        def scan_at(string: str, index: int):
            scanned[0] = index
            return scan(string, index)
        return scan_at

    def nested(parse: Callable, kind: type, scan_position: int) -> Callable:
        def parse_nested(string_and_end, *args):
            nonlocal depth
            start = string_and_end[1] - 1
            depth += 1
            try:
                if depth > MAX_DEPTH:
                    raise RulegraphError(
                        _('objects and lists nested more than {max_depth} deep; a glossary needs a few levels, check how this file was written').format(max_depth=MAX_DEPTH), path=source, line=locator.line(start))
                args = list(args)
                args[scan_position] = tracked(args[scan_position])
                value, end = parse(string_and_end, *args)
            finally:
                depth -= 1
            located = kind(value)
            located.start, located.end = start, end
            return located, end
        return parse_nested

    # The pure-Python decoder's hooks (json.decoder.JSONObject, json.scanner.py_make_scanner) are
    # documented in its source only, so typeshed does not declare them.
    decoder.parse_object = nested(json.decoder.JSONObject, _Object, 1)  # type: ignore[attr-defined]
    decoder.parse_array = nested(json.decoder.JSONArray, _Array, 0)  # type: ignore[attr-defined]
    decoder.scan_once = tracked(json.scanner.py_make_scanner(decoder))  # type: ignore[attr-defined]
    try:
        return decoder.decode(text), locator
    except json.JSONDecodeError as error:
        raise RulegraphError(_('invalid JSON: {msg}').format(msg=error.msg), path=source, line=error.lineno) from None
    except RecursionError:
        raise RulegraphError(_('nested too deep to read; check how this file was written'),
                             path=source, line=locator.line(scanned[0])) from None
    except ValueError as error:
        reason = str(error).split(";")[0]
        raise RulegraphError(_('a value cannot be read ({reason}); write it as text in quotes or shorten it').format(reason=reason),
                             path=source, line=locator.line(scanned[0])) from None


def _find_key(record: dict, wanted: str | None, candidates: tuple[str, ...], taken: tuple[str | None, ...] = ()) -> str | None:
    """The record's key of one kind; a key already read as another kind (``taken``) is skipped,
    so that "faq / notes" is not read both as more text and as notes."""
    if wanted:
        return {fold(k): k for k in record}.get(fold(wanted))
    return find(record, candidates, [key for key in taken if key is not None])


def _is_entry_list(value: Any, name_field: str | None) -> bool:
    records = [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []
    named = [r for r in records if _find_key(r, name_field, NAME_FIELDS)]
    return bool(records) and len(named) * 2 >= len(records)


def _is_keyed_by_name(value: Any, options: dict[str, Any]) -> bool:
    """``{"Fouisseur": {"texte": …}, …}``: records without a name field, each under its name."""
    if not isinstance(value, dict) or not value or not all(isinstance(v, dict) for v in value.values()):
        return False
    records = list(value.values())
    texts = [r for r in records if _find_key(r, options.get("text_field"), TEXT_FIELDS)]
    return len(texts) * 2 >= len(records) and not any(_find_key(r, options.get("name_field"), NAME_FIELDS) for r in records)


def _entry_lists(data: Any, path: tuple[str, ...], options: dict[str, Any],
                 groups: list[tuple[str, Any]] | None = None) -> list[tuple[str, _Object | _Array]]:
    """Every list of records under ``data`` (or object of records keyed by name), with the
    category its keys give (the nearest key that is not a mere container like ``skills``). A list
    of groups ("factions": [{"nom": "Sauveteurs", "capacites": […]}]) is no list of abilities: each
    group's lists are read, the group's name their category; ``groups`` collects each group's
    name and record, for its description."""
    category = next((k for k in reversed(path) if fold(k) not in CONTAINER_KEYS), "")
    if _is_entry_list(data, options.get("name_field")):
        if not _groups_entry_lists(data, options):
            return [(category, data)]
        found: list[tuple[str, _Object | _Array]] = []
        for record in data:
            record = _in_language(record, options.get("language", "fr"))
            name_key = _find_key(record, options.get("name_field"), NAME_FIELDS) if isinstance(record, dict) else None
            group = str(record[name_key]) if name_key is not None and isinstance(record[name_key], (str, int)) else category
            if groups is not None and isinstance(record, dict):
                groups.append((group, record))
            for key, value in (record.items() if isinstance(record, dict) else ()):
                if key != name_key:
                    found += _entry_lists(value, (*path, group, key), options, groups)
        return found
    if _is_keyed_by_name(data, options):
        return [(category, data)]
    found = []
    if isinstance(data, dict):
        for key, value in data.items():
            found += _entry_lists(value, (*path, key), options, groups)
    return found


def _groups_entry_lists(records: list[Any], options: dict[str, Any]) -> bool:
    """Most records of the list hold a list of named records under a key that names abilities
    ("capacites", "skills"): groups of abilities. A spell whose "niveaux" list names its ranks
    is an ability."""
    holding = [record for record in records if isinstance(record, dict) and any(
        fold(key) in CONTAINER_KEYS and _is_entry_list(value, options.get("name_field")) for key, value in record.items())]
    return len(holding) * 2 > len(records)


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value):
        return ", ".join(map(str, value))
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def parse(text: str, *, source: str, game: str, options: dict[str, Any]) -> Document:
    data, locator = load_located(text, source)
    name_field = options.get("name_field")
    key = options.get("entries_key")
    groups: list[tuple[str, Any]] = []
    if key:
        if not isinstance(data, dict) or key not in data:
            raise RulegraphError(_('no key {key!r} at the top level; fix entries_key in the manifest').format(key=key), path=source, line=1)
        lists = _entry_lists(data[key], (key,), options, groups)
    else:
        lists = _entry_lists(data, (), options, groups)
    if not lists:
        wanted = repr(name_field) if name_field else f"a name ({', '.join(NAME_FIELDS[:5])}…)"
        raise RulegraphError(
            _('no list of abilities found: expected objects with {wanted}, as a list, under a key, or grouped by category; name the fields with --name-field/--text-field (name_field, text_field in a manifest)').format(wanted=wanted), path=source, line=1)
    mapping = {fold(k): v for k, v in (options.get("categories") or {}).items()}
    default_class = options.get("default_category", CHARACTER)
    document = Document(source=source, game=game)
    lists, category_names, document.category_texts = _category_records(lists, locator, options)
    document.category_texts += _group_texts(groups, locator, options)
    document.category_texts += _texts_keyed_by_category(data, {category for category, _records in lists}, locator)
    names_by_id: dict[str, str] = {}
    for list_category, records in lists:
        pairs = records.items() if isinstance(records, _Object) else ((None, item) for item in records)
        for name, item in pairs:
            entry = _entry(_lifted(_in_language(item, options.get("language", "fr"))), list_category, locator, options, mapping, default_class,
                           source=source, game=game, list_line=locator.line(records.start), name=name, category_names=category_names)
            document.entries.append(entry)
            if isinstance(item, dict) and (id_key := find(item, ID_FIELDS)) is not None and isinstance(item[id_key], (str, int)):
                names_by_id[str(item[id_key])] = entry.name
    for entry in document.entries:
        entry.attributes = tuple((key, _named(value, names_by_id) if relation_of(key) else value)
                                 for key, value in entry.attributes)
    return document


def _texts_keyed_by_category(data: Any, categories: set[str], locator: _Locator) -> tuple[tuple[str, Paragraph], ...]:
    """An object of texts keyed by the categories of the lists (``"regles_de_categorie":
    {"Tir": "Un santon Engagé ne peut pas tirer…"}``): each text is its category's own."""
    folded = {fold(category): category for category in categories if category}
    stack, found = [data], []
    while stack:
        value = stack.pop()
        if isinstance(value, _Object):
            texts = {key: text for key, text in value.items() if fold(key) in folded and isinstance(text, str)}
            if len(texts) >= 2 and len(texts) * 2 >= len(value):
                found += [(folded[fold(key)], paragraph) for key, text in texts.items()
                          for paragraph in _paragraphs(text, locator.field_line(value, key) or locator.line(value.start))]
            stack += value.values()
        elif isinstance(value, list):
            stack += value
    return tuple(sorted(found, key=lambda pair: pair[1].line))


def _group_texts(groups: list[tuple[str, Any]], locator: _Locator, options: dict[str, Any]) -> tuple[tuple[str, Paragraph], ...]:
    """The description of each group of abilities (a faction's record), as its category's text."""
    return tuple(text for name, record in groups for text in _record_texts(name, record, locator, options))


def _record_texts(name: str, record: Any, locator: _Locator, options: dict[str, Any]) -> list[tuple[str, Paragraph]]:
    """A category's or group's record (already read in the corpus language) description,
    paragraph by paragraph, with its name."""
    text_key = _find_key(record, options.get("text_field"), TEXT_FIELDS) if isinstance(record, dict) else None
    if text_key is None or not isinstance(record[text_key], str):
        return []
    line = locator.field_line(record, text_key) or locator.line(record.start)
    return [(name, paragraph) for paragraph in _paragraphs(record[text_key], line)]


#: The key of a list of categories ("categories", "groupes"): a category field's name, singular or plural.
_CATEGORY_LIST_KEYS = frozenset(fold(name).rstrip("s") for name in CATEGORY_FIELDS)


def _category_records(lists: list[tuple[str, _Object | _Array]], locator: _Locator, options: dict[str, Any]) -> tuple[
        list[tuple[str, _Object | _Array]], dict[str, str], tuple[tuple[str, Paragraph], ...]]:
    """An app that lists its categories beside its abilities (``"categories": [{"id": "metier",
    "nom": "Métier", "description": …}]``, each ability saying ``"categorie": "metier"``): that
    list holds no abilities. It gives each category's name by its id or name (folded), and its
    description as the category's own text."""
    language = options.get("language", "fr")
    for index, (key, records) in enumerate(lists):
        if not isinstance(records, _Array) or fold(key).rstrip("s") not in _CATEGORY_LIST_KEYS:
            continue
        named: dict[str, tuple[str, Any]] = {}
        for record in records:
            record = _in_language(record, language)
            name_key = _find_key(record, None, NAME_FIELDS) if isinstance(record, dict) else None
            if name_key is None or not isinstance(record[name_key], str):
                continue
            id_key = find(record, ID_FIELDS)
            for label in (record[name_key], record[id_key] if id_key is not None else None):
                if isinstance(label, (str, int)):
                    named[fold(str(label))] = (record[name_key], record)
        others = [item for k, other in lists if k != key for item in (other.values() if isinstance(other, _Object) else other)]
        used = {fold(str(item[category_key])) for item in others if isinstance(item, dict)
                and (category_key := _find_key(item, options.get("category_field"), CATEGORY_FIELDS)) is not None
                and isinstance(item[category_key], (str, int))}
        if not used or not used <= set(named):
            continue
        records_once = {id(record): (name, record) for name, record in named.values()}.values()
        texts = tuple(text for name, record in records_once for text in _record_texts(name, record, locator, options))
        return lists[:index] + lists[index + 1 :], {key: name for key, (name, _record) in named.items()}, texts
    return lists, {}, ()


#: A key that names a language: "fr", "en", "fr-FR", "fr_CA".
_LANGUAGE_KEY = re.compile(r"[a-z]{2}(?:[-_][A-Za-z]{2})?")


def _is_translations(value: Any) -> bool:
    """A value given in several languages (``{"en": "Dodge", "fr": "Esquive"}``), as bilingual
    app files write names and texts; ``{"fr": 4, "ag": 3}`` holds characteristics instead."""
    return isinstance(value, dict) and bool(value) and all(
        _LANGUAGE_KEY.fullmatch(key) and (isinstance(text, str) or isinstance(text, list) and all(isinstance(t, str) for t in text))
        for key, text in value.items())


def _language_key(value: Any, language: str) -> str | None:
    """The key of ``language`` (exact first, then regional: "fr-FR") in a value given in several
    languages; None for any other value, or when that language is missing."""
    if not _is_translations(value):
        return None
    regional = (key for key in value if key.lower().replace("_", "-").split("-")[0] == language.lower())
    return language if language in value else next(regional, None)


def _require_language(item: Any, keys: tuple[str | None, ...], language: str, locator: _Locator, source: str) -> None:
    """A name or text field given in other languages only stops the read with a message that
    names the missing language, instead of a confusing 'must be text'."""
    for key in filter(None, keys):
        value = item[key]
        if _is_translations(value) and _language_key(value, language) is None:
            raise RulegraphError(
                _('field {key!r} has no text in {language!r}, only in {found}; add the {language!r} text, or set language to one of these in the manifest').format(
                    key=key, language=language, found=", ".join(map(repr, value))),
                path=source, line=locator.field_line(item, key) or locator.line(item.start))


def _in_language(item: Any, language: str) -> Any:
    """The record with each multilingual field read in the corpus's language, located at that
    language's line."""
    if not isinstance(item, _Object) or not any(isinstance(v, dict) for v in item.values()):
        return item
    read, translations = _Object(), {}
    for key, value in item.items():
        chosen = _language_key(value, language)
        read[key] = value if chosen is None else value[chosen]
        if chosen is not None:
            translations[key] = (value, chosen)
    read.start, read.end, read.translations = item.start, item.end, translations
    return read


def _lifted(item: Any, depth: int = 0) -> Any:
    """A record whose fields are grouped in nested objects ("regles": {"texte": …,
    "precisions": […]}, a virtual tabletop's "system": {"description": {"value": "<p>…"}}) read
    as if they were its own, however deep (a few levels); a field of the record itself wins over a
    nested one of the same name, and a text wrapped in an object of its own ("description":
    {"value": "<p>…</p>"}) is that text."""
    if not isinstance(item, _Object) or depth > _MAX_LIFT or not any(isinstance(v, dict) for v in item.values()):
        return item
    flat = _Object()
    for key, value in item.items():
        value = _unwrapped(value)
        inner = _lifted(value, depth + 1) if isinstance(value, dict) else value
        if isinstance(inner, dict) and _holds_fields(inner):
            for inner_key, inner_value in inner.items():
                if inner_key not in item and not isinstance(inner_value, dict):
                    flat.setdefault(inner_key, inner_value)
        else:
            flat[key] = value
    flat.start, flat.end, flat.translations = item.start, item.end, getattr(item, "translations", {})
    return flat


#: How deep a record's nested groups of fields are read.
_MAX_LIFT = 3


def _unwrapped(value: Any) -> Any:
    """``{"value": "<p>…</p>", "chat": ""}``: the wrapped text, when one key holds it and the
    others hold nothing; any other value as it is."""
    if not isinstance(value, dict):
        return value
    texts = [k for k in value if field_key(k) in WRAPPED_TEXT_FIELDS and isinstance(value[k], str) and value[k].strip()]
    filled = [k for k, v in value.items() if v not in ("", None, [], {})]
    return value[texts[0]] if len(texts) == 1 and filled == texts else value


def _holds_fields(group: dict) -> bool:
    """A nested object groups the record's fields when one of its keys is a text, notes, tags or
    relations field; another ("portee": {"min": 0, "max": 24}) is a value, kept as it is."""
    kinds = (TEXT_FIELDS, NOTE_FIELDS, TAG_FIELDS, CATEGORY_FIELDS)
    return any(any(matches(key, usual) for usual in kinds) or is_more_text(key) or relation_of(key) for key in group)


def _named(value: str, names_by_id: dict[str, str]) -> str:
    """A relation field that lists other records by id ("cap-002") names them."""
    return ", ".join(names_by_id.get(part.strip(), part.strip()) for part in value.split(","))


def _entry(item: Any, list_category: str, locator: _Locator, options: dict[str, Any], mapping: dict[str, str],
           default_class: str, *, source: str, game: str, list_line: int, name: str | None = None,
           category_names: dict[str, str] | None = None):
    line = locator.line(item.start) if isinstance(item, _Object) else list_line
    if not isinstance(item, dict):
        raise RulegraphError("an item of the list of abilities is not an object; write it as {\"nom\": …, \"texte\": …}",
                             path=source, line=line)
    name_key = None if name is not None else _find_key(item, options.get("name_field"), NAME_FIELDS)
    text_key = _find_key(item, options.get("text_field"), TEXT_FIELDS, (name_key,))
    _require_language(item, (name_key, text_key), options.get("language", "fr"), locator, source)
    if name is None:
        if name_key is None or not isinstance(item[name_key], str) or not item[name_key].strip():
            wanted = options.get("name_field") or "/".join(NAME_FIELDS[:5])
            raise RulegraphError(_('entry without a text field {wanted!r} for its name; add it, or name the field with --name-field (name_field in a manifest)').format(wanted=wanted), path=source, line=line)
        line, name = locator.field_line(item, name_key) or line, item[name_key]
    category_key = _find_key(item, options.get("category_field"), CATEGORY_FIELDS, (name_key, text_key))
    tag_key = _find_key(item, None, TAG_FIELDS, (name_key, text_key, category_key))
    note_key = find_notes(item, [key for key in (name_key, text_key, category_key, tag_key) if key is not None])
    body = item.get(text_key, "") if text_key else ""
    text_line = (locator.field_line(item, text_key) if text_key else None) or line
    if isinstance(body, list):
        body = "\n".join(map(str, body))
    if not isinstance(body, str):
        raise RulegraphError(_('field {text_key!r} must be text').format(text_key=text_key), path=source, line=text_line)
    category = str(item[category_key]) if category_key and item[category_key] else list_category
    category = (category_names or {}).get(fold(category), category)
    paragraphs = _paragraphs(body, text_line)
    more_keys = [key for key in item if is_more_text(key)
                 and key not in (name_key, text_key, category_key, tag_key, note_key) and isinstance(item[key], (str, list))]
    for key in more_keys:
        more = item[key] if isinstance(item[key], str) else "\n".join(map(str, item[key]))
        paragraphs += _paragraphs(more, locator.field_line(item, key) or line)
    tags = item.get(tag_key, []) if tag_key else []
    notes: tuple[Note, ...] = ()
    if note_key is not None and isinstance(item[note_key], (str, list)):
        cells = [item[note_key]] if isinstance(item[note_key], str) else [str(n) for n in item[note_key]]
        note_line = locator.field_line(item, note_key) or line
        lines = [part for cell in cells for part in cell.splitlines() if part.strip()]
        rulings, notes = column_notes([Paragraph(part, note_line) for part in lines], paragraphs)
        paragraphs += rulings
    else:
        note_key = None
    used = {name_key, text_key, category_key, tag_key, note_key, *more_keys}
    attributes = [(k, _as_text(v)) for k, v in item.items() if k not in used and v not in (None, "", [], {})]
    return make_entry(
        name, paragraphs, game=game, source=source, line=line,
        category=category_class(category, mapping, default_class), glossary_category=category,
        tags=[str(t) for t in tags] if isinstance(tags, list) else [str(tags)], attributes=attributes,
        extra_notes=notes,
    )


def _paragraphs(text: str, line: int) -> list[Paragraph]:
    """One paragraph per non-empty line of a text field, its markup stripped and remembered."""
    paragraphs = []
    for chunk in filter(None, (c.strip() for c in text.split("\n"))):
        clean, marked = strip_markup(chunk)
        paragraphs.append(Paragraph(clean.strip(), line, None, marked))
    return paragraphs
