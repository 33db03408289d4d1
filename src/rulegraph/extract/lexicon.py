"""The names of one game, matched in its texts whatever the case, accents, apostrophes,
elisions, plural or feminine forms, hyphens, and a one-letter typo in a long name.

Matching works on token keys (:func:`rulegraph.text.stem`), longest match first, so
"Frappe rapide" wins over "Rapide" and "Réception de charge" over the action "charge".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict, cast

from ..lang import words as lang_words
from ..text import Token, closest, edit_distance_at_most_one, fold, french_dictionary, tokenize
from ..tomlfile import load_toml

TERM_KINDS = ("ability", "characteristic", "action", "state", "concept", "equipment", "rule", "term", "category")
_FUZZY_MIN_LENGTH = 8
#: Up to this many names of one size are scanned; beyond, the deletion index is faster.
_SCAN_AT_MOST = 24
_KEYWORD_SLOT = re.compile(r"\([^()]*\)")  # no "(" inside: linear on "((((…"
_PARAMETER = re.compile(r"[XYD]|\d+|[XYD]/[XYD]|XX", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class LexiconEntry:
    """A name the lexicon knows, with its kind (ability, state…) and its folded keys; the graph's
    own named nodes are :class:`rulegraph.catalogue.Term`."""

    kind: str
    label: str
    keys: tuple[str, ...]
    ambiguous: bool = False
    #: Spelled by a word derived from the name ("fanatique" for Fanatisme), not by the name.
    derived: bool = False


@dataclass(frozen=True, slots=True)
class Mention:
    term: LexiconEntry
    start: int
    end: int
    first_token: int
    last_token: int
    surface: str
    fuzzy: bool = False
    #: Other terms with the same name (the characteristic "PdV" beside the ability "PDV").
    alternatives: tuple[LexiconEntry, ...] = ()


#: A lone elidable word before another word, its apostrophe left out: "d opportunite".
_BARE_ELISION = re.compile(lang_words("lexicon")["bare_elision"])


@dataclass(slots=True)
class Lexicon:
    """All terms of one game; abilities first so that they win ties over other kinds."""

    game: str
    terms: list[LexiconEntry] = field(default_factory=list)
    #: Folded names of the game's weapon abilities (a weapon acts on its target).
    weapons: frozenset[str] = frozenset()
    _index: dict[str, list[LexiconEntry]] = field(default_factory=dict)
    #: Names a one-typo match may find, by (tokens, joined length ± 1), in the order added.
    _fuzzy: dict[tuple[int, int], list[LexiconEntry]] = field(default_factory=dict)
    #: The same names by (tokens, the joined keys or the joined keys less one letter), with the
    #: order added: two names one edit apart share an entry (a deletion index), so a large
    #: lexicon is not scanned name by name.
    _deletions: dict[tuple[int, str], list[tuple[int, LexiconEntry]]] = field(default_factory=dict)
    _added: int = 0
    _longest: int = 1
    #: What :meth:`_match_at` found for each window of keys already seen: glossaries repeat
    #: their phrasing, and a catalogue of many games repeats whole texts.
    _matched: dict[tuple[str, ...], tuple[LexiconEntry, int, bool] | None] = field(default_factory=dict)

    def add(self, kind: str, label: str, *, ambiguous: bool = False, variants: tuple[str, ...] = (),
            label_matches: bool = True, derived: bool = False) -> None:
        """``label_matches=False``: only the variants name the term in a text (a category is
        named "sort de Pyromancie", never "Pyromancie" alone)."""
        for spelling in (label, *variants) if label_matches else variants:
            keys = tuple(t.key for t in tokenize(spelling))
            if not keys:
                continue
            term = LexiconEntry(kind, label, keys, ambiguous, derived)
            self._matched.clear()
            self.terms.append(term)
            self._index.setdefault(keys[0], []).append(term)
            self._longest = max(self._longest, len(keys))
            joined = "".join(keys)
            if len(joined) >= _FUZZY_MIN_LENGTH:
                self._added += 1
                for length in (len(joined) - 1, len(joined), len(joined) + 1):
                    self._fuzzy.setdefault((len(keys), length), []).append(term)
                for variant in _with_one_deletion(joined):
                    self._deletions.setdefault((len(keys), variant), []).append((self._added, term))

    def labels(self, kind: str) -> list[str]:
        return sorted({t.label for t in self.terms if t.kind == kind})

    def lookup(self, name: str) -> LexiconEntry | None:
        """The term a user-typed name means, matched as the extractor matches texts (case,
        accents, apostrophes, elisions, plural, hyphens, markup, one typo in a long name);
        parameters (``X``, ``/X``, ``3``) and a keyword in parentheses (``Résistance (feu)``) are
        ignored. None when nothing fits."""
        # Typed on a keyboard without an apostrophe: "attaque d opportunite".
        name = _BARE_ELISION.sub(r"\1'", name)
        tokens = [t for t in tokenize(_KEYWORD_SLOT.sub(" ", name)) if not _PARAMETER.fullmatch(t.surface)]
        if not tokens:
            return None
        keys = [t.key for t in tokens]
        for position in range(len(keys)):
            if keys[position].endswith("'") and position + 1 < len(keys):
                continue
            match = self._match_at(keys, position)
            if match is not None and position + match[1] == len(keys):
                return match[0]
            return None
        return None

    def closest(self, name: str, *, kind: str | None = None, limit: int = 3) -> list[str]:
        """Labels that look like ``name``, best first: hints for a name that was not found."""
        labels = sorted({t.label for t in self.terms if kind is None or t.kind == kind})
        return closest(name, labels, limit=limit)

    def find(self, text: str, tokens: list[Token] | None = None) -> list[Mention]:
        """Non-overlapping mentions, longest first, left to right."""
        tokens = tokens if tokens is not None else tokenize(text)
        keys = [t.key for t in tokens]
        mentions: list[Mention] = []
        position = 0
        while position < len(tokens):
            match = self._match_at(keys, position)
            if match is None:
                position += 1
                continue
            term, length, fuzzy = match
            first, last = tokens[position], tokens[position + length - 1]
            alternatives = () if fuzzy else self._alternatives(keys[position : position + length], term)
            mentions.append(Mention(term, first.start, last.end, position, position + length - 1, text[first.start : last.end], fuzzy, alternatives))
            position += length
        return mentions

    def _alternatives(self, keys: list[str], chosen: LexiconEntry) -> tuple[LexiconEntry, ...]:
        found: dict[tuple[str, str], LexiconEntry] = {}
        for term in self._index.get(keys[0], ()):
            if term.keys == tuple(keys) and term.label != chosen.label and term.kind != chosen.kind:
                found.setdefault((term.kind, term.label), term)
        return tuple(sorted(found.values(), key=_rank))

    def _match_at(self, keys: list[str], position: int) -> tuple[LexiconEntry, int, bool] | None:
        window = tuple(keys[position : position + self._longest])
        if window not in self._matched:
            self._matched[window] = self._match_window(window)
        return self._matched[window]

    def _match_window(self, keys: tuple[str, ...]) -> tuple[LexiconEntry, int, bool] | None:
        best: tuple[LexiconEntry, int, bool] | None = None
        for term in self._index.get(keys[0], ()):
            length = len(term.keys)
            if keys[:length] == term.keys:
                if best is None or length > best[1] or (length == best[1] and _rank(term) < _rank(best[0])):
                    best = (term, length, False)
        if best is not None and best[1] > 1:
            return best
        for length in range(self._longest, 0, -1):
            window = keys[:length]
            if len(window) < length or (best is not None and length <= best[1]):
                continue
            joined = "".join(window)
            if len(joined) < _FUZZY_MIN_LENGTH or window[0].endswith("'"):
                continue
            bucket = self._fuzzy.get((length, len(joined)), ())
            if len(bucket) > _SCAN_AT_MOST:
                found = self._one_typo(length, joined, window[0][0])
                if found is not None:
                    return (found, length, True)
                continue
            for term in bucket:
                if term.keys[0][0] == window[0][0] and edit_distance_at_most_one(joined, "".join(term.keys)):
                    return (term, length, True)
        return best

    def _one_typo(self, length: int, joined: str, initial: str) -> LexiconEntry | None:
        """What scanning the bucket would find first, through the deletion index: the first name
        added (of ``length`` tokens, same initial) within one edit of ``joined``."""
        candidates: dict[int, LexiconEntry] = {}
        for variant in _with_one_deletion(joined):
            for order, term in self._deletions.get((length, variant), ()):
                candidates.setdefault(order, term)
        for order in sorted(candidates):
            term = candidates[order]
            if term.keys[0][0] == initial and edit_distance_at_most_one(joined, "".join(term.keys)):
                return term
        return None


def _with_one_deletion(text: str) -> set[str]:
    """The text and every text one letter shorter: two strings one edit apart share one."""
    return {text, *(text[:i] + text[i + 1:] for i in range(len(text)))}


def _rank(term: LexiconEntry) -> int:
    return TERM_KINDS.index(term.kind)


#: What a game's lexicon file may hold, and the kind of each value.
VOCABULARY_SCHEMA = {
    "characteristics": "texts", "actions": "texts", "states": "texts", "concepts": "texts",
    "ambiguous": "texts", "unambiguous": "texts", "aliases": "aliases",
}


class Vocabulary(TypedDict, total=False):
    """A game's lexicon file, as :func:`load_vocabulary` reads it."""

    characteristics: list[str]
    actions: list[str]
    states: list[str]
    concepts: list[str]
    ambiguous: list[str]
    unambiguous: list[str]
    aliases: dict[str, list[str]]


def load_vocabulary(path: Path | None) -> Vocabulary:
    """A game's lexicon file (TOML): characteristics, actions, states, concepts, ambiguous,
    unambiguous, aliases; an unknown key or a value of the wrong kind is an error at its line."""
    if path is None:
        return {}
    vocabulary = load_toml(path)
    vocabulary.check(vocabulary.data, VOCABULARY_SCHEMA)
    return cast(Vocabulary, vocabulary.data)


def vocabulary_section(vocabulary: Vocabulary, key: str) -> list[str]:
    """The names a lexicon file lists under one of its word-list keys (states, actions…)."""
    return cast(list[str], vocabulary.get(key, []))


def build_lexicon(game: str, ability_names: list[str], vocabulary: Vocabulary,
                  is_common_word: Callable[[str], bool] | None = None) -> Lexicon:
    """The game's terms. An ability name is ambiguous when the game's lexicon file lists it under
    ``ambiguous`` or when ``is_common_word`` says it is an ordinary French word; the lexicon
    file's ``unambiguous`` list overrides the latter."""
    lexicon = Lexicon(game)
    ambiguous = {fold(w) for w in vocabulary.get("ambiguous", [])}
    unambiguous = {fold(w) for w in vocabulary.get("unambiguous", [])}
    aliases = {fold(k): tuple(v) for k, v in (vocabulary.get("aliases") or {}).items()}
    common = is_common_word or (lambda word: False)
    for name in ability_names:
        key = fold(name)
        flagged = key in ambiguous or (key not in unambiguous and " " not in key and common(name))
        lexicon.add("ability", name, ambiguous=flagged, variants=aliases.get(key, ()) + feminine_forms(name))
    for kind, key in (("characteristic", "characteristics"), ("action", "actions"), ("state", "states"), ("concept", "concepts")):
        for label in vocabulary_section(vocabulary, key):
            lexicon.add(kind, label, variants=aliases.get(fold(label), ()))
    return lexicon


def add_derived_forms(lexicon: Lexicon, ability_names: list[str]) -> None:
    """Add what :func:`derived_forms` derives from each one-word name, unless it spells a term
    the lexicon knows already (a state "Retranché" beside the ability Retranchement stays the
    state). Added last, once the game's states and discovered terms are in."""
    taken = {term.keys for term in lexicon.terms}
    for name in ability_names:
        derived = tuple(form for form in derived_forms(name) if tuple(t.key for t in tokenize(form)) not in taken)
        if derived:
            lexicon.add("ability", name, variants=derived, label_matches=False, derived=True)


_DERIVATION = lang_words("derivation")


def derived_forms(name: str) -> tuple[str, ...]:
    """The adjectives derived from a one-word name, as sentences use them ("fanatique" for
    Fanatisme, "frénétique" for Frénésie): lang/fr/words.toml [derivation]."""
    key = fold(name)
    if " " in key or "-" in key or len(key) < _DERIVATION["min_length"]:
        return ()
    for ending, replacements in _DERIVATION["rules"]:
        if key.endswith(ending):
            return tuple(key[: -len(ending)] + replacement for replacement in replacements)
    return ()


def feminine_forms(name: str) -> tuple[str, ...]:
    """"Possédée", "Affamées" for the ability Possédé or Affamé: the stemmer folds é to e and
    drops a final e as a feminine ending, so "possédé" and "possédée" part ways; a name ending
    in é gets its feminine written out (plurals are the stemmer's)."""
    return (name + "e",) if name[-1:] in ("é", "É") else ()


def french_word_frequency(word: str) -> int:
    """How common a word is in French (pyspellchecker's offline list); 0 when unknown.
    The list is loaded once, on first use (about a tenth of a second)."""
    frequencies = french_dictionary().word_frequency
    lowered = word.lower()
    return int(max(frequencies[lowered], frequencies[fold(word)]))
