"""spelling: words found neither in a French dictionary nor in the game's own vocabulary.

The dictionary is pyspellchecker's offline French word list (about 140,000 forms, loaded once,
about 0.1 s). The game's vocabulary is every label of its nodes (abilities, states, actions…)
and every word its texts use at least :data:`GAME_WORD_MIN_COUNT` times: a word the author
writes again and again is jargon (toises, lémure), a typo is rare. To keep the report short,
words starting with a capital (proper names: Kanizhar, Mid-Nor), words with digits, abbreviations
in capitals and words of one or two letters are not checked, and each unknown word is reported
once per game with every place it occurs. A word is also accepted when it is a plural or
feminine form of a known word (same :func:`rulegraph.text.stem`, one word a prefix of the other,
so an accent error such as "possédent" for "possèdent" is still caught), and an abbreviation
the dictionary knows with its period ("etc."), and a verb form or agent noun whose infinitive the
dictionary knows (défaussés, ciblez, possèdera, cracheur: the list has few conjugated forms).
"""

from __future__ import annotations

import difflib
from collections import Counter, defaultdict
from dataclasses import dataclass

from rdflib import RDF, RDFS, Graph
from rdflib.term import Node

from ..catalogue import game_of, label_of, line_of, source_of, text_of
from ..i18n import N_, _, ngettext
from ..lang import words as lang_words
from ..namespaces import RG
from ..text import closest, expand_ligatures, french_dictionary, normalize_apostrophes, stem, strip_accents, tokenize
from .finding import CheckId, Finding
from .records import place

SPELLING = CheckId("RG012", "spelling")
#: How the report names a game's preamble, which belongs to no ability.
GENERAL_RULES = N_("general rules")
GAME_WORD_MIN_COUNT = 3
MIN_WORD_LENGTH = 3
#: Places quoted in one finding; the rest are counted.
SHOWN_PLACES = 5
#: A suggestion taken from the game's own words must be this close (difflib ratio).
VOCABULARY_SUGGESTION_CUTOFF = 0.8


@dataclass(frozen=True, slots=True)
class TextPlace:
    """A piece of text to check and where it lives: its ability, file and line."""

    text: str
    owner: str
    game: str
    source: str
    line: int | None


def texts_to_check(graph: Graph) -> list[TextPlace]:
    """Rule texts, designer notes, other editions' texts, conflicting definitions and preambles."""
    places = []

    def add(node: Node, owner: Node) -> None:
        """The node's text line by line where the graph has its lines, else as one piece."""
        pieces = sorted(graph.objects(node, RG.hasLine), key=lambda n: line_of(graph, n) or 0) or [node]
        for piece in pieces:
            text = text_of(graph, piece, RG.text)
            if text:
                places.append(TextPlace(text, label_of(graph, owner), game_of(graph, owner)[1],
                                        source_of(graph, piece), line_of(graph, piece)))

    for game in graph.subjects(RDF.type, RG.Game):
        for rule in graph.objects(game, RG.hasGeneralRule):
            places.append(TextPlace(text_of(graph, rule, RG.text), _(GENERAL_RULES), label_of(graph, game),
                                    source_of(graph, rule), line_of(graph, rule)))
    for rdf_type in (RG.CharacterAbility, RG.WeaponAbility):
        for ability in graph.subjects(RDF.type, rdf_type):
            # The name itself, lower-cased: only a wrong accent shows there ("Dégats spirituels"),
            # since a name's words are the game's vocabulary.
            places.append(TextPlace(label_of(graph, ability).lower(), label_of(graph, ability), game_of(graph, ability)[1],
                                    source_of(graph, ability), line_of(graph, ability)))
            add(ability, ability)
            for prop in (RG.hasNote, RG.hasEditionText, RG.conflictingDefinition):
                for child in graph.objects(ability, prop):
                    add(child, ability)
    return sorted(places, key=lambda p: (p.game, p.source, p.line or 0, p.owner))


def checkable(word: str) -> bool:
    """Lower-case words of three letters or more, without digits or apostrophes."""
    return (len(word) >= MIN_WORD_LENGTH and word[0].islower() and word.isalpha())


def inflection_of(word: str, known: set[str] | frozenset[str]) -> str | None:
    """A known word that is the same word in another number or gender (artefact / artefacts)."""
    key = stem(word)
    for other in known:
        if (other.startswith(word) or word.startswith(other)) and stem(other) == key:
            return other
    return None


#: Endings of French verb forms and agent nouns, with the infinitive ending they come from:
#: défaussés → défausser, ciblez → cibler, possèdera → posséder, cracheur → cracher.
_VERB_ENDINGS = tuple((ending, infinitive) for ending, infinitive in lang_words("spelling")["verb_endings"])
#: Present-tense endings after which a verb in -é…er takes è (posséder → possède): a form that
#: keeps the é ("possédent") is a spelling mistake, not a conjugation.
_GRAVE_ENDINGS = tuple(lang_words("spelling")["grave_endings"])


def verb_form_of(word: str, dictionary) -> str | None:
    """The infinitive a word conjugates, when the dictionary knows that infinitive."""
    for ending, infinitive_ending in _VERB_ENDINGS:
        if not word.endswith(ending) or len(word) - len(ending) < 3:
            continue
        stem_part = word[: -len(ending)]
        vowels = [c for c in stem_part if c in "aeiouyéèêëàâîïôûù"]
        last_vowel = vowels[-1] if vowels else ""
        if ending in _GRAVE_ENDINGS and last_vowel == "é":
            continue
        candidates = [stem_part + infinitive_ending]
        if last_vowel == "è":
            index = stem_part.rindex("è")
            candidates.append(stem_part[:index] + "é" + stem_part[index + 1:] + infinitive_ending)
        for candidate in candidates:
            if candidate in dictionary:
                return candidate
    return None


def game_vocabulary(graph: Graph, places: list[TextPlace]) -> dict[str, set[str]]:
    """Per game: the words of its node labels and its frequent words, lower-cased."""
    vocabulary: dict[str, set[str]] = defaultdict(set)
    for node, label in graph.subject_objects(RDFS.label):
        game = game_of(graph, node)[1]
        if game:
            vocabulary[game].update(t.surface.lower() for t in tokenize(normalize_apostrophes(str(label))))
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for item in places:
        counts[item.game].update(t.surface.lower() for t in tokenize(normalize_apostrophes(item.text)))
    for game, counter in counts.items():
        vocabulary[game].update(w for w, n in counter.items() if n >= GAME_WORD_MIN_COUNT)
    return vocabulary


def check_spelling(graph: Graph) -> list[Finding]:
    dictionary = french_dictionary()
    places = texts_to_check(graph)
    vocabulary = game_vocabulary(graph, places)
    unknown: dict[tuple[str, str], list[TextPlace]] = defaultdict(list)
    accepted: dict[str, set[str]] = defaultdict(set)
    slips: dict[str, bool] = {}  # per word: a game's own words recur in every text of the game
    for item in places:
        text = normalize_apostrophes(item.text)
        for token in tokenize(text):
            word = token.surface
            if not checkable(word):
                continue
            lower = word.lower()
            # "Dégats spirituels": a name's word is vocabulary, but a wrong accent is still one.
            if lower in vocabulary[item.game] and lower not in slips:
                slips[lower] = _accent_slip(lower, dictionary)
            slip = lower in vocabulary[item.game] and slips[lower]
            if not slip and (lower in accepted[item.game] or lower in vocabulary[item.game] or lower in dictionary
                             or expand_ligatures(lower) in dictionary):
                continue
            if not slip and text[token.end: token.end + 1] == "." and f"{lower}." in dictionary:
                continue
            if not slip and (inflection_of(lower, vocabulary[item.game])
                             or inflection_of(lower, dictionary.known(dictionary.edit_distance_1(lower)))
                             or verb_form_of(lower, dictionary)):
                accepted[item.game].add(lower)
                continue
            key = inflection_of(lower, {w for g, w in unknown if g == item.game}) or lower
            if not unknown[(item.game, key)] or unknown[(item.game, key)][-1] != item:
                unknown[(item.game, key)].append(item)
    findings = []
    for (game, word), where in unknown.items():
        suggestion = dictionary.correction(word) or _vocabulary_suggestion(word, vocabulary[game])
        hint = " " + _("Did you mean “{word}”?").format(word=suggestion) if suggestion and suggestion != word else ""
        shown = ", ".join(f"{p.owner} ({place(p.source, p.line)})" for p in where[:SHOWN_PLACES])
        if len(where) > SHOWN_PLACES:
            more = len(where) - SHOWN_PLACES
            shown += ngettext(" and {count} other place", " and {count} other places", more).format(count=more)
        findings.append(SPELLING.finding(
            "warning", where[0].owner, game,
            _("“{word}” is neither in the French dictionary nor in the vocabulary of {game}.{hint} Seen in: {places}.").format(
                word=word, game=game, hint=hint, places=shown),
            where[0].source or None, where[0].line))
    return findings


def _accent_slip(word: str, dictionary) -> bool:
    """A word the dictionary lacks that is a dictionary word but for one accent ("dégats").
    Capitals often go without their accent ("Eclaireur"), and the 1990 reform drops the
    circumflex on i and u ("entrainé"): neither is a slip. The candidates are the dictionary's
    words one edit away, as for the other suggestions, not an index of the whole dictionary."""
    if word in dictionary:
        return False
    bare = strip_accents(word)
    spellings = [s for s in dictionary.known(dictionary.edit_distance_1(word))
                 if len(s) == len(word) and s != word and strip_accents(s) == bare]
    if not spellings:
        return False
    for spelt in spellings:
        differences = [b for a, b in zip(word, spelt) if a != b]
        if word[1:] == spelt[1:] or all(b in "îû" for b in differences):
            return False
    return True


def _vocabulary_suggestion(word: str, vocabulary: set[str]) -> str | None:
    for candidate in closest(word, sorted(vocabulary), limit=1):
        if difflib.SequenceMatcher(None, candidate, word).ratio() >= VOCABULARY_SUGGESTION_CUTOFF:
            return candidate
    return None
