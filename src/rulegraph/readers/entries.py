"""What every reader does once it has a heading and paragraphs: split the heading into name,
parameters and slots, and the designer notes out of the rule text."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cache

from ..errors import RulegraphError
from ..i18n import _
from ..lang import words as lang_words
from ..model import CHARACTER, WEAPON, EditionText, Entry, Note, Paragraph
from ..names import COST_ATTRIBUTE, parse_heading
from ..notes import NOTE_MARK, questioned_sentence, split_note
from ..text import fold, split_sentences
from . import fields

#: Words that make a category hold weapon abilities when the manifest does not map it.
_WEAPON_WORDS = {"arme", "armes", "weapon", "weapons"}

#: A page number printed alone on its line: ``4``, ``- 4 -``, ``Page 4/12``.
PAGE_NUMBER = re.compile(r"^[-–—\s]*(?:(?:page|p\.)\s*)?\d{1,4}(?:\s*/\s*\d{1,4})?[-–—\s]*$", re.IGNORECASE)
#: A line that ends on a word cut by a hyphen ("bénéfi-").
HYPHENATED = re.compile(r"[^\W\d_]-$")
#: Second halves that make a real compound, so the hyphen stays: peut-être, dit-il, a-t-on.
_COMPOUND_ENDS = frozenset(lang_words("pdf")["compound_ends"])


@cache
def governing_words() -> frozenset[str]:
    """Words that need what follows them: the extractor's name stop words (articles,
    prepositions, frequent verbs) and words.toml's ``[wrapping] governing_extras``."""
    from ..extract.cues import default_language

    return default_language().name_stop_words | frozenset(lang_words("wrapping")["governing_extras"])


def running_key(text: str) -> str:
    """A running head's key, its page number aside: "LES MOINES — 34" and "… — 35" are one."""
    return fold(re.sub(r"\d+", "#", text))


def join_wrapped(left: str, right: str) -> tuple[str, int]:
    """Two lines of one paragraph, and the offset where the second line starts in the result: a
    word cut by a hyphen is mended, and counts as starting on the first line, so that a check
    reading line by line sees the whole word."""
    if HYPHENATED.search(left) and right[:1].islower():
        first = fold(re.split(r"[\s\-,.;:!?]", right, maxsplit=1)[0])
        joined = left + right if first in _COMPOUND_ENDS else left[:-1] + right
        space = re.search(r"\s|$", joined[len(left) - 1:])
        word_end = (space.start() if space else len(joined) - len(left) + 1) + len(left) - 1
        return joined, min(word_end + 1, len(joined))
    return f"{left} {right}", len(left) + 1


#: The longest sentence read. The longest in the shipped glossaries has 461 characters; the
#: extractor's work grows faster than linearly with a sentence's length, so a run of text with no
#: full stop (a pasted table, a file without punctuation) is refused instead of taking minutes.
MAX_SENTENCE_CHARACTERS = 3000


#: A line of a relation list: names joined by a slash, a plus, a cross, a comma or a dash
#: ("fourrageurs / ordre serré", "Conscrit – Garde"), with no sentence in it.
_PAIR_SEPARATOR = re.compile(r"[/×+↔⇔,]|\s[-–—]\s")
_SENTENCE_PUNCTUATION = re.compile(r"[.:;!?](?!\s*$)")
_MAX_PAIR_WORDS = 12


def is_pair_line(text: str) -> bool:
    """A line that only lists names; a sentence in a section of incompatibilities ("Loyal et
    Balance sont incompatibles, par définition.") is read as commentary instead."""
    return (bool(_PAIR_SEPARATOR.search(text)) and not _SENTENCE_PUNCTUATION.search(text)
            and len(text.split()) <= _MAX_PAIR_WORDS)


#: An entry form without headings (a "Name : text" paragraph, a bold list item) is read when it
#: opens at least this many entries, nearly all with different names: an odd "Exemple : …" line,
#: or "- **Effet** : …" labels repeated under each heading, is no glossary.
MIN_UNMARKED_ENTRIES = 3
_DISTINCT_SHARE = 0.9


def enough_entries(heads: Iterable[str]) -> bool:
    """Whether these would-be entry names are a glossary's: a few, nearly all different."""
    names = list(heads)
    return len(names) >= MIN_UNMARKED_ENTRIES and len({fold(name) for name in names}) >= _DISTINCT_SHARE * len(names)


def relation_list_line(title: str, paragraph: Paragraph) -> tuple[str, Paragraph] | None:
    """(relation, line) when ``paragraph`` is a line of names in a section after the entries whose
    title names a relation ("CAPACITÉS NON CUMULABLES" then "conscrit / vétéran"), else None."""
    relation = fields.list_relation(title)
    return (relation, paragraph) if relation is not None and is_pair_line(paragraph.text) else None


def category_class(label: str, mapping: Mapping[str, str], default: str = CHARACTER) -> str:
    """The class of a glossary category's entries: as the manifest's ``categories`` table maps it
    (keys folded); else a kind of term when the label opens with a word naming one
    ("Caractéristiques des joueurs", "Tableau des Événements (2D6)"; words.toml's
    ``term_sections``); else weapon when the label names weapons ("Capacités des armes"); else
    ``default``."""
    key = fold(label)
    if key in mapping:
        return mapping[key]
    if label and _WEAPON_WORDS & set(key.split()):
        return WEAPON
    if (kind := _term_sections().get(_head_word(key))) is not None and not _names_abilities(key):
        return kind
    return default


@cache
def _term_sections() -> dict[str, str]:
    """Folded opening word of a section title → the kind of term its entries are."""
    return {fold(word): kind for kind, words in lang_words("fields")["term_sections"].items() for word in words}


def _names_abilities(folded_label: str) -> bool:
    """The title speaks of abilities ("Tableau des compétences", "Tableau des règles
    spéciales"): its rows are abilities."""
    return _ability_words().search(folded_label) is not None


@cache
def _ability_words() -> re.Pattern[str]:
    """The ability nouns of the analysis word lists, one- or several-word, as a folded pattern."""
    from ..extract.analysis import ability_noun_alternation

    return re.compile(rf"\b(?:{ability_noun_alternation()})\b")


def _head_word(folded_label: str) -> str:
    """A folded title's first word after its numbering ("1. etats", "14.6 caracteristiques")."""
    words = [word for word in folded_label.split() if not word.rstrip(".)").replace(".", "").isdigit()]
    return words[0].strip(":") if words else ""


def column_notes(paragraphs: Iterable[Paragraph], rule: Iterable[Paragraph]) -> tuple[list[Paragraph], tuple[Note, ...]]:
    """A notes column or field of a table or an app file (``notes``, ``remarques``…), line by
    line: a ruling ("Errata 1.1 : …", "FAQ : …", "Q : … R : …") goes on with the rule; any other
    line is a designer's note, with or without its ``=>``, about the sentence of the rule it
    shares words with."""
    rule_text = " ".join(p.text for p in rule)
    rulings: list[Paragraph] = []
    notes = []
    for paragraph in paragraphs:
        cell = paragraph.text.strip()
        if _RULING.match(fold(cell)):
            rulings.append(paragraph)
            continue
        text = NOTE_MARK.sub("", cell, count=1).strip() if cell.startswith("=>") else cell
        if text:
            notes.append(Note(text, questioned_sentence(rule_text, text), paragraph.line))
    return rulings, tuple(notes)


_RULING = re.compile(lang_words("notes")["ruling_openers"])


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
    glossary_category: str = "",
    attributes: Iterable[tuple[str, str]] = (),
    page: int | None = None,
) -> Entry:
    parts = parse_heading(heading)
    if not parts.name:
        raise RulegraphError(_("an entry has no name; write the ability's name before its text"), path=source, line=line)
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
        glossary_category=glossary_category,
        attributes=_with_cost(tuple(attributes), parts.cost),
        page=page,
    )


_COST_KEY = fold(COST_ATTRIBUTE)


def _with_cost(attributes: tuple[tuple[str, str], ...], cost: str | None) -> tuple[tuple[str, str], ...]:
    """A cost written after the name ("Bretteur [6 pts]") is kept as the entry's cost, unless a
    field of the record already gives one."""
    if cost is None or any(fold(key) == _COST_KEY for key, _value in attributes):
        return attributes
    return (*attributes, (COST_ATTRIBUTE, cost))


def check_sentence_lengths(paragraph: Paragraph, source: str) -> None:
    """Refuse a sentence longer than :data:`MAX_SENTENCE_CHARACTERS`, at the line it starts on."""
    if len(paragraph.text) <= MAX_SENTENCE_CHARACTERS:
        return
    for offset, sentence in split_sentences(paragraph.text):
        if len(sentence) > MAX_SENTENCE_CHARACTERS:
            raise RulegraphError(
                _("a sentence of {count:,} characters without a full stop (the limit is {max_sentence_characters:,}); end its sentences with '.', or split the text").format(count=len(sentence), max_sentence_characters=MAX_SENTENCE_CHARACTERS),
                path=source, line=paragraph.line_at(offset))
