"""Rule texts → statements: which abilities, states, actions and characteristics a sentence
names, and how the ability being defined relates to them.

For each sentence: find the mentions (lexicon, longest match), keep an ordinary-word name only
when its context says it is the ability, find the relation cues, give each mention the cue that
governs it (the nearest one before it in its clause, else rg:references), read the conditions.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ..corpus import Corpus
from ..model import Entry, Paragraph
from ..text import fold, fold_aligned, split_sentences, tokenize
from .cues import Cue, CueMatch, find_cues, load_cues
from .lexicon import Lexicon, Mention, build_lexicon, load_vocabulary
from .statement import Statement, TermRef

SELF_MARK = re.compile(r"\b(?:cette|ces|ladite|la meme) (?:capacite|competence|regle|aptitude)s?\b|\bces deux (?:capacite|competence)s\b")
_TRIGGER = re.compile(
    r"(?:capacites?|competences?|regles?|aptitudes?|possede\w*|possedant|ayant|dotes? de|dotee?s? de|beneficie\w* de|avec)\s*(?:la |les |le |l'|de |d'|du |des )?$"
)
_LIST_GLUE = re.compile(r"^\s*(?:,|et|ou|ni)?\s*(?:de |d'|du |des |la |le |les |l')?$")
_CONDITION = re.compile(r"(?<![\w'])(?:sauf s'|sauf si|si|s'il|s'ils|tant qu'|tant que|lorsqu'|lorsque|quand|a condition qu'|a condition que|a moins qu'|a moins que|pendant qu')(?![\w])[^,;:.()]*")
_SEGMENT = re.compile(r"[;:]|\.\s")
_AMOUNT = re.compile(r"([+\-−–]\s?(?:\d+|[XYD]))\s*(?:points? de |en |dans la caracteristique de |a sa |a son |de )?$", re.IGNORECASE)
_MODIFYING_VERB = re.compile(r"(?:augment|redui|reduc|diminu|doubl|tripl|retir|ajout|bonus|malus)\w*[^.]{0,40}$")
_OPPONENT = re.compile(r"\b(?:adversaires?|ennemis?|affecte\w* par cette (?:capacite|competence)|cible)\b")
_ALLY = re.compile(r"\ballies?\b")
_DISCOVERY = re.compile(
    r"(?:capacit[ée]s?|comp[ée]tences?|r[èe]gles?)\s+(?P<names>(?:[«\"]\s*)?[A-ZÀ-Ý][\w’'\-]*(?:\s+(?:d[eu]s?\s+|d['’])?[A-ZÀ-Ý][\w’'\-]*)*(?:\s*/\s*[XYD])?(?:\s*[»\"])?(?:\s*(?:,|\bou\b|\bet\b)\s*(?:[«\"]\s*)?[A-ZÀ-Ý][\w’'\-]*(?:\s+[A-ZÀ-Ý][\w’'\-]*)*(?:\s*/\s*[XYD])?(?:\s*[»\"])?)*)"
)
_QUOTED = re.compile(r"«\s*(?P<name>[A-ZÀ-Ý][^»]{0,40}?)\s*»")
_SLASH_PARAM = re.compile(r"(?P<name>[A-ZÀ-Ý][\w’'\-]*)\s*/\s*[XYD]\b")


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


def discover_undefined(entries: list[Entry], known: Lexicon) -> list[str]:
    """Names a text uses as abilities ("la capacité Réacteurs Dorsaux", "« Construct »",
    "Immortel/ X") that the game does not define, in order of first use."""
    found: dict[str, str] = {}
    for entry in entries:
        for unit in text_units(entry):
            text = unit.paragraph.text
            candidates: list[str] = []
            for match in _DISCOVERY.finditer(text):
                candidates += re.split(r"\s*(?:,|\bou\b|\bet\b)\s*", match.group("names"))
            candidates += [m.group("name") for m in _QUOTED.finditer(text)]
            candidates += [m.group("name") for m in _SLASH_PARAM.finditer(text)]
            for candidate in candidates:
                name = re.sub(r"\s*/\s*[XYD]$", "", candidate.strip(" «»\"")).strip()
                if not name or fold(name) in found:
                    continue
                mentions = known.find(name)
                if mentions and mentions[0].start == 0 and mentions[0].end >= len(name) - 1:
                    continue
                found[fold(name)] = name
    return list(found.values())


def game_lexicon(corpus: Corpus, game: str) -> Lexicon:
    """The lexicon of one game: its defined abilities, the undefined names its texts use as
    abilities, and the states, actions, characteristics and concepts of its lexicon file."""
    spec = corpus.games[game]
    vocabulary = load_vocabulary(spec.lexicon)
    entries = corpus.entries(game)
    names = [e.name for e in entries]
    known = build_lexicon(game, names, vocabulary)
    undefined = discover_undefined(entries, known)
    return build_lexicon(game, names + undefined, vocabulary)


def extract_corpus(corpus: Corpus, cues: list[Cue] | None = None) -> list[Statement]:
    cues = cues if cues is not None else load_cues()
    statements: list[Statement] = []
    for game in corpus.games:
        lexicon = game_lexicon(corpus, game)
        for entry in corpus.entries(game):
            statements += extract_entry(entry, lexicon, cues)
    return statements


def extract_entry(entry: Entry, lexicon: Lexicon, cues: list[Cue]) -> list[Statement]:
    seen: set[tuple] = set()
    out: list[Statement] = []
    for unit in text_units(entry):
        for _, sentence in split_sentences(unit.paragraph.text):
            for statement in extract_sentence(sentence, unit, lexicon, cues):
                key = (statement.subject, statement.relation, statement.object, statement.edition)
                if key not in seen:
                    seen.add(key)
                    out.append(statement)
    return out


def _accept(mention: Mention, sentence: str, folded: str, unit: TextUnit, previous: Mention | None, accepted_previous: bool) -> bool:
    """An ordinary-word name is the ability only when the context says so."""
    if mention.term.kind != "ability" or not mention.term.ambiguous:
        return True
    if mention.surface in unit.paragraph.marked or any(fold(m) == fold(mention.surface) for m in unit.paragraph.marked):
        return True
    before = folded[: mention.start]
    if _TRIGGER.search(before.rstrip()[-40:] + " ") or _TRIGGER.search(before[-40:]):
        return True
    if previous is not None and accepted_previous and previous.term.kind == "ability":
        if _LIST_GLUE.match(folded[previous.end : mention.start]):
            return True
    at_sentence_start = not sentence[: mention.start].strip()
    if mention.surface[:1].isupper() and not at_sentence_start:
        return True
    return bool(re.match(r"\s*(?:/\s*)?(?:\+?\d+|[XYD])\b", sentence[mention.end :]))


def extract_sentence(sentence: str, unit: TextUnit, lexicon: Lexicon, cues: list[Cue]) -> list[Statement]:
    entry = unit.entry
    folded = fold_aligned(sentence)
    own = fold(entry.name)
    mentions: list[Mention] = []
    previous, accepted_previous = None, False
    for mention in lexicon.find(sentence, tokenize(sentence)):
        accepted = _accept(mention, sentence, folded, unit, previous, accepted_previous)
        if accepted:
            mentions.append(mention)
        previous, accepted_previous = mention, accepted
    cue_matches = find_cues(folded, cues)
    selves = [(m.start(), m.end()) for m in SELF_MARK.finditer(folded)]
    selves += [(m.start, m.end) for m in mentions if m.term.kind == "ability" and fold(m.term.label) == own]
    others = [m for m in mentions if m.term.kind == "ability" and fold(m.term.label) != own]
    conditions = [sentence[m.start() : m.end()].strip() for m in _CONDITION.finditer(folded)]
    condition = " ; ".join(conditions) or None
    me = TermRef(entry.game, "ability", entry.name)
    make = _StatementFactory(sentence, unit, condition)
    out: list[Statement] = []
    typed_pairs: set[tuple[str, str]] = set()
    for cue in cue_matches:
        segment_end = _segment_end(folded, cue.end)
        right = [m for m in others if cue.end <= m.start < segment_end and _governing(cue_matches, m, folded) is cue]
        right_self = any(cue.end <= s < segment_end for s, _ in selves)
        left = [m for m in others if _segment_start(folded, cue.start) <= m.start < cue.start]
        relation, cue_words = cue.cue.relation, cue.text
        if relation == "mutuallyCancels":
            for mention in others:
                out.append(make(me, relation, _ref(mention, entry), cue_words))
                typed_pairs.add((own, fold(mention.term.label)))
            continue
        if cue.cue.direction == "reverse" and (right or right_self):
            targets = right or [None]
            for mention in targets:
                subject = _ref(mention, entry) if mention else me
                out.append(make(subject, relation, me, cue_words))
                typed_pairs.add((fold(subject.label), own))
            continue
        if right and cue.cue.direction in ("auto", "forward"):
            for mention in right:
                recipient = _recipient(folded) if relation == "grants" else None
                out.append(make(me, relation, _ref(mention, entry), cue_words, recipient))
                typed_pairs.add((own, fold(mention.term.label)))
        elif left and (right_self or cue.cue.direction == "backward"):
            for mention in left:
                out.append(make(_ref(mention, entry), relation, me, cue_words))
                typed_pairs.add((own, fold(mention.term.label)))
    for mention in others:
        label = fold(mention.term.label)
        if (own, label) not in typed_pairs and (label, own) not in typed_pairs:
            out.append(make(me, "references", _ref(mention, entry), None))
    out += _term_statements(sentence, folded, mentions, me, make)
    return out


def _governing(cue_matches: list[CueMatch], mention: Mention, folded: str) -> CueMatch | None:
    """The nearest cue before the mention in the same clause."""
    best = None
    for cue in cue_matches:
        if cue.end <= mention.start and _segment_end(folded, cue.end) > mention.start:
            best = cue
    return best


def _segment_end(folded: str, position: int) -> int:
    match = _SEGMENT.search(folded, position)
    return match.start() if match else len(folded)


def _segment_start(folded: str, position: int) -> int:
    starts = [m.end() for m in _SEGMENT.finditer(folded, 0, position)]
    return starts[-1] if starts else 0


def _recipient(folded: str) -> str:
    if _OPPONENT.search(folded):
        return "opponent"
    if _ALLY.search(folded):
        return "ally"
    return "bearer"


def _ref(mention: Mention, entry: Entry) -> TermRef:
    return TermRef(entry.game, mention.term.kind, mention.term.label)


class _StatementFactory:
    def __init__(self, sentence: str, unit: TextUnit, condition: str | None):
        self.sentence, self.unit, self.condition = sentence, unit, condition

    def __call__(self, subject: TermRef, relation: str, obj: TermRef, cue: str | None, recipient: str | None = None, amount: str | None = None) -> Statement:
        return Statement(
            subject=subject,
            relation=relation,
            object=obj,
            sentence=self.sentence,
            source=self.unit.entry.source,
            line=self.unit.paragraph.line,
            condition=self.condition if relation not in ("appliesTo", "mentionsConcept") else None,
            cue=cue,
            recipient=recipient,
            amount=amount,
            edition=self.unit.edition,
        )


_TERM_RELATION = {"characteristic": "modifies", "action": "appliesTo", "state": "involvesState", "concept": "mentionsConcept"}


def _term_statements(sentence: str, folded: str, mentions: list[Mention], me: TermRef, make: _StatementFactory) -> list[Statement]:
    out = []
    for mention in mentions:
        kind = mention.term.kind
        if kind == "ability":
            continue
        amount = None
        if kind == "characteristic":
            found = _AMOUNT.search(sentence[max(0, mention.start - 40) : mention.start])
            if found:
                amount = found.group(1).replace(" ", "").replace("−", "-").replace("–", "-")
            elif not _MODIFYING_VERB.search(folded[max(0, mention.start - 60) : mention.start]):
                continue
        ref = TermRef(me.game, kind, mention.term.label)
        out.append(make(me, _TERM_RELATION[kind], ref, None, amount=amount))
    return out
