"""What a table's column or an app file's field holds, read off its name: the usual names of
each kind (lang/fr/words.toml, [fields]), and one matcher shared by the CSV, JSON and Markdown
table readers and by the extractor, which reads the fields that name other abilities as edges.
A spreadsheet's header is often compound ("Précisions / interactions", "Coût (pts)"): a name
matches a kind when it is one of the kind's names, or when one of its parts is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..lang import words as lang_words
from ..text import fold

_FIELDS = lang_words("fields")


def key(name: str) -> str:
    """The folded name; an app's ``snake_case`` key reads as words ("mots_cles", "incompatible_avec")."""
    return " ".join(fold(name).replace("_", " ").split())


def _names(kind: str) -> tuple[str, ...]:
    return tuple(key(name) for name in _FIELDS[kind])


NAME_FIELDS = _names("name")
TEXT_FIELDS = _names("text")
#: Fields that go on with the rule: read as more paragraphs of the ability's text, after the text
#: field's.
MORE_TEXT_FIELDS = _names("more_text")
#: Fields that name other abilities, by the relation the extractor reads them as (kept as
#: attributes): prerequisites, incompatibilities, granted abilities, see-also lists.
RELATION_FIELDS: dict[str, tuple[str, ...]] = {relation: _names(relation) for relation in ("requires", "excludes", "grants", "references")}
CATEGORY_FIELDS = _names("category")
#: A record's identifier, by which an app's relation lists may name other records ("cap-002").
ID_FIELDS = _names("id")
TAG_FIELDS = _names("tags")
#: A designer's notes beside the rule: notes, not attributes.
NOTE_FIELDS = _names("notes")
#: The key under which an app wraps a field's text in an object of its own ("value").
WRAPPED_TEXT_FIELDS = _names("wrapped_text")
#: A Markdown table's name column: a name field, or the glossary's noun for its abilities.
TABLE_NAME_FIELDS = NAME_FIELDS + _names("table_name")

#: What separates the parts of a compound header: a slash, an ampersand, a comma, a plus sign,
#: brackets, or a joining word (``header_glue``).
_PARTS = re.compile(r"[/&,;+|()\[\]]|\b(?:" + "|".join(map(re.escape, _FIELDS["header_glue"])) + r")\b")


def parts(name: str) -> list[str]:
    """The folded name, then each of its parts."""
    folded = key(name)
    split = (part.strip() for part in _PARTS.split(folded))
    return [folded, *(part for part in split if part and part != folded)]


def matches(name: str, usual: tuple[str, ...]) -> bool:
    return any(part in usual for part in parts(name))


def relation_of(name: str) -> str | None:
    """The relation a field of other abilities' names stands for ("prérequis": requires), if any."""
    return next((relation for relation, usual in RELATION_FIELDS.items() if matches(name, usual)), None)


#: Words that label a paragraph inside an entry ("Exemple : …", "**Q :**"), folded.
_PARAGRAPH_LABELS = frozenset(key(word) for word in _FIELDS["paragraph_labels"])


def is_label(name: str) -> bool:
    """A paragraph's label ("Exemple", "Précision", "Q"), which opens no entry."""
    return key(name) in _PARAGRAPH_LABELS


#: The words of a section title that makes its lines a relation list, by relation.
_PUNCTUATION = re.compile(r"[^\w\s-]")
_LIST_TITLES = {"excludes": tuple(key(words) for words in _FIELDS["excludes_list_titles"])}


def list_relation(title: str) -> str | None:
    """The relation of a section that lists pairs of abilities ("Capacités non cumulables":
    excludes), if its title names one."""
    folded = " " + key(_PUNCTUATION.sub(" ", title)) + " "
    return next((relation for relation, usual in _LIST_TITLES.items() if any(f" {words} " in folded for words in usual)), None)


def is_more_text(name: str) -> bool:
    """A field that goes on with the rule; a compound one that also names a relation ("Prérequis
    / restrictions") stays that relation's field."""
    return matches(name, MORE_TEXT_FIELDS) and relation_of(name) is None


def find(names: Iterable[str], usual: tuple[str, ...], taken: Iterable[str] = ()) -> str | None:
    """The first name of one of the usual names, else the first with a part that is one; names in
    ``taken`` are skipped (a column already read as another kind)."""
    skipped = set(taken)
    candidates = [n for n in names if n not in skipped]
    exact = {key(n): n for n in reversed(candidates)}
    for wanted in usual:
        if wanted in exact:
            return exact[wanted]
    return next((n for n in candidates if matches(n, usual)), None)


def find_notes(names: Iterable[str], taken: Iterable[str] = ()) -> str | None:
    """The designer's notes field: one of the usual names, else a name that opens with one and
    says whose notes they are ("note_auteur", "Remarques MJ", "notes design")."""
    names, skipped = list(names), set(taken)
    found = find(names, NOTE_FIELDS, skipped)
    if found is not None:
        return found
    return next((n for n in names if n not in skipped and len(words := key(n).split()) in (2, 3) and words[0] in NOTE_FIELDS), None)
