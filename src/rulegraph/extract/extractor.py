"""Rule texts → statements: which abilities, states, actions and characteristics a sentence
names, and how the ability being defined relates to them.

For each sentence: find the mentions (lexicon, longest match); keep an ordinary-word name only
when its context says it is the ability (else fall back to another term of the same name, such
as the action "charge"); find the relation cues; give each mention the cue nearest to it in its
clause, reading the cue's direction (who acts on whom) and scope (the opponent's ability or
one's own, also read in the clause that introduces a list the sentence is an item of); read
the conditions. A mention no cue governs is rg:references. The relation cues and the word lists
behind ambiguity, direction, scope, recipients, conditions and the extent of undefined names live
in ``lang/fr/cues.toml``, the French patterns that find undefined names, lists and list items in
``lang/fr/words.toml`` ([names]); the code holds no French word.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import cache
from typing import cast

from ..corpus import Corpus
from ..lang import words as lang_words
from ..model import WEAPON, Document, Entry, Paragraph, Statement, TermRef
from ..namespaces import INTERACTIONS, TERM_RELATIONS
from ..readers.fields import relation_of
from ..stored import ExtractionCache
from ..text import fold, fold_aligned, split_sentences, stem, tokenize
from .analysis import Analyser, Words, ability_noun_alternation
from .analysis import words as analysis_words
from .cues import Cue, CueMatch, Language, declared_symbol_cues, default_language, find_cues, load_cues
from .lexicon import Lexicon, LexiconEntry, Mention, Vocabulary, add_derived_forms, build_lexicon, feminine_forms, french_word_frequency, load_vocabulary
from .typer import TypingModel, shipped_model, type_statements

_SEGMENT = re.compile(r"[;:]|\.\s")
#: Who a flavour quote is from ("« Pas encore. » — le Capitaine Sans-Visage", "» — Anouk,
#: gabière"): a closing quote, a dash, then a character's name and title to the end, short and
#: with no colon ("« Parole donnée… » — Règle : le chevalier…" goes on with the rule).
_ATTRIBUTION = re.compile(r"[»”]\s*[—–]\s*[^«»“”:;.!?]{1,60}[.!?]?\s*$")
_PARAMETER_AFTER = re.compile(r"\s*(?:/\s*)?(?:\+?\d+|[XYD])\b")
#: The French words and patterns of name discovery (lang/fr/words.toml, [names]).
_NAMES = lang_words("names")
_DISCOVERY = re.compile(_NAMES["discovery"])
_DISCOVERY_SEPARATOR = re.compile(_NAMES["discovery_separator"])
_CAPITALISED_NAME = re.compile(_NAMES["capitalised_name"])
_NEXT_LOWER_WORD = re.compile(r"[ \t]+([a-zà-ÿœæ][\w’'\-]*)")
_INVERTED_SUBJECT = re.compile(_NAMES["inverted_subject"])
_NAME_LINKS = tuple(_NAMES["name_links"])
_BARE_NAME_LINKS = frozenset(_NAMES["bare_name_links"])
_BARE_LINK_LOCUTIONS = frozenset(_NAMES["bare_link_locutions"])
#: "Tir à l'arc)", "Maître de la forge.": a link with an article, then one word that closes the phrase.
_CLOSING_LINK = re.compile(_NAMES["closing_link"])
#: "(cf. Moral)": a reference to a rule section, like "voir X".
_SEE_ALSO = re.compile(_NAMES["see_also"])
#: A roll ("D3", "2D6", "D6+1") where a name would start.
_DICE = re.compile(r"\d*D\d+(?:[+-]\d+)?")
_QUOTED = re.compile(r"«\s*(?P<name>[A-ZÀ-ÝŒÆ][^»]{0,40}?)\s*»")
_SLASH_PARAM = re.compile(r"(?P<name>[A-ZÀ-ÝŒÆ][\w’'\-]*)\s*/\s*[XYD]\b")
#: "+1 en DEF": the word between an amount and the characteristic it changes.
_MEASURE_LINK = "(?:" + "|".join(map(re.escape, _NAMES["measure_links"])) + ")"
#: A signed amount and its link before what it measures: "+1 en DEF", "–1 CT", "−2 en Force".
_MEASURE_BEFORE = rf"[+\-–−]\d+\s+(?:{_MEASURE_LINK}\s+)?"
#: Characteristics are written as short capitalised abbreviations: FOR, DEF, PV, CC, Cd.
ABBREVIATION = re.compile(r"(?<![\w’'])([A-Z][A-Za-z]?[A-Z]{1,3}|[A-Z]{2,4})(?![\w’'])")
_BULLET = re.compile(r"^\s*[•·*–—-]\s")
#: How far after a clause-wide cue the ability itself may stand and still be its object.
_OBJECT_WINDOW = 45
#: The relation to each kind of term: the vocabulary's, and equipment, rule sections and bare
#: terms are concepts.
_TERM_RELATION = {**{kind: relation for relation, kind in TERM_RELATIONS.items()},
                  "equipment": "mentionsConcept", "rule": "mentionsConcept", "term": "mentionsConcept"}


@dataclass(frozen=True, slots=True)
class TextUnit:
    """A paragraph of an entry, with the edition it belongs to, if any."""

    entry: Entry
    paragraph: Paragraph
    edition: str | None


def text_units(entry: Entry) -> Iterator[TextUnit]:
    if entry.editions:
        for edition in entry.editions:
            for paragraph in edition.paragraphs:
                yield TextUnit(entry, paragraph, edition.edition)
    else:
        for paragraph in entry.paragraphs:
            yield TextUnit(entry, paragraph, None)


@cache
def _function_word_name(words: tuple[str, ...]) -> re.Pattern[str]:
    """A capitalised function word in mid-sentence and the capitalised words after it, or the
    first lower-case word after it (to be extended like any discovered name: "Sans peur")."""
    return re.compile(r"(?<=[a-zà-ÿ,] )(?:" + "|".join(map(re.escape, words)) + r")(?:(?:[ -][A-ZÀ-ÝŒÆ][\w’'\-]*)+|(?=[ -][a-zà-ÿœæ]))")


def _name_extent(text: str, start: int, end: int, stop_words: frozenset[str], most: int = 3,
                 bearer_before: re.Pattern[str] | None = None) -> str:
    """A capitalised name that goes on in lower case ("Bouclier mental est ..."): the lower-case
    words after it belong to it up to a function word or a frequent verb; "de", "du", "des",
    "d'" only when a content word that is no bearer noun follows them ("Tir de barrage", not
    "Garde de la cible" or "Régénération des créatures de verre"), "en" and "à" without article
    only before a bare content word that opens no locution ("Tir en cloche", not "Esquive en cas
    de charge"); "à l'", "à la", "au", "aux", "de la", "des" only before a content word that ends
    the phrase and is no bearer noun ("voir Tir à l'arc)", "voir Maître de la forge.", but
    "Carapace de la cible.")."""
    name_end, position, words = end, end, 0
    while words < most:
        closing = _CLOSING_LINK.match(text, position)
        closing_word = fold(closing.group(1)) if closing is not None else ""
        if closing is not None and closing_word not in stop_words and not (
                bearer_before is not None and bearer_before.search(closing_word + " ")):
            return text[start : closing.end()]
        match = _NEXT_LOWER_WORD.match(text, position)
        if match is None:
            break
        word = fold(match.group(1))
        if word in _NAME_LINKS or match.group(1) in _BARE_NAME_LINKS:
            content = _NEXT_LOWER_WORD.match(text, match.end())
            following = fold(content.group(1)) if content is not None else ""
            if word in _NAME_LINKS:
                # "la capacité Régénération des créatures de verre": whose it is, not its name.
                if bearer_before is not None and bearer_before.search(following + " "):
                    break
            elif not following or following in stop_words or following in _BARE_LINK_LOCUTIONS:
                break
            position = match.end()
            continue
        if word.startswith("d'") and len(word) > 2:
            word = word[2:]
        if word in stop_words or ("'" in word and word[: word.index("'") + 1] in stop_words) or _INVERTED_SUBJECT.search(match.group(1)):
            break
        position = name_end = match.end()
        words += 1
    return text[start:name_end]


#: A parameter after a name ("Immortel/ X", "Blindé X", "Peur 2"): no part of it.
_TRAILING_PARAMETER = re.compile(r"\s*/\s*[XYD]$|\s+(?:[XYN]|\d+)$")


def _goes_on_through_link(rest: str) -> bool:
    """Whether the words that extend a name start with a link ("en cloche", "de barrage")."""
    words = rest.split()
    return bool(words) and (words[0] in _BARE_NAME_LINKS or fold(words[0]) in _NAME_LINKS)


#: What a name's context says it is, strongest first: an ability wins over everything but a
#: measured abbreviation ("PA 2", "–1 CT"), which is a characteristic.
DISCOVERED_KINDS = ("characteristic", "ability", "state", "equipment", "rule", "term", "capitalised")
#: A capitalised function word in mid-sentence ("et Sans Peur", "met Hors de combat") hints at
#: a name; it makes an ability only when no context says what else the phrase is ("voir Hors de
#: combat" is a rule section).
CAPITALISED = "capitalised"
#: The endings of a past participle ("Sonné", "Bloquées", "Affaibli", "Abattu"): a state.
_PARTICIPLE_END = re.compile(_NAMES["participle_end"])
_LIST_GLUE = re.compile(_NAMES["list_glue"])
_CONDITION_TRAILING_CONJUNCTION = re.compile(_NAMES["condition_trailing_conjunction"])


def _trigger_kind(trigger: str, name: str, vocabulary: Words) -> str:
    """The kind of a name introduced by a name trigger: a bearer's object is equipment, a
    participle or adjective after a copula a state ("ne peut jamais être Sonné"), else an ability."""
    words = fold(trigger).split()
    first = _first_word(name)
    if words and words[0].startswith(vocabulary.equipment_triggers):
        return "equipment"
    if any(word.startswith(vocabulary.copula_triggers) for word in words):
        if _opens_like_state(name, vocabulary) or (
                words[-1] not in vocabulary.articles and first and _PARTICIPLE_END.search(first) and len(fold(name).split()) <= 2):
            return "state"
    return "ability"


def _first_word(name: str) -> str:
    """A name's first word, folded; none for a hyphenated one ("Hors-la-loi" is one word)."""
    words = name.split()
    return fold(words[0]) if words and "-" not in words[0] else ""


def _opens_like_state(name: str, vocabulary: Words) -> bool:
    """"En feu", "À terre", "Hors de combat": a name whose first word opens a state."""
    return _first_word(name) in vocabulary.state_openers


def _discovery_kind(prefix: str, vocabulary: Words) -> str:
    """The kind a _DISCOVERY match gives: "voir X", "cf. X" name a rule section, "voir aussi X"
    another ability."""
    prefix = fold(prefix).strip(" (")
    if prefix.startswith(vocabulary.see_also_openers):
        return "ability"
    if prefix.startswith(vocabulary.rule_reference_openers):
        return "rule"
    return "ability"


def discover_undefined(entries: list[Entry], known: Lexicon, language: Language | None = None) -> list[str]:
    """Names a text uses as abilities ("la capacité Réacteurs Dorsaux", "« Construct »",
    "Immortel/ X", "immunisé au Moral et Sans Peur") that the game does not define, in order of
    first use."""
    return [name for name, kind in discover_terms(entries, known, language) if kind == "ability"]


def discover_terms(entries: list[Entry], known: Lexicon, language: Language | None = None) -> list[tuple[str, str]]:
    """Capitalised names a text uses that the game does not define, each with the kind its
    contexts give it (see :data:`DISCOVERED_KINDS`): "la capacité X", "doté de X", "X/ Y" make
    an ability; a participle after être or devenir a state ("devient Sonné"); "porteur d'un X"
    equipment; "voir X" or "cf. X" alone a rule section; a quoted phrase alone a plain term."""
    language = language or default_language()

    vocabulary = analysis_words()
    function_word_name = _function_word_name(language.name_function_words) if language.name_function_words else None
    found: dict[str, str] = {}
    kinds: dict[str, set[str]] = {}
    declared_states: set[str] = set()  # names written after "l'état": states, whatever else says
    texts: list[str] = []  # every paragraph, for the abbreviations written with a number
    for entry in entries:
        # A designer's note names abilities too ("=> cumulable avec la capacité Endurance ?").
        notes = (TextUnit(entry, Paragraph(note.text, note.line), None) for note in entry.notes)
        for unit in (*text_units(entry), *notes):
            text = unit.paragraph.text
            texts.append(text)
            marked = {fold(phrase) for phrase in unit.paragraph.marked}
            candidates: list[tuple[str, int, str]] = []
            extensible: set[int] = set()
            for match in _DISCOVERY.finditer(text):
                position = match.start("names")
                kind = _discovery_kind(text[match.start() : position], vocabulary)
                for item in _DISCOVERY_SEPARATOR.split(match.group("names")):
                    position = text.find(item, position)
                    candidates.append((item, position, kind))
                if not match.group("names").rstrip().endswith(("»", '"')):
                    extensible.add(position)
            for match in _SEE_ALSO.finditer(text):
                candidates.append((match.group("name"), match.start("name"), "rule"))
            folded = fold_aligned(text)
            for match in _state_word(vocabulary.state_words).finditer(folded):
                capitalised = _CAPITALISED_NAME.match(text, match.end())
                if capitalised is not None:
                    candidates.append((capitalised.group(), capitalised.start(), "state"))
                    declared_states.add(_stemmed(capitalised.group()))
            for match in language.name_trigger.finditer(folded):
                capitalised = _CAPITALISED_NAME.match(text, match.end())
                # A single capital is a parameter ("gagne X points de vie") and a roll is an
                # amount ("gagne D3 points"), not a name.
                if (capitalised is not None and len(capitalised.group().split()[0]) > 1
                        and not _DICE.fullmatch(capitalised.group().split()[0])):
                    candidates.append((capitalised.group(), capitalised.start(),
                                       _trigger_kind(match.group(), capitalised.group(), vocabulary)))
                    extensible.add(capitalised.start())
            candidates += [(m.group("name"), m.start("name"), "term") for m in _QUOTED.finditer(text)]
            candidates += [(m.group("name"), m.start("name"), "ability") for m in _SLASH_PARAM.finditer(text)]
            if function_word_name is not None:
                for match in function_word_name.finditer(text):
                    if " " in match.group() or "-" in match.group():
                        candidates.append((match.group(), match.start(), CAPITALISED))
                    else:
                        extended = _name_extent(text, match.start(), match.end(), language.name_stop_words, most=2,
                                                 bearer_before=language.bearer_before)
                        if extended != match.group():
                            candidates.append((extended, match.start(), CAPITALISED))
            for candidate, position, kind in candidates:
                name = _TRAILING_PARAMETER.sub("", candidate.strip(" «»\"")).strip()
                if not name:
                    continue
                # A known name that goes on in lower case ("Racines profondes") is not a new one,
                # however the same word was used elsewhere ("voir Charge").
                mentions = known.find(text[position : position + len(candidate) + 60])
                if mentions and mentions[0].start == 0 and mentions[0].end >= len(name) - 1:
                    continue
                # An emphasised name (_Nage_ du livre de base) ends where the emphasis ends. A
                # name seen alone elsewhere goes on only through a link ("voir Tir", then "la
                # capacité Tir en cloche"; but "dotées de Vol touchées par").
                if position in extensible and name == candidate.strip() and fold(name) not in marked:
                    extended = _name_extent(text, position, position + len(name), language.name_stop_words,
                                            bearer_before=language.bearer_before)
                    if fold(name) not in found or _goes_on_through_link(extended[len(name):]):
                        name = extended
                if fold(name) in found:
                    kinds[fold(name)].add(kind)
                    continue
                # A function word alone ("leur capacité « En avant ! »" cut at its first word)
                # names nothing, and as a name it would match every "en" of the glossary.
                if all(word in language.name_stop_words for word in fold(name).split()):
                    continue
                found[fold(name)] = name
                kinds[fold(name)] = {kind}
    abbreviations = {key: name for key, name in found.items() if ABBREVIATION.fullmatch(name)}
    for key, name in abbreviations.items():
        if _is_measured(name, texts):
            kinds[key].add("characteristic")
    for key, name in found.items():
        if _is_tested(name, texts):
            kinds[key].add("characteristic")
    return [(name, "state" if _stemmed(name) in declared_states else _discovered_kind(name, kinds[key], vocabulary))
            for key, name in found.items()]


def _discovered_kind(name: str, kinds: set[str], vocabulary: Words) -> str:
    """The strongest kind the contexts give; a capitalised phrase no context explains is a
    state when it opens like one ("mis Hors de combat", "reste À terre"), else an ability
    ("Sans Pitié")."""
    kind = next(k for k in DISCOVERED_KINDS if k in kinds)
    if kind != CAPITALISED:
        return kind
    return "state" if _opens_like_state(name, vocabulary) else "ability"


def _stemmed(name: str) -> str:
    """"Maudits", "Maudite" and "Maudit" alike: a declared state in any of its forms."""
    return " ".join(stem(word) for word in fold(name).split())


@cache
def _state_word(words: frozenset[str]) -> re.Pattern[str]:
    """"l'état X", "les états X": the name after it is a state (matched on folded text)."""
    alternatives = "|".join(sorted((re.escape(word) for word in words), key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})\s+")


def _is_measured(name: str, texts: list[str]) -> bool:
    """An abbreviation the texts write with a number ("PA 2", "FOR 5", "–1 CT", "+1 en DEF") is a
    characteristic, not an ability."""
    quoted = re.escape(name)
    measured = re.compile(rf"(?<![\w’']){quoted}\s?[+\-–]?\d|{_MEASURE_BEFORE}{quoted}(?![\w’'])")
    return any(name in text and measured.search(text) for text in texts)


_TESTED_BEFORE = _NAMES["tested_before"]


def _is_tested(name: str, texts: list[str]) -> bool:
    """A name the texts roll a test against ("un test de Moral", "leurs jets de Courage") is a
    characteristic, however else it is named ("Voir aussi Moral")."""
    tested = re.compile(rf"{_TESTED_BEFORE}{re.escape(name)}(?![\w’'])")
    return any(name in text and tested.search(text) for text in texts)


@cache
def _common_word_test(threshold: int) -> Callable[[str], bool] | None:
    if threshold <= 0:
        return None
    return lambda word: french_word_frequency(word) >= threshold


@cache
def _ability_nouns() -> frozenset[str]:
    return analysis_words().ability_words


def _is_category(ref: TermRef) -> bool:
    return ref.label.startswith(CATEGORY_PREFIX)


def _expand_categories(statements: list[Statement], categories: dict[str, list[str]]) -> list[Statement]:
    """A statement about a category ("la moindre compétence de Tir") stands for one statement
    per ability of that category (the ability whose text it is aside)."""
    out = []
    for statement in statements:
        ends = [ref for ref in (statement.subject, statement.object) if _is_category(ref)]
        if not ends:
            out.append(statement)
            continue
        names = categories.get(fold(ends[0].label), [])
        if statement.span is not None and _not_each_member(statement.sentence, statement.span):
            continue
        owner = statement.owner
        excepted = " ".join(m.group("names") for m in _CATEGORY_EXCEPTION.finditer(fold(statement.sentence[statement.span[1]:]))) \
            if statement.span is not None else ""
        # A member the sentence names as one of them ("aucune capacité de cette catégorie, pas
        # même Masco") is no partner of the others ("À l'exception de Cavalier lui-même, aucune
        # compétence d'Équitation n'est accessible sans Cavalier" is one).
        fellows = {fold(name) for name in names}
        if any(fold(ref.label) in fellows and _named_as_included(statement.sentence, ref.label)
               for ref in (statement.subject, statement.object) if not _is_category(ref)):
            continue
        for name in names:
            if owner is not None and fold(name) == fold(owner):
                continue
            if excepted and re.search(rf"\b{re.escape(fold(name))}\b", excepted):
                continue
            member = TermRef(ends[0].game, "ability", name)
            subject = member if _is_category(statement.subject) else statement.subject
            obj = member if _is_category(statement.object) else statement.object
            if _is_category(subject) or _is_category(obj) or fold(subject.label) == fold(obj.label):
                continue
            out.append(replace(statement, subject=subject, object=obj, via_category=True,
                               owner=name if statement.owner and statement.owner.startswith(CATEGORY_PREFIX) else statement.owner))
    return out


#: "pas même X", "y compris X": the words before a member that give it as one of its category.
_INCLUDED_BEFORE = re.compile(_NAMES["category_included_before"])


def _named_as_included(sentence: str, name: str) -> bool:
    """"pas même Masco", "y compris Masco": the name is given as one of the category's own."""
    folded = fold_aligned(sentence)
    return any(_INCLUDED_BEFORE.search(folded[: match.start()]) for match in re.finditer(rf"\b{re.escape(fold(name))}\b", folded))


#: "cette capacité de chef" is the ability itself; "(voir capacités des armes)" points at a
#: section of the glossary: neither says something of each ability of the category.
_CATEGORY_NOT_MEMBERS = re.compile(_NAMES["category_not_members"])
_CATEGORY_COUNTED_BEFORE = re.compile(_NAMES["category_counted_before"])
_CATEGORY_COUNTED_AFTER = re.compile(_NAMES["category_counted_after"])
_MEASURED_BEFORE = re.compile(_MEASURE_BEFORE + "$")
_TESTED_JUST_BEFORE = re.compile(_TESTED_BEFORE + "$")


def _not_each_member(sentence: str, span: tuple[int, int]) -> bool:
    """The category's mention does not speak of each of its abilities: it is the ability
    itself or a section ("cette capacité de chef", "voir capacités des armes"), a count or a
    choice among them ("requiert au moins deux autres dons du barde", "une seule compétence de
    Harponneur au choix"), or a characteristic named like the category ("+1 en Capacité de
    Combat", "un test de Capacité de Tir")."""
    before = fold_aligned(sentence[: span[0]])
    return bool(_CATEGORY_NOT_MEMBERS.search(before) or _CATEGORY_COUNTED_BEFORE.search(before)
                or _CATEGORY_COUNTED_AFTER.search(fold(sentence[span[1]:]))
                or _MEASURED_BEFORE.search(sentence[: span[0]]) or _TESTED_JUST_BEFORE.search(sentence[: span[0]]))


#: "à l'exception de Peau de pierre": that member is not one the sentence speaks of.
_CATEGORY_EXCEPTION = re.compile(_NAMES["category_exception"])


def _is_question(text: str) -> bool:
    return text.rstrip().endswith("?")


#: "R : Non, …", "Oui, mais …": a sentence that answers the question before it.
_ANSWER_OPENING = re.compile(_NAMES["answer_opening"])


def _questions_joined(text: str, name: str, lexicon: Lexicon) -> list[tuple[int, str]]:
    """The sentences of a paragraph, but a question that names the ability ``name`` and its
    answer, when the answer names no ability, are one: "Q : Course d'altitude et Pied montagnard
    se cumulent-ils ? R : Non, ces deux capacités sont incompatibles" (in the text of Pied
    montagnard) states in its answer the relation between the entry and the other ability."""
    out: list[tuple[int, str]] = []
    for offset, sentence in split_sentences(text):
        if out and _is_question(out[-1][1]) and _ANSWER_OPENING.match(fold(sentence)) \
                and not _names_an_ability(sentence, lexicon) and _names_an_ability(out[-1][1], lexicon, fold(name)):
            start = out[-1][0]
            out[-1] = (start, text[start : text.index(sentence, offset) + len(sentence)].strip())
        else:
            out.append((offset, sentence))
    return out


def _names_an_ability(text: str, lexicon: Lexicon, folded_name: str | None = None) -> bool:
    """The text names an ability (that one, given its folded name)."""
    return any(m.term.kind == "ability" and (folded_name is None or fold(m.term.label) == folded_name) for m in lexicon.find(text))


_SOME_MEMBERS = re.compile(_NAMES["category_some_members"])


def _said_of_each_member(sentence: str) -> bool:
    """A sentence of a category's own text refers back to each of its abilities: a pronoun
    ("Elles…", "Aucune d'entre elles…") or a demonstrative before an ability noun ("ces
    compétences"), and no opening that picks some of them ("Celles qui…")."""
    folded = fold(sentence)
    if _SOME_MEMBERS.match(folded):
        return False
    return not _CATEGORY_PRONOUNS.isdisjoint(_WORD.findall(folded)) or _demonstrative_noun().search(folded) is not None


_CATEGORY_PRONOUNS = frozenset(_NAMES["category_pronouns"])
_BEARER_BEFORE_NAME = re.compile(_NAMES["bearer_before_name"])


def _names_an_ability_by_its_bearers(sentence: str, lexicon: Lexicon) -> bool:
    """"par un combattant doté d'Aéronaute", "les figurines possédant Vol": the sentence names an
    ability as what a figure has, not as a faction or an exception ("réservées aux factions
    Canuts et Mutuellistes", "à l'exception du Capo")."""
    return any(m.term.kind == "ability" and _BEARER_BEFORE_NAME.search(fold_aligned(sentence[: m.start]))
               for m in lexicon.find(sentence))


@cache
def _demonstrative_noun() -> re.Pattern[str]:
    """"ces compétences", "cette capacité", "de cette catégorie": a self demonstrative before an
    ability noun or a word for the category itself."""
    nouns = "|".join(map(re.escape, _NAMES["category_nouns"]))
    return re.compile(rf"{_NAMES['self_demonstratives']}\s+(?:{ability_noun_alternation()}|{nouns})\b")


def _general_rule_statements(document: Document, lexicon: Lexicon, cues: list[Cue], categories: dict[str, list[str]]) -> list[Statement]:
    """A paragraph outside every entry (a general rule, a FAQ's question and answer) is read as
    if written in the text of what it speaks of first:
    - a category it names ("un personnage doté de Foi ne peut lancer aucun sort de
      Nécromancie"): the category's name stands for each ability of the category;
    - else, in a question and its answer (a FAQ), the first ability it names, when it names two
      or more ("Q : Un combattant doté d'Ancrage peut-il être pris pour cible par la Stase ?
      R : Oui, mais l'Ancrage le protège"). Other paragraphs that name abilities (an
      introduction's list) state no interaction: read as interactions, they cost 0.017 of
      precision in leave-one-out over 68 glossaries;
    - each sentence of a commentary (beside a table of abilities, or a section of prose after the
      entries: "Un Demi-dieu possède d'office Courage.", "Loyal et Balance sont incompatibles."),
      read as if written in the text of the first ability that sentence names; a question there
      is read with its answer, like a FAQ's.
    - each sentence of a category's own text (an app's category record) that names no other
      category, read as if written in the text of that category: "Aucune d'entre elles ne peut
      être acquise par un combattant qui a prêté le Serment de la Ferme" is said of each of its
      abilities; in a section's text before its entries, only when it also names the other
      ability by its bearers ("par un combattant doté d'Aéronaute").
    Outside a question and its answer, each sentence is read on its own.
    """
    out: list[Statement] = []
    category_terms = {t for t in lexicon.terms if t.kind == "category"}
    # A question is read with its answer; any other paragraph sentence by sentence, so that a
    # category one sentence names does not reach the next one's ability ("Les capacités communes
    # sont accessibles à toutes. Les capacités de clan … que s'il possède Mercenaire").
    units: list[tuple[tuple[Paragraph, ...], bool, str | None]] = []
    for paragraphs, is_commentary in ((document.preamble, False), (document.commentary, True)):
        for unit in _questions_with_answers(paragraphs):
            asks = any("?" in paragraph.text for paragraph in unit)
            units += [(unit, is_commentary, None)] if asks else [((sentence,), is_commentary, None) for sentence in _sentences(unit[0])]
    for texts, strict in ((document.category_texts, False), (document.section_texts, True)):
        for category, paragraph in texts:
            own = CATEGORY_PREFIX + category if fold(CATEGORY_PREFIX + category) in categories else None
            units += [((sentence,), False, own if _said_of_each_member(sentence.text) and (
                          not strict or _names_an_ability_by_its_bearers(sentence.text, lexicon)) else None)
                      for sentence in _sentences(paragraph)]
    for unit, is_commentary, own in units:
        text = " ".join(p.text for p in unit)
        mentions = lexicon.find(text)
        found = sorted({m.term.label for m in mentions if m.term in category_terms}) or ([own] if own else [])
        abilities = list(dict.fromkeys(m.term.label for m in mentions if m.term.kind == "ability"))
        if not found and len(abilities) >= 2 and (is_commentary or "?" in text):
            found = abilities[:1]
        for label in found:
            pseudo = Entry(name=label, heading=label, game=document.game, source=document.source, line=unit[0].line,
                           paragraphs=unit)
            out += _answered(_expand_categories(extract_entry(pseudo, lexicon, cues), categories))
    return out


def _sentences(paragraph: Paragraph) -> list[Paragraph]:
    """A paragraph's sentences, each a paragraph of its own that keeps its source line."""
    out = []
    for offset, sentence in split_sentences(paragraph.text):
        start = paragraph.text.index(sentence, offset)
        breaks = tuple(b - start for b in paragraph.breaks if start < b < start + len(sentence))
        out.append(replace(paragraph, text=sentence, line=paragraph.line_at(start), breaks=breaks))
    return out


def _questions_with_answers(paragraphs: tuple[Paragraph, ...]) -> list[tuple[Paragraph, ...]]:
    """Each paragraph alone, but a question with the paragraph after it: a FAQ that puts a blank
    line between "Q : …?" and "R : …" states one interaction in the two."""
    units: list[tuple[Paragraph, ...]] = []
    index = 0
    while index < len(paragraphs):
        paragraph = paragraphs[index]
        if _is_question(paragraph.text) and index + 1 < len(paragraphs):
            units.append((paragraph, paragraphs[index + 1]))
            index += 2
        else:
            units.append((paragraph,))
            index += 1
    return units


def _answered(statements: list[Statement]) -> list[Statement]:
    """A question's edges are left out when the answer links abilities itself: the answer states
    the interaction, the question only asks about it (and may name others: "Un chevalier sur
    Destrier qui charge une Haie de lances garde-t-il sa Charge furieuse ?"). A bare "Oui." leaves
    the question's edges, which are then all there is."""
    if any(not _is_question(s.sentence) and s.subject.kind == s.object.kind == "ability" for s in statements):
        return [s for s in statements if not _is_question(s.sentence)]
    return statements


def game_lexicon(corpus: Corpus, game: str) -> Lexicon:
    """The lexicon of one game: its defined abilities, the undefined names its texts use as
    abilities, and the states, actions, characteristics and concepts of its lexicon file."""
    spec = corpus.games[game]
    language = default_language()
    common = _common_word_test(language.frequent_word)
    vocabulary = load_vocabulary(spec.lexicon)
    entries = corpus.entries(game)
    names = [e.name for e in entries]
    texts = [e.heading for e in entries] + [p.text for e in entries for p in e.paragraphs] + [
        p.text for document in corpus.documents if document.game == game for p in document.general_rules]
    vocabulary = _with_aliases(vocabulary, declared_abbreviations(texts, names))
    known = build_lexicon(game, names, vocabulary, common)
    listed = [(kind, name) for document in corpus.documents if document.game == game for kind, name, _line in document.terms]
    _add_terms(known, listed)
    categories = category_phrases(entries, _ability_nouns())
    discovered = discover_terms(entries, known, language)
    undefined = [name for name, kind in discovered if kind == "ability"]
    lexicon = build_lexicon(game, names + undefined, vocabulary, common)
    _add_terms(lexicon, listed)
    for name, kind in discovered:
        if kind != "ability" and not lexicon.find(name):
            lexicon.add(kind, name)
    for label, (phrases, _) in categories.items():
        lexicon.add("category", CATEGORY_PREFIX + label, variants=tuple(phrases), label_matches=False)
    add_derived_forms(lexicon, names)
    lexicon.weapons = frozenset(fold(e.name) for e in entries if e.category == WEAPON)
    return lexicon


_ABBREVIATION = _NAMES["abbreviation"]
_ABBREVIATION_LEGEND = re.compile(_ABBREVIATION + _NAMES["abbreviation_legend"])
_ABBREVIATION_IN_PARENTHESES = re.compile(r"\(\s*" + _ABBREVIATION + r"\s*\)")


def declared_abbreviations(texts: list[str], names: list[str]) -> dict[str, tuple[str, ...]]:
    """The abbreviations the texts define for the glossary's names (folded name → its
    abbreviations): "PdC = Peau de cristal" in a legend, or "Jet de verre en fusion (JVF)". Only
    a defined name counts: "fig. = figurine" is no ability."""
    by_key = {fold(name): name for name in names}
    longest = max((len(key.split()) for key in by_key), default=0)
    found: dict[str, set[str]] = {}
    for text in texts:
        pairs = [(fold(match.group("name")), match.group("short")) for match in _ABBREVIATION_LEGEND.finditer(text)]
        for match in _ABBREVIATION_IN_PARENTHESES.finditer(text):
            before = fold(text[max(0, match.start() - 200) : match.start()]).split()[-longest:]
            # The longest run of words right before the parenthesis that is a name.
            tails = (" ".join(before[-size:]) for size in range(len(before), 0, -1))
            if (key := next((tail for tail in tails if tail in by_key), None)) is not None:
                pairs.append((key, match.group("short")))
        for key, short in pairs:
            if key in by_key and _initials_of(short, key):
                found.setdefault(key, set()).add(short)
    return {key: tuple(sorted(shorts)) for key, shorts in found.items()}


def _initials_of(short: str, folded_name: str) -> bool:
    """The abbreviation's capitals are initials of the name's words, the first one first: "JVF"
    for "jet de verre en fusion", not "PA" for "perforant" ("Perforant (PA)" speaks of PA)."""
    capitals = fold("".join(c for c in short if c.isupper()))
    initials = [word[0] for word in re.split(r"[\s']+", folded_name) if word]
    if len(capitals) < 2 or not initials or capitals[0] != initials[0]:
        return False
    remaining = iter(initials[1:])
    return all(letter in remaining for letter in capitals[1:])


def _with_aliases(vocabulary: Vocabulary, declared: dict[str, tuple[str, ...]]) -> Vocabulary:
    """The lexicon file's aliases, and the abbreviations the texts declare."""
    if not declared:
        return vocabulary
    aliases = {fold(name): list(variants) for name, variants in (vocabulary.get("aliases") or {}).items()}
    for key, shorts in declared.items():
        aliases[key] = aliases.get(key, []) + [short for short in shorts if short not in aliases.get(key, [])]
    return cast(Vocabulary, {**vocabulary, "aliases": aliases})


def _add_terms(lexicon: Lexicon, terms: list[tuple[str, str]]) -> None:
    """The states, characteristics… a glossary lists in sections of their own, unless the
    lexicon knows the name already (an ability of the same name wins)."""
    for kind, name in terms:
        if lexicon.lookup(name) is None:
            lexicon.add(kind, name, variants=feminine_forms(name))


#: The label prefix of a category term in a game's lexicon: "sort de Pyromancie" names every
#: ability of the glossary's category "Sorts de Pyromancie".
CATEGORY_PREFIX = "\u00a7"
_CATEGORY_HEAD = re.compile(_NAMES["category_head"])


def category_phrases(entries: list[Entry], ability_nouns: frozenset[str]) -> dict[str, tuple[list[str], list[str]]]:
    """Per glossary category ("COMPÉTENCES D’ÉQUITATION"), the phrases a sentence names it by
    ("compétence d'Équitation") and the abilities in it. Only categories whose name is an
    ability noun followed by what sets them apart can be named this way."""
    members: dict[str, list[str]] = {}
    for entry in entries:
        if entry.glossary_category:
            members.setdefault(entry.glossary_category, []).append(entry.name)
    out: dict[str, tuple[list[str], list[str]]] = {}
    ability_nouns = ability_nouns | _game_ability_nouns(list(members))
    for label, names in members.items():
        if len(names) < 2:
            continue
        match = _CATEGORY_HEAD.match(_category_name(label))
        head = match.group("head") if match else ""
        if match and _is_ability_noun(head, ability_nouns):
            key = match.group("key")
            singular = head[:-1] if head.endswith("s") else head
            out[label] = ([f"{singular} {_de(key)}", f"{head} {_de(key)}"], names)
        elif not match and (adjective := _category_adjective(_category_name(label), ability_nouns)) is not None:
            # "Pouvoirs psychiques": any ability noun before the adjective names it ("les
            # capacités Psychiques", "aucune capacité psychique").
            out[label] = ([f"{noun} {adjective}" for noun in sorted(ability_nouns)], names)
        elif len(fold(label).split()) <= 4 and fold(label) not in ability_nouns:
            # A bare category name, as app files key their lists ("Pyromancie") or a book titles
            # its sections ("Voie de l'Ombre"): any ability noun before it names it ("les sorts
            # de Pyromancie", "ses compétences de Siège", "une capacité de la Voie de l'Ombre").
            key = fold(label)
            links = _links_before(key)
            if " " not in key:
                links.append(key)  # "les pouvoirs Psioniques" of the category "Psionique"
            phrases = [f"{noun} {link}" for noun in sorted(ability_nouns) for link in links]
            out[label] = (phrases + [f"{title} {key}" for title in _NAMES["category_titles"]], names)
    return out


def _category_name(label: str) -> str:
    """A category's folded name without what a heading adds after a colon ("Disciplines
    physiques : Célérité et Puissance")."""
    return fold(label).split(" : ")[0].strip()


def _game_ability_nouns(labels: list[str]) -> frozenset[str]:
    """The game's own word for its abilities: a plural word that opens two category names or
    more ("Disciplines de Sang", "Disciplines physiques") names abilities as "capacité" does, so
    "ses Disciplines de Sang" names that category."""
    articles = set(_NAMES["category_articles"])
    openers = Counter(words[0] for words in (_category_name(label).split() for label in labels)
                      if len(words) >= 2 and words[0].endswith(("s", "x")) and words[0] not in articles)
    return frozenset(word for opener, count in openers.items() if count >= 2 for word in (opener, opener[:-1]))


def _is_ability_noun(word: str, ability_nouns: frozenset[str]) -> bool:
    return word in ability_nouns or word.rstrip("s") in ability_nouns


def _category_adjective(folded: str, ability_nouns: frozenset[str]) -> str | None:
    """"psychiques" of the category "Pouvoirs psychiques" (an ability noun and an adjective,
    no "de" between them: the caller has matched that form first); None for a bare name."""
    words = folded.split()
    return words[1] if len(words) == 2 and _is_ability_noun(words[0], ability_nouns) else None


def _de(key: str) -> str:
    """The link between an ability noun and a category's key: "sort de pyromancie", "sort d'air"."""
    return _links_before(key)[0]


def _links_before(key: str) -> list[str]:
    """Every link between an ability noun and a category's key, elided before a vowel: "de
    pyromancie", then with an article, "de la pyromancie", "du pyromancie" ("de l'ombre")."""
    elided = key[:1] in _NAMES["category_elision_letters"]
    plain = _NAMES["category_link_elided" if elided else "category_link"]
    with_article = _NAMES["category_links_with_article_elided" if elided else "category_links_with_article"]
    return [f"{link}{key}" for link in (plain, *with_article)]


def extract_corpus(corpus: Corpus, cues: list[Cue] | None = None, *, model: TypingModel | None = None,
                   analyser: Analyser | None = None, rules_only: bool = False,
                   cache: ExtractionCache | None = None) -> list[Statement]:
    """Every statement of the corpus: the cue rules find the mentions and read each sentence,
    then the trained typer (``model``, by default the shipped one) decides each
    ability-to-ability edge's relation, with its confidence. ``rules_only`` stops before the
    typer (what training reads). ``cache`` keeps each game's statements for the next build,
    with the shipped typer only."""
    if rules_only or model is not None:
        cache = None
    statements: list[Statement] = []
    typer: TypingModel | None = None
    compiled: list[Cue] | None = None
    for game in corpus.games:
        # The shipped cues are package files, in every key already; they are compiled (a tenth
        # of a second) only when a game's statements are not in the cache.
        key = cache.game_key(corpus, game, cues) if cache is not None else ""
        kept = cache.statements(key) if cache is not None else None
        if kept is not None:
            statements += kept
            continue
        if compiled is None:
            compiled = cues if cues is not None else load_cues()
        found = _game_statements(corpus, game, compiled)
        if not rules_only:
            typer = typer or model or shipped_model()
            analyser = analyser or Analyser()
            if typer is not None:
                found = type_statements(found, typer, analyser)
        if cache is not None:
            cache.put(key, found)
        statements += found
    return statements


def _game_statements(corpus: Corpus, game: str, cues: list[Cue]) -> list[Statement]:
    """What the cue rules find in one game's texts, before typing."""
    lexicon = game_lexicon(corpus, game)
    entries = corpus.entries(game)
    categories = {fold(CATEGORY_PREFIX + label): names for label, (_, names) in
                  category_phrases(entries, _ability_nouns()).items()}
    legend = (p.text for document in corpus.documents if document.game == game for p in document.general_rules)
    cues = declared_symbol_cues(legend, cues) + cues
    found = []
    for entry in entries:
        found += _expand_categories(extract_entry(entry, lexicon, cues), categories)
    for document in corpus.documents:
        if document.game == game:
            found += _general_rule_statements(document, lexicon, cues, categories)
            found += _relation_list_statements(document, lexicon)
    targeting = {fold(entry.name) for entry in entries if _names_a_target(entry.text)}
    return [replace(s, owner_targets=True) if fold(s.owner or "") in targeting else s for s in found]


_WORD = re.compile(r"\w+")


def _names_a_target(text: str) -> bool:
    """The definition names a target or a victim (``target_words``): a set lookup per folded
    word, not ``tokenize``, which also stems every word."""
    return not analysis_words().target_words.isdisjoint(_WORD.findall(fold(text)))


def extract_entry(entry: Entry, lexicon: Lexicon, cues: list[Cue], language: Language | None = None) -> list[Statement]:
    language = language or default_language()
    seen: set[tuple[TermRef, str, TermRef, str | None]] = set()
    out: list[Statement] = []
    lead_in = ""
    for unit in text_units(entry):
        previous = ""
        is_item = bool(_BULLET.match(unit.paragraph.text))
        if not is_item:
            lead_in = ""
        previous_typed: list[Statement] = []
        for offset, sentence in _questions_joined(unit.paragraph.text, entry.name, lexicon):
            line = unit.paragraph.line_at(offset)
            found = extract_sentence(sentence, unit, lexicon, cues, language, previous, lead_in if is_item else "", line)
            found = _extending_previous(found, sentence, previous_typed, language)
            previous_typed = [s for s in found if s.object.kind == "ability" and s.relation != "references"]
            for statement in found:
                key = (statement.subject, statement.relation, statement.object, statement.edition)
                if key not in seen:
                    seen.add(key)
                    out.append(statement)
            previous = sentence
        if previous.rstrip().endswith(":"):
            lead_in = _last_clause(fold(previous))
    out += _field_relations(entry, lexicon)
    return out + _note_references(entry, lexicon, {(s.subject, s.object) for s in out} | {(s.object, s.subject) for s in out})


#: A prerequisites column of a table or field of an app file ("prérequis: Foreuse à percussion")
#: names what the ability requires, an incompatibilities field ("incompatible_avec": ["Volée"])
#: what it excludes, an "accorde" list what it grants, a "voir_aussi" list what it refers to: structured data, with no typing to be
#: unsure of.
FIELD_RULES = {"requires": "prerequisites field", "excludes": "incompatibilities field", "grants": "granted-abilities field",
               "references": "see-also field"}


def _field_relations(entry: Entry, lexicon: Lexicon) -> list[Statement]:
    me = TermRef(entry.game, "ability", entry.name)
    out: list[Statement] = []
    for key, value in entry.attributes:
        relation = relation_of(key)
        if relation is None:
            continue
        for mention in lexicon.find(value):
            other = TermRef(entry.game, "ability", mention.term.label)
            if mention.term.kind != "ability" or fold(mention.term.label) == fold(entry.name) or any(s.object == other for s in out):
                continue
            out.append(Statement(subject=me, relation=relation, object=other, sentence=value, source=entry.source,
                                 line=entry.line, confidence=1.0, rule=FIELD_RULES[relation], owner=entry.name))
    return out


#: A line of a section that lists pairs ("CAPACITÉS NON CUMULABLES": "conscrit / vétéran"): its
#: title says the relation, with no typing to be unsure of.
LIST_RULES = {"excludes": "incompatibilities list"}


def _relation_list_statements(document: Document, lexicon: Lexicon) -> list[Statement]:
    """The relation of a relation list, from the first ability a line names to the others."""
    out: list[Statement] = []
    for relation, paragraph in document.relation_lists:
        named = list(dict.fromkeys(m.term.label for m in lexicon.find(paragraph.text) if m.term.kind == "ability"))
        if len(named) < 2:
            continue
        first = TermRef(document.game, "ability", named[0])
        out += [Statement(subject=first, relation=relation, object=TermRef(document.game, "ability", other),
                          sentence=paragraph.text, source=document.source, line=paragraph.line, confidence=1.0,
                          rule=LIST_RULES[relation], owner=named[0])
                for other in named[1:]]
    return out


#: A designer's note asks a question ("=> cumulable avec X ?"); it states no relation, so the
#: abilities it names are references, with no typing to be unsure of.
NOTE_RULE = "designer note"


def _note_references(entry: Entry, lexicon: Lexicon, linked: set[tuple[TermRef, TermRef]]) -> list[Statement]:
    me = TermRef(entry.game, "ability", entry.name)
    out = []
    for note in entry.notes:
        for mention in lexicon.find(note.text):
            if mention.term.kind != "ability" or fold(mention.term.label) == fold(entry.name):
                continue
            if mention.term.ambiguous and not mention.surface[:1].isupper():
                continue  # an ordinary word ("héros mortels") is no name in a note either
            other = TermRef(entry.game, "ability", mention.term.label)
            if (me, other) in linked:
                continue
            linked.add((me, other))
            out.append(Statement(subject=me, relation="references", object=other, sentence=note.text, source=entry.source,
                                 line=note.line, confidence=1.0, rule=NOTE_RULE, owner=entry.name))
    return out


def _extending_previous(found: list[Statement], sentence: str, previous_typed: list[Statement],
                        language: Language) -> list[Statement]:
    """"Cette capacité fonctionne aussi contre X": an ability no cue types in such a sentence
    undergoes the relation the previous sentence gave the ability's last typed edge, the same
    way round."""
    extension = language.extends_previous.search(fold(sentence))
    if extension is None or not previous_typed:
        return found
    model = previous_typed[-1]
    out = []
    for statement in found:
        if statement.relation == "references" and statement.object.kind == "ability":
            me, other = statement.subject, statement.object
            subject, obj = (other, me) if model.object == me else (me, other)
            statement = replace(statement, subject=subject, relation=model.relation, object=obj, cue=extension.group())
        out.append(statement)
    return out


def _last_clause(folded: str) -> str:
    """The clause that introduces a list ("Les adversaires situés à 10 cm :"): the subject of
    every item that follows it."""
    return re.split(r"[;.]\s", folded.rstrip(" :"))[-1]


def _list_start(index: int, raw: list[Mention], folded: str, language: Language) -> int:
    """Where the list a mention belongs to begins ("capacités insaisissable et arpenteur",
    "bonus de couverture ou de résistance"): the context before the list speaks for each item."""
    start = raw[index].start
    while index > 0 and language.list_glue.match(folded[raw[index - 1].end : start]):
        index -= 1
        start = raw[index].start
    return start


def _is_marked(mention: Mention, unit: TextUnit) -> bool:
    surface = fold(mention.surface)
    return any(fold(phrase) == surface for phrase in unit.paragraph.marked)


def _resolve(index: int, raw: list[Mention], sentence: str, folded: str, unit: TextUnit, language: Language,
             cues: list[Cue]) -> LexiconEntry | None:
    """The term a mention stands for, or None: an ordinary-word ability name is the ability only
    when the context says so, otherwise another term of the same name (the action "charge")."""
    mention = raw[index]
    term = mention.term
    if mention.fuzzy and _is_common_word(mention.surface, language):
        return None  # "Impossible de tirer" is no typo of the ability Impassible
    if term.kind != "ability":
        return term
    fallback = mention.alternatives[0] if mention.alternatives else None
    if _is_abbreviation_of(mention):
        return fallback
    if _is_marked(mention, unit):
        return term
    before = folded[: mention.start]
    if language.action_before.search(before[-40:]):
        return next((t for t in mention.alternatives if t.kind == "action"), None)
    if not term.ambiguous and not _common_noun_in_context(mention, before, language):
        return term
    list_start = _list_start(index, raw, folded, language)
    if language.trigger_before.search(folded[max(0, list_start - 60) : list_start]):
        return term
    if mention.surface[:1].islower() and language.bare_object_before.search(folded[max(0, list_start - 30) : list_start]):
        return term
    if _coordinated_with_plain_ability(index, raw, folded):
        return term
    if language.bearer_before.search(before[-30:]):
        return term
    mid_sentence = bool(sentence[: mention.start].strip()) and not re.search(r"[:(•–—-]\s*$", sentence[: mention.start])
    if mention.surface[:1].isupper() and mid_sentence and fallback is None:
        return term
    if mention.surface[:1].isupper() and not mid_sentence and _subject_of_cue(mention, folded, cues):
        return term
    if _PARAMETER_AFTER.match(sentence[mention.end :]):
        return term
    return fallback


def _is_common_word(surface: str, language: Language) -> bool:
    """A single word that French uses often: matched one letter off a name, it is itself."""
    common = _common_word_test(language.frequent_word)
    return common is not None and " " not in surface.strip() and common(surface.strip())


def _subject_of_cue(mention: Mention, folded: str, cues: list[Cue]) -> bool:
    """"Inébranlable ignore Charge brutale", "R : Furie n'est jamais affectée par X": a name that
    opens its sentence, capitalised as every first word is, followed at once by a cue (its verb,
    or the negation the cue opens with) is the cue's subject; French puts no bare adjective or
    noun there, so it is the ability."""
    after = folded[mention.end : mention.end + 80]
    opening = len(after) - len(after.lstrip())
    return any(match.start == opening for match in find_cues(after, cues))


def _common_noun_in_context(mention: Mention, before: str, language: Language) -> bool:
    """"un automate ami", "le chaman", "le tanuki": a one-word name in lower case after a
    determiner reads as a word for a figure, unless the context says ability (as an ordinary-word
    name does). Limited to names in the French word list, it let "le psionique" and "le
    netrunner" through: on the gold sets, 7 false links for 1 true ("son absinthe")."""
    return (" " not in mention.surface and mention.surface[:1].islower()
            and bool(language.common_noun_before.search(before[-12:])))


def _is_abbreviation_of(mention: Mention) -> bool:
    """"un test de VOL" beside the ability Vol: a word of two or three capitals, when the glossary
    writes the name otherwise, is a characteristic's abbreviation (CBT, DEF, TIR, VOL). Longer
    capitals are emphasis ("cause la PEUR"); an alias ("JVF" declared for Jet de verre en fusion)
    is the ability."""
    surface = mention.surface
    return (2 <= len(surface) <= 3 and surface.isalpha() and surface.isupper() and not mention.term.label.isupper()
            and fold(surface) == fold(mention.term.label))


def _coordinated_with_plain_ability(index: int, raw: list[Mention], folded: str) -> bool:
    """"Sang-froid et Nerfs d'acier ne se cumulent pas": an ordinary word joined by "et", "ou" or
    a comma to an ability name that is no ordinary word is an ability too."""
    neighbours = []
    if index + 1 < len(raw):
        neighbours.append((raw[index + 1], folded[raw[index].end : raw[index + 1].start]))
    if index > 0:
        neighbours.append((raw[index - 1], folded[raw[index - 1].end : raw[index].start]))
    return any(
        other.term.kind == "ability" and not other.term.ambiguous and _LIST_GLUE.fullmatch(glue)
        for other, glue in neighbours
    )


def _accepted_mentions(sentence: str, folded: str, unit: TextUnit, lexicon: Lexicon,
                       language: Language, cues: list[Cue]) -> tuple[list[Mention], list[Mention]]:
    """The mentions the context accepts, and every mention the lexicon found."""
    # A category ("sort de Pyromancie") is read like an ability, then stands for its members.
    raw = [replace(m, term=replace(m.term, kind="ability")) if m.term.kind == "category" else m
           for m in lexicon.find(sentence, tokenize(sentence))]
    named = {m.term.label for m in raw if not m.term.derived}
    raw = [m for m in raw if not (m.term.derived and m.term.label in named)]
    attribution = _ATTRIBUTION.search(sentence)
    if attribution:
        raw = [m for m in raw if m.start < attribution.start()]
    accepted = []
    for index, mention in enumerate(raw):
        term = _resolve(index, raw, sentence, folded, unit, language, cues)
        if term is None:
            continue
        accepted.append(mention if term is mention.term else Mention(term, mention.start, mention.end, mention.first_token,
                                                                      mention.last_token, mention.surface, mention.fuzzy))
    return accepted, raw


@cache
def _self_pattern(name: str, nouns: tuple[str, ...]) -> re.Pattern[str]:
    """"cette capacité", "ces deux compétences", and a demonstrative before the first word of
    the ability's own name ("ce chant" in Chant des sirènes)."""
    head = _name_head(name)
    words = [rf"{n}s?" for n in nouns]
    if head:
        words.append(re.escape(head) + "s?")
    return re.compile(_NAMES["self_demonstratives"] + r" (?:" + "|".join(words) + r")\b")


@cache
def _name_head(name: str) -> str | None:
    """The folded first word of a name, when it is long enough to stand for the name."""
    head = tokenize(name)
    return fold(head[0].surface) if head and len(head[0].surface) > 3 else None


def _self_spans(name: str, nouns: tuple[str, ...], folded: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The sentence's self references: by a generic noun, and also by the name's first word.
    A sentence without that word has the same spans both ways, and the name's own pattern (one
    per ability, a tenth of extraction's time in compiling) is not needed."""
    generic = [(m.start(), m.end()) for m in _self_pattern("", nouns).finditer(folded)]
    head = _name_head(name)
    if head is None or head not in folded:
        return generic, generic
    return generic, [(m.start(), m.end()) for m in _self_pattern(name, nouns).finditer(folded)]


@dataclass(slots=True)
class _Sentence:
    """One sentence being read: its folded text, clauses, conditions and self references."""

    text: str
    folded: str
    selves: list[tuple[int, int]]
    conditions: list[tuple[int, int]]
    list_lead_in: str = ""
    other_starts: tuple[int, ...] = ()

    def segment(self, position: int) -> tuple[int, int]:
        starts = [m.end() for m in _SEGMENT.finditer(self.folded, 0, position)]
        end = _SEGMENT.search(self.folded, position)
        return (starts[-1] if starts else 0, end.start() if end else len(self.folded))

    def self_in_object(self, cue: CueMatch) -> bool:
        """The ability itself is what the cue acts on: named right after it or inside it
        ("X rend cette capacité inopérante"), or, for a cue that governs its whole clause, the
        first thing the clause names after it, with no other ability, condition or clause
        between ("un porteur de X annule toujours et sans condition les effets de cette
        capacité")."""
        window = 12 if cue.cue.reach is None else min(12, cue.cue.reach)
        if any(cue.start < start and start - cue.end <= window for start, _ in self.selves):
            return True
        if cue.cue.reach is not None:
            return False
        end = min(self.segment(cue.start)[1], cue.end + _OBJECT_WINDOW)
        first_self = min((start for start, _ in self.selves if cue.end <= start < end), default=None)
        if first_self is None:
            return False
        return not any(cue.end <= start < first_self for start in self.other_starts) and not any(
            cue.end <= start < first_self for start, _ in self.conditions)

    def lead_in(self, position: int) -> str:
        """The clause before the colon that introduces the clause at ``position`` (its
        subject, when the clause is a list item), else the paragraph's lead-in."""
        colon = self.folded.rfind(":", 0, position)
        if colon < 0:
            return self.list_lead_in
        return self.folded[self.segment(colon)[0] : colon]

    def in_condition(self, mention: Mention) -> bool:
        return any(start <= mention.start < end for start, end in self.conditions)

    def in_negated_condition(self, mention: Mention, language: Language) -> bool:
        """The mention stands in a condition that says it is missing ("si ... ne possède pas X")."""
        return any(start <= mention.start < end and language.negated_condition.search(self.folded, start, end)
                   for start, end in self.conditions)

    def in_condition_after(self, mention: Mention, position: int) -> bool:
        return any(start >= position and start <= mention.start < end for start, end in self.conditions)


def extract_sentence(sentence: str, unit: TextUnit, lexicon: Lexicon, cues: list[Cue],
                     language: Language | None = None, previous_sentence: str = "", lead_in: str = "",
                     line: int | None = None) -> list[Statement]:
    """The statements of one sentence of ``unit``; ``previous_sentence`` answers a pronoun
    such as "ce dernier", ``lead_in`` is the clause that introduced a list the sentence is an
    item of ("Les adversaires à 10 cm ou moins :"), ``line`` is where the sentence starts
    (default: the paragraph's first line)."""
    language = language or default_language()
    entry = unit.entry
    folded = fold_aligned(sentence)
    own = fold(entry.name)
    mentions, found = _accepted_mentions(sentence, folded, unit, lexicon, language, cues)
    generic_selves, named_selves = _self_spans(entry.name, language.self_nouns, folded)
    own_mentions = [m for m in mentions if m.term.kind == "ability" and fold(m.term.label) == own]
    # Words inside an ability's name are no cue and no negation ("Confère Pas de velours").
    folded = _without_names(folded, [m for m in found if m.term.kind == "ability"])
    cue_matches = find_cues(folded, cues)
    condition_spans = _conditions(folded, [c for c in cue_matches if c.cue.in_conditions], language)
    # "même si elle possède aussi X" concedes, it does not state: no fact inside it either,
    # though it is no condition of the sentence's edges.
    not_facts = condition_spans + _conditions(folded, [c for c in cue_matches if c.cue.in_conditions], language, concessive=True)
    cue_matches = [c for c in cue_matches if c.cue.in_conditions or not any(s <= c.start < e for s, e in not_facts)]
    # "cette capacité ne fonctionne pas contre les socles qui ont la capacité Terreur": the own
    # name, introduced as an ability beside "cette capacité" and outside a condition (which
    # speaks of the bearer itself), is another bearer of it: a relation of the ability to itself.
    other_bearers = [
        m for m in own_mentions
        if generic_selves and language.trigger_before.search(folded[max(0, m.start - 60) : m.start])
        and not any(start <= m.start < end for start, end in condition_spans)
    ]
    # In its own text, the ability's name stands for the ability even where it is an ordinary
    # word that the context would not accept ("... restent de marbre face à la provocation").
    plain_own = [(m.start, m.end) for m in found if m.term.kind == "ability" and fold(m.term.label) == own
                 and not any(a.start == m.start for a in own_mentions)]
    selves = named_selves + [(m.start, m.end) for m in own_mentions if m not in other_bearers] + plain_own
    others = [m for m in mentions if m.term.kind == "ability" and (fold(m.term.label) != own or m in other_bearers)]
    condition = " ; ".join(sentence[s:e].strip() for s, e in condition_spans) or None
    scope = " ; ".join(sentence[s:e].strip() for s, e in _scopes(folded, language)) or None
    read = _Sentence(sentence, folded, selves, condition_spans, lead_in, tuple(m.start for m in others))
    me = TermRef(entry.game, "ability", entry.name)
    make = _StatementFactory(sentence, unit, condition, line if line is not None else unit.paragraph.line, scope)
    mutual = next((c for c in cue_matches if c.cue.relation == "mutuallyCancels"), None)
    out: list[Statement] = []
    make.selves = tuple(selves)
    for mention in others:
        make.span = (mention.start, mention.end)
        other = TermRef(entry.game, "ability", mention.term.label)
        if mutual is not None:
            out.append(make(me, "mutuallyCancels", other, mutual.text))
            continue
        list_start = _list_start(mentions.index(mention), mentions, folded, language)
        governing = _governing(mention, cue_matches, read, language, list_start)
        if governing is None:
            out.append(_negated_effect(mention, list_start, me, other, read, language, make) or make(me, "references", other, None))
            continue
        cue, acts_on_me = governing
        if cue.cue.relation == "grants" and _is_recipient(mention, cue, folded, language):
            out.append(make(me, "references", other, None))
            continue
        if cue.cue.direction == "condition" and read.in_negated_condition(mention, language):
            # "Si le porteur ne possède pas X, cette capacité est sans effet": it needs X.
            out.append(make(me, "requires", other, cue.text))
            continue
        subject, obj = (other, me) if acts_on_me else (me, other)
        relation = cue.cue.relation
        # Another ability cancelling this one switches it off on the bearer it faces.
        if cue.cue.opponent_relation and ((acts_on_me and relation == "cancels") or fold(subject.label) in lexicon.weapons
                                          or language.opponent_scope.search(folded, *read.segment(cue.start))
                                          or language.opponent_scope.search(read.lead_in(cue.start))):
            relation = cue.cue.opponent_relation
        denied = None
        if relation == "grants" and (language.grant_negated_before.search(folded, 0, cue.start)
                                     or language.grant_negated_after.search(folded[cue.end:])):
            relation, denied = "excludes", "grants"
        elif relation == "excludes" and language.exclusion_negated_before.search(folded, 0, cue.start):
            relation, denied = "references", "excludes"
        recipient = None
        if relation == "grants":
            recipient = _recipient(read.lead_in(cue.start) + " " + folded[: cue.start] + " " + _recipient_after(cue, read, language),
                                   previous_sentence, language)
        out.append(make(subject, relation, obj, cue.text, recipient, denied=denied))
    make.span = None
    out = _without_redundant_references(out)
    out += _term_statements(sentence, folded, mentions, me, make, language)
    return out


def _without_names(folded: str, mentions: list[Mention]) -> str:
    """The folded sentence with each name blanked out, same length: the spans stay where they
    were, and no cue or negation can match a word of a name."""
    for mention in mentions:
        folded = folded[: mention.start] + _BLANK * (mention.end - mention.start) + folded[mention.end :]
    return folded


#: What a name is blanked with: a letter, so that the name still reads as a word to the cues
#: ("perd X" needs a word after "perd"), which no French word repeats ("qqqq").
_BLANK = "q"


def _negated_effect(mention: Mention, list_start: int, me: TermRef, other: TermRef, read: _Sentence, language: Language,
                    make: _StatementFactory) -> Statement | None:
    """A mention no cue governs, in a clause that negates an effect, typed by where it stands:
    named by its bearers before the negation ("les porteurs de X ne s'en ressentent pas"), its
    ability is immune to this one; itself the subject ("X ne fonctionne plus"), it is switched
    off; after the negation, it is what the bearer is immune to, or what the opponent loses."""
    segment = read.segment(mention.start)
    negation = language.effect_negation.search(read.folded, *segment)
    if negation is None or read.in_condition(mention):
        return None
    opponent = language.opponent_scope.search(read.folded, *segment) or language.opponent_scope.search(read.lead_in(mention.start))
    if mention.end <= negation.start():
        before = read.folded[max(segment[0], list_start - 40) : list_start]
        if language.trigger_before.search(before) or language.bearer_before.search(before):
            return make(other, "immuneTo", me, negation.group())
        return make(me, "negates" if opponent else "cancels", other, negation.group())
    return make(me, "negates" if opponent else "immuneTo", other, negation.group())


def _without_redundant_references(statements: list[Statement]) -> list[Statement]:
    """A pair the sentence already types ("Énorme est immunisé … à moins que … soit aussi
    Énorme") needs no plain mention beside it, whichever way the typed edge points."""
    typed = {frozenset((s.subject, s.object)) for s in statements if s.relation != "references"}
    return [s for s in statements if s.relation != "references" or frozenset((s.subject, s.object)) not in typed]


def _conditions(folded: str, cue_matches: list[CueMatch], language: Language, concessive: bool = False) -> list[tuple[int, int]]:
    """Spans of the conditions and time limits of a sentence; one stops where a relation cue
    starts ("jusqu'à la fin de sa prochaine activation et perd le bénéfice de ..."), and an
    opener with almost nothing after it ("... la sauvegarde classique si.") is not one. With
    ``concessive``, the spans of the openers that are no condition instead ("même si", "comme si")."""
    spans = []
    for match in language.condition.finditer(folded):
        start, end = match.span()
        if bool(language.not_condition_before.search(folded, max(0, start - 12), start)) != concessive:
            continue
        end = min([end] + [c.start for c in cue_matches if start < c.start < end])
        text = _CONDITION_TRAILING_CONJUNCTION.sub("", folded[start:end].rstrip())
        if len(text.split()) >= 3:
            spans.append((start, start + len(text)))
    return spans


def _scopes(folded: str, language: Language) -> list[tuple[int, int]]:
    """Spans of the phrases that say whom or where an effect holds ("pour les adversaires présents
    dans sa zone de contrôle"); shown beside a verdict, never evaluated."""
    spans: list[tuple[int, int]] = []
    for match in language.scope.finditer(folded):
        text = _CONDITION_TRAILING_CONJUNCTION.sub("", folded[match.start():match.end()].rstrip())
        if not any(start <= match.start() < end for start, end in spans):
            spans.append((match.start(), match.start() + len(text)))
    return spans


def _governing(mention: Mention, cue_matches: list[CueMatch], read: _Sentence, language: Language,
               list_start: int) -> tuple[CueMatch, bool] | None:
    """The cue that governs a mention, and whether the mention acts on the ability (True) or
    the ability on the mention (False): the nearest cue in the mention's clause that can reach it
    (a cue's reach is counted to the start of the list the mention belongs to)."""
    candidates: list[tuple[int, CueMatch, bool]] = []
    segment = read.segment(mention.start)
    for cue in cue_matches:
        direction = cue.cue.direction
        if direction == "mutual" and language.pair_anaphor.search(read.folded, *read.segment(cue.start)):
            # "X ... : les deux capacités ne se cumulent pas" joins the abilities of the sentence.
            if not read.in_condition_after(mention, cue.end):
                candidates.append((abs(mention.start - cue.start), cue, False))
            continue
        if not (segment[0] <= cue.start < segment[1]):
            continue
        if direction == "condition":
            if read.in_condition(mention):
                candidates.append((abs(mention.start - cue.start), cue, True))
            continue
        coordinated_with_self = cue.end <= mention.start and list_start - cue.end <= 12
        if direction == "auto" and read.self_in_object(cue) and not coordinated_with_self:
            direction = "backward"
        if direction == "mutual":
            if not read.in_condition_after(mention, cue.end):
                candidates.append((max(0, mention.start - cue.end, cue.start - mention.end), cue, False))
            continue
        if cue.start <= mention.start and direction in ("auto", "forward", "reverse"):
            if read.in_condition_after(mention, cue.end):
                continue
            if cue.cue.reach is not None and min(mention.start, max(list_start, cue.end)) - cue.end > cue.cue.reach:
                continue
            candidates.append((max(0, mention.start - cue.end), cue, direction == "reverse"))
        elif mention.end <= cue.start:
            if direction == "backward":
                candidates.append((cue.start - mention.end, cue, True))
            elif direction == "passive":
                candidates.append((cue.start - mention.end, cue, False))
            elif direction == "reverse":
                candidates.append((cue.start - mention.end, cue, False))
            elif cue.cue.reach is not None:
                continue
            elif direction in ("auto", "forward") and language.anaphor.search(read.folded, cue.end, segment[1]):
                candidates.append((cue.start - mention.end, cue, False))
    if not candidates:
        return None
    _, cue, acts_on_me = min(candidates, key=lambda c: c[0])
    return cue, acts_on_me


def _is_recipient(mention: Mention, cue: CueMatch, folded: str, language: Language) -> bool:
    """"confère X à une Ouvrière amie": a name after the grant that "à", "aux" introduces is who
    receives the grant, not a second granted ability."""
    return cue.end <= mention.start and bool(language.recipient_before.search(folded, max(cue.end, mention.start - 20), mention.start))


def _recipient_after(cue: CueMatch, read: _Sentence, language: Language) -> str:
    """The phrase that names the recipient after a grant ("... à une figurine amie"), if any."""
    found = language.recipient_phrase.search(read.folded, cue.end, read.segment(cue.start)[1])
    return found.group() if found else ""


def _recipient(before_cue: str, previous_sentence: str, language: Language) -> str:
    """Who gets a granted ability: the opponent, an ally, or the bearer; a pronoun such as
    "ce dernier" sends the question back to the previous sentence."""
    context = before_cue
    if language.back_reference.search(before_cue):
        context = fold(previous_sentence) + " " + before_cue
    if language.opponent_recipient.search(context):
        return "opponent"
    if language.ally_recipient.search(context):
        return "ally"
    return "bearer"


class _StatementFactory:
    def __init__(self, sentence: str, unit: TextUnit, condition: str | None, line: int, scope: str | None = None):
        self.sentence, self.unit, self.condition, self.line, self.scope = sentence, unit, condition, line, scope
        self.span: tuple[int, int] | None = None
        self.selves: tuple[tuple[int, int], ...] = ()

    def __call__(self, subject: TermRef, relation: str, obj: TermRef, cue: str | None, recipient: str | None = None, amount: str | None = None,
                 denied: str | None = None) -> Statement:
        return Statement(
            subject=subject,
            relation=relation,
            object=obj,
            sentence=self.sentence,
            source=self.unit.entry.source,
            line=self.line,
            condition=self.condition if relation not in ("appliesTo", "mentionsConcept") else None,
            scope=self.scope if relation in INTERACTIONS else None,
            cue=cue,
            recipient=recipient,
            amount=amount,
            edition=self.unit.edition,
            span=self.span,
            selves=self.selves,
            owner=self.unit.entry.name,
            denied=denied,
        )


def _term_statements(sentence: str, folded: str, mentions: list[Mention], me: TermRef, make: _StatementFactory,
                     language: Language) -> list[Statement]:
    # The folded sentence reads hyphens as spaces; an amount needs its sign back ("-1 DEF").
    signed = "".join(o if o in "+-−–" else f for o, f in zip(sentence, folded))
    out = []
    for mention in mentions:
        kind = mention.term.kind
        if kind == "ability":
            continue
        amount = None
        if kind == "characteristic":
            found = language.amount_before.search(signed, max(0, mention.start - 40), mention.start)
            if found and language.amount_negated.search(folded, max(0, mention.start - 120), found.start()):
                # "il ne reçoit pas le malus (… -1 CBT)": the ability spares the amount, it does
                # not impose it; the link stays, without an amount.
                pass
            elif found:
                amount = sentence[found.start(1) : found.end(1)].replace(" ", "").replace("−", "-").replace("–", "-")
            elif not language.modifying_before.search(folded[max(0, mention.start - 60) : mention.start]):
                continue
        ref = TermRef(me.game, kind, mention.term.label)
        out.append(make(me, _TERM_RELATION[kind], ref, None, amount=amount))
    return out
