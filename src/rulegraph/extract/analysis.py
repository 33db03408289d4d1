"""An explicit analysis of each sentence: tokens with lemma, part of speech and dependency head
(spaCy's French model), and what the relation typer reads off them: clauses, negation scope,
condition and concession scope, modality.

Parsing costs: spaCy and its model take about 5 s to load and parse about 1,000 sentences a
second here. Parses are therefore kept in an on-disk cache (SQLite), keyed by the sentence and
the model's name and version, and spaCy is only imported when a sentence is missing from it:
a rebuild with a warm cache never loads it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import RulegraphError
from ..i18n import _
from ..lang import read_text
from ..lang import words as lang_words
from ..text import cache_folder, fold

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

#: One token as the parse cache stores it: text, lemma, part of speech, dependency, head, offset,
#: negated (JSON scalars of several types).
Row = list[Any]

#: spaCy's medium French pipeline: it finds the subjects the small one reads as verbs, and
#: typed 0.804 against 0.793 in cross-validation (docs/evaluation). ``RULEGRAPH_PARSER`` overrides it.
MODEL = os.environ.get("RULEGRAPH_PARSER", "fr_core_news_md")
#: The spaCy components the analysis needs; named entities are never read.
_EXCLUDED = ["ner"]

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class Words:
    """The French word lists of ``lang/fr/analysis.toml`` (folded words or lemmas)."""

    condition_markers: tuple[str, ...]
    concession_markers: tuple[str, ...]
    exception_markers: tuple[str, ...]
    contrast_markers: tuple[str, ...]
    negation_words: frozenset[str]
    negative_particles: frozenset[str]
    restrictive_partners: frozenset[str]
    clause_subjects: frozenset[str]
    negative_partners: frozenset[str]
    modal_lemmas: frozenset[str]
    privative_lemmas: frozenset[str]
    opponent_words: frozenset[str]
    target_words: frozenset[str]
    bearer_pronouns: frozenset[str]
    bearer_nouns: frozenset[str]
    bearer_determiners: frozenset[str]
    nobody_words: frozenset[str]
    participle_endings: tuple[str, ...]
    copula_triggers: tuple[str, ...]
    state_openers: frozenset[str]
    state_words: frozenset[str]
    articles: frozenset[str]
    counting_words: frozenset[str]
    rule_reference_openers: tuple[str, ...]
    see_also_openers: tuple[str, ...]
    equipment_triggers: tuple[str, ...]
    ability_words: frozenset[str]
    former_edition: re.Pattern[str]
    imperfect_endings: tuple[str, ...]
    imperfect_exceptions: frozenset[str]
    #: relation → the lemmas that speak of it ([relation_words]).
    relation_words: dict[str, frozenset[str]] = field(default_factory=dict)
    #: folded abbreviation → the lemma of the word it stands for ([abbreviation_lemmas]).
    abbreviation_lemmas: dict[str, str] = field(default_factory=dict)


@cache
def words() -> Words:
    data = tomllib.loads(read_text("analysis.toml"))
    table = data["analysis"]
    lists = {key: [fold(w) for w in value] for key, value in table.items()}
    # The remaining fields by name: frozensets for membership tests, tuples for prefix tests.
    sets: dict[str, Any] = {key: frozenset(lists[key]) for key in ("negation_words", "negative_particles", "restrictive_partners", "clause_subjects",
                                                                   "negative_partners", "modal_lemmas", "privative_lemmas", "opponent_words",
                                                                   "target_words", "bearer_pronouns", "nobody_words",
                                                                   "bearer_nouns", "bearer_determiners",
                                                                   "state_openers", "state_words", "articles", "counting_words",
                                                                   "ability_words")}
    prefixes: dict[str, Any] = {key: tuple(lists[key]) for key in ("copula_triggers", "rule_reference_openers",
                                                                   "see_also_openers", "equipment_triggers")}
    return Words(
        relation_words={relation: frozenset(fold(w) for w in value) for relation, value in data["relation_words"].items()},
        abbreviation_lemmas={fold(short): fold(word) for short, word in data["abbreviation_lemmas"].items()},
        condition_markers=tuple(sorted(lists["condition_markers"], key=len, reverse=True)),
        participle_endings=tuple(table["participle_endings"]),
        concession_markers=tuple(sorted(lists["concession_markers"], key=len, reverse=True)),
        exception_markers=tuple(lists["exception_markers"]),
        contrast_markers=tuple(lists["contrast_markers"]),
        former_edition=re.compile(table["former_edition"]),
        imperfect_endings=tuple(lists["imperfect_endings"]),
        imperfect_exceptions=frozenset(lists["imperfect_exceptions"]),
        **sets,
        **prefixes,
    )


@cache
def ability_noun_alternation() -> str:
    """The ability nouns ("capacité", "règle spéciale", "mots-clés"…), folded, as one regex
    alternation, longest first: for the patterns that look for them in folded text."""
    return "|".join(sorted(map(re.escape, words().ability_words), key=len, reverse=True))


@dataclass(frozen=True, slots=True)
class Token:
    """One word of a parsed sentence; ``head`` is the index of its syntactic head (itself for
    the root), ``start`` its character offset in the sentence."""

    index: int
    text: str
    lemma: str
    pos: str
    dep: str
    head: int
    start: int
    negative: bool = False
    #: The "que" of a "ne … que" ("only"): what follows it is restricted, and its "ne" is no
    #: negative word.
    restrictive: bool = False

    @property
    def end(self) -> int:
        return self.start + len(self.text)

    @property
    def key(self) -> str:
        return fold(self.lemma or self.text)

    @property
    def is_verb(self) -> bool:
        return self.pos in ("VERB", "AUX")


@dataclass(frozen=True, slots=True)
class Clause:
    """A verb (or the root) and the tokens it governs without crossing another clause head;
    ``kind`` is main, condition, concession or relative."""

    head: int
    kind: str
    marker: str
    negated: bool
    modal: str | None
    tokens: frozenset[int]


@dataclass(frozen=True, slots=True)
class SentenceAnalysis:
    """A parsed sentence and the structure the typer reads."""

    text: str
    tokens: tuple[Token, ...]
    clauses: tuple[Clause, ...] = field(default=())

    def token_at(self, offset: int) -> int:
        """The index of the token covering (or first after) a character offset."""
        for token in self.tokens:
            if token.end > offset:
                return token.index
        return len(self.tokens) - 1

    def counts(self) -> frozenset[int]:
        """The words that count here ("un seul socle") rather than restrict ("seul un socle")."""
        vocabulary = words()
        return frozenset(t.index for t in self.tokens[1:]
                         if t.key in vocabulary.counting_words and self.tokens[t.index - 1].key in vocabulary.articles)

    def span_head(self, start: int, end: int) -> int:
        """The token of a character span whose head lies outside the span: the span's head."""
        inside = [t.index for t in self.tokens if t.start < end and t.end > start] or [self.token_at(start)]
        outside = [i for i in inside if self.tokens[i].head not in inside or self.tokens[i].head == i]
        return outside[0] if outside else inside[0]

    def ancestors(self, index: int) -> list[int]:
        """The heads above a token, nearest first, up to the root."""
        out: list[int] = []
        seen = {index}
        while True:
            head = self.tokens[index].head
            if head in seen:
                return out
            out.append(head)
            seen.add(head)
            index = head

    def children(self, index: int) -> list[Token]:
        return [t for t in self.tokens if t.head == index and t.index != index]

    def clause_of(self, index: int) -> Clause:
        for clause in self.clauses:
            if index in clause.tokens:
                return clause
        return self.clauses[0]

    def governor(self, index: int) -> Token:
        """The verb whose clause holds the token (the root when no verb governs it)."""
        return self.tokens[self.clause_of(index).head]

    def path(self, index: int, to: int, most: int = 4) -> str:
        """The dependency labels from a token up to a head it depends on, e.g. ``nmod<obj``."""
        labels, current = [], index
        for ancestor in self.ancestors(index):
            labels.append(self.tokens[current].dep.split(":")[0])
            current = ancestor
            if ancestor == to or len(labels) >= most:
                break
        return "<".join(labels) or "self"

    def enclosing(self, index: int, kinds: tuple[str, ...]) -> Clause | None:
        """The nearest clause of one of ``kinds`` that holds the token or governs its clause."""
        clause = self.clause_of(index)
        seen = set()
        while clause.head not in seen:
            seen.add(clause.head)
            if clause.kind in kinds:
                return clause
            above = self.ancestors(clause.head)
            if not above:
                return None
            parent = self.clause_of(above[0])
            if parent.head == clause.head:
                return None
            clause = parent
        return None

    def subject_kind(self, index: int, selves: Iterable[int] = ()) -> str:
        """Who the clause that governs a token is about, from its subject (or the subject of the
        verb it completes, "ne peut pas utiliser X"): ``self`` (the ability's own mention),
        ``pronoun`` (the bearer, or a noun for it: "cette figurine"), ``nobody``, ``opponent``,
        ``affected`` (a noun with a participle: "la figurine touchée"), ``with_self`` (a noun
        qualified by the ability: "un combattant doté de Vol"), ``mention`` (the token itself:
        "Inébranlable ignore Charge brutale", the other ability acts), ``noun`` or ``none``."""
        vocabulary = words()
        selves = set(selves)
        head = self.clause_of(index).head
        heads = [head]
        if self.tokens[head].dep.startswith("xcomp") and self.tokens[head].head != head:
            heads.append(self.tokens[head].head)
        subject = next((c for h in heads for c in self.children(h) if c.dep.startswith("nsubj")), None)
        if subject is None:
            return "none"
        if subject.index in selves:
            return "self"
        if subject.index == index:
            return "mention"
        qualifiers = self.children(subject.index)
        if subject.key in vocabulary.nobody_words or any(c.key in vocabulary.nobody_words for c in qualifiers):
            return "nobody"
        if subject.key in vocabulary.bearer_pronouns or subject.pos == "PRON":
            return "pronoun"
        if subject.key in vocabulary.opponent_words or any(c.key in vocabulary.opponent_words for c in qualifiers):
            return "opponent"
        for qualifier in qualifiers:
            if qualifier.dep.split(":")[0] in ("acl", "amod") and (
                    qualifier.pos == "VERB" or qualifier.text.lower().endswith(vocabulary.participle_endings)):
                return "affected"
            if qualifier.index in selves or any(c.index in selves for c in self.children(qualifier.index)):
                return "with_self"
        if subject.key in vocabulary.bearer_nouns and any(
                c.dep == "det" and c.key in vocabulary.bearer_determiners for c in qualifiers):
            return "pronoun"
        return "noun"

    def restricted(self, index: int) -> bool:
        """The token stands after the "que" of a "ne … que" ("ne peut être utilisé que si la
        figurine a X", "n'est accessible qu'aux porteurs de X"): it holds only then. Read in
        word order, with no ; or : between, as an abbreviation's point can split the parse."""
        restricted = False
        for token in self.tokens[:index]:
            if token.text in (";", ":"):
                restricted = False
            elif token.restrictive:
                restricted = True
        return restricted

    def in_condition(self, index: int) -> bool:
        return self.enclosing(index, ("condition",)) is not None

    def in_concession(self, index: int) -> bool:
        return self.enclosing(index, ("concession",)) is not None

    def in_exception(self, index: int) -> bool:
        """The token stands in an exception ("sauf contre ceux qui possèdent X", "à moins que la
        cible ne possède X"): an exception word before it, with no ; : or full stop between."""
        before = self._segment_before(index)
        marker = _marker_pattern(words().exception_markers).search(before)
        if marker is None:
            return False
        opening = not before[: marker.start()].strip()
        return not (opening and "," in before[marker.end() :])

    def in_contrast(self, index: int) -> bool:
        """The token stands after "mais pas", "et non" ("immunisé à la Peur, mais pas à la
        Terreur"): set apart from what the statement says, with no ; : or full stop between."""
        return _marker_pattern(words().contrast_markers).search(self._segment_before(index)) is not None

    def _segment_before(self, index: int) -> str:
        """The folded, unelided text from the last ; : or full stop up to the token."""
        start = 0
        for token in self.tokens[:index]:
            if token.text in _SEGMENT_ENDS:
                start = token.end
        return _unelide(fold(self.text[start : self.tokens[index].start]))

    def without_negation_in(self, spans: Iterable[tuple[int, int]]) -> SentenceAnalysis:
        """The same analysis with no negative word inside ``spans`` (the names of the
        sentence): "Pas de velours" or "Plus fort que la mort" negates nothing."""
        spans = list(spans)
        inside = {t.index for t in self.tokens if t.negative and any(start <= t.start < end for start, end in spans)}
        if not inside:
            return self
        tokens = tuple(replace(t, negative=False) if t.index in inside else t for t in self.tokens)
        return SentenceAnalysis(self.text, tokens, _clauses(tokens, self.text))

    def negated(self, index: int) -> bool:
        """Negation scope: the clause that holds the token is negated, or a negative word
        (ni, aucun, sans) governs the token itself."""
        if self.clause_of(index).negated:
            return True
        return any(child.negative for child in self.children(index))

    @cached_property
    def folded(self) -> str:
        return fold(self.text)


def _clauses(tokens: tuple[Token, ...], text: str) -> tuple[Clause, ...]:
    """Clause heads are the root, and verbs (or predicates) attached as clauses; each token
    belongs to the nearest clause head above it."""
    vocabulary = words()
    clause_deps = {"ROOT", "advcl", "ccomp", "acl", "acl:relcl", "conj", "xcomp", "csubj", "parataxis"}
    heads = [t.index for t in tokens if t.dep == "ROOT" or (t.dep in clause_deps and (t.is_verb or t.dep != "conj"))]
    if not heads:
        heads = [0]
    head_set = set(heads)
    members: dict[int, set[int]] = {h: {h} for h in heads}
    for token in tokens:
        if token.index in head_set:
            continue
        current, seen = token.index, set()
        while current not in head_set and current not in seen:
            seen.add(current)
            current = tokens[current].head
        members.get(current, members[heads[0]]).add(token.index)
    clauses = []
    for head in heads:
        inside = members[head]
        marks = sorted(t.index for t in tokens if t.head == head and t.dep in ("mark", "advmod", "case") and t.index < head)
        span_start = min(inside)
        # The words that open the clause: its markers and what stands before its first word.
        opening = _unelide(fold(text[tokens[span_start].start : tokens[head].start]))
        opening_marks = _unelide(" ".join(fold(tokens[i].text) for i in marks))
        before = _unelide(fold(text[max(0, tokens[span_start].start - 12) : tokens[span_start].start]))
        kind, marker = "main", ""
        for phrase in vocabulary.concession_markers:
            if _starts_with_phrase(opening, phrase) or before.endswith(phrase) or _starts_with_phrase(opening_marks, phrase):
                kind, marker = "concession", phrase
                break
        else:
            for phrase in vocabulary.condition_markers:
                if tokens[head].dep in ("advcl", "acl", "obl", "conj", "ccomp") or head != tokens[head].head:
                    if _starts_with_phrase(opening, phrase) or _starts_with_phrase(opening_marks, phrase):
                        kind, marker = "condition", phrase
                        break
            else:
                if tokens[head].dep.startswith("acl"):
                    kind = "relative"
        negated = any(tokens[i].negative and tokens[i].head == head for i in inside) or any(
            tokens[i].negative and tokens[tokens[i].head].head == head and tokens[tokens[i].head].is_verb for i in inside)
        modal = None
        for candidate in [head, tokens[head].head] + [t.index for t in tokens if t.head == head and t.is_verb]:
            if fold(tokens[candidate].lemma) in vocabulary.modal_lemmas:
                modal = fold(tokens[candidate].lemma)
                break
        clauses.append(Clause(head, kind, marker, negated, modal, frozenset(inside)))
    # "ne peuvent pas utiliser X": an infinitive complement shares its governing verb's
    # negation and modality; a privative verb negates it ("cesse de bénéficier de X").
    by_head = {c.head: c for c in clauses}
    for position, clause in enumerate(clauses):
        token = tokens[clause.head]
        parent = by_head.get(token.head)
        if token.dep == "xcomp" and parent is not None and parent.head != clause.head:
            privative = fold(tokens[parent.head].lemma) in vocabulary.privative_lemmas
            negated = clause.negated or (parent.negated != privative)
            clauses[position] = replace(clause, negated=negated, modal=clause.modal or parent.modal)
    return tuple(clauses)


_SEGMENT_ENDS = frozenset({";", ":", ".", "!", "?"})


@cache
def _marker_pattern(markers: tuple[str, ...]) -> re.Pattern[str]:
    alternation = "|".join(re.escape(marker) for marker in markers)
    return re.compile(rf"(?<!\w)(?:{alternation})(?!\w)")


def _unelide(folded: str) -> str:
    """"s'il" is "si il": the condition and concession markers are written unelided."""
    pattern, replacement = _elision()
    return pattern.sub(replacement, folded)


@cache
def _elision() -> tuple[re.Pattern[str], str]:
    elision = lang_words("elision")
    return re.compile(elision["pattern"]), elision["replacement"]


def _starts_with_phrase(text: str, phrase: str) -> bool:
    return text == phrase or text.startswith(phrase + " ") or (phrase.endswith("'") and text.startswith(phrase))


def analysis_from_rows(text: str, rows: list[Row]) -> SentenceAnalysis:
    """Rebuild an analysis from the compact rows the cache stores."""
    vocabulary = words()
    negation, lemmas = vocabulary.negation_words, vocabulary.abbreviation_lemmas
    folded = [fold(row[0]) for row in rows]
    restrictions = _ne_que(folded)
    particles, partners = set(restrictions), set(restrictions.values())
    tokens = tuple(
        Token(i, row[0], lemmas[folded[i]] if folded[i] in lemmas else row[1], row[2], row[3], row[4], row[5],
              i not in particles and (folded[i] in negation or bool(row[6])), i in partners)
        for i, row in enumerate(rows)
    )
    return SentenceAnalysis(text, tokens, _clauses(tokens, text) if tokens else ())


def _ne_que(folded: list[str]) -> dict[int, int]:
    """Each "ne" whose first partner is "que" ("ne … que": only), not "pas", "jamais", "aucun",
    mapped to that "que"."""
    vocabulary = words()
    pairs = {}
    for index, word in enumerate(folded):
        if word not in vocabulary.negative_particles:
            continue
        for position in range(index + 1, len(folded)):
            partner = folded[position]
            if partner in _SEGMENT_ENDS or partner in vocabulary.negative_partners:
                break
            if partner in vocabulary.restrictive_partners:
                if position + 1 < len(folded) and folded[position + 1] in vocabulary.clause_subjects:
                    continue  # "ou qu'il possède X": a conjunction opening a clause
                pairs[index] = position
                break
    return pairs


def _rows(doc: Doc) -> list[Row]:
    return [[t.text, t.lemma_, t.pos_, t.dep_, t.head.i, t.idx, int("Neg" in t.morph.get("Polarity", []))] for t in doc]


def default_cache_path() -> Path:
    return cache_folder() / "parses.sqlite"


class ParseCache:
    """Parses on disk, keyed by model, model version and sentence text."""

    def __init__(self, path: Path | None):
        self.path = path
        self._connection: sqlite3.Connection | None = None

    def _open(self) -> sqlite3.Connection | None:
        if self.path is None:
            return None
        if self._connection is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._connection = sqlite3.connect(self.path, timeout=30)
                self._connection.execute("CREATE TABLE IF NOT EXISTS parse (key TEXT PRIMARY KEY, rows TEXT NOT NULL)")
            except (OSError, sqlite3.Error):
                # An unwritable cache folder only costs speed: parse every time.
                self.path, self._connection = None, None
        return self._connection

    @staticmethod
    def key(model: str, text: str) -> str:
        return hashlib.sha256(f"{model}\0{text}".encode()).hexdigest()

    def get_many(self, model: str, texts: list[str]) -> dict[str, list[Row]]:
        connection = self._open()
        if connection is None or not texts:
            return {}
        keys = {self.key(model, t): t for t in texts}
        found: dict[str, list[Row]] = {}
        items = list(keys)
        for begin in range(0, len(items), 500):
            chunk = items[begin : begin + 500]
            marks = ",".join("?" * len(chunk))
            for key, rows in connection.execute(f"SELECT key, rows FROM parse WHERE key IN ({marks})", chunk):
                found[keys[key]] = json.loads(rows)
        return found

    def put_many(self, model: str, parsed: dict[str, list[Row]]) -> None:
        connection = self._open()
        if connection is None or not parsed:
            return
        try:
            with connection:
                connection.executemany(
                    "INSERT OR REPLACE INTO parse (key, rows) VALUES (?, ?)",
                    [(self.key(model, t), json.dumps(rows, ensure_ascii=False, separators=(",", ":"))) for t, rows in parsed.items()],
                )
        except sqlite3.Error:
            pass


#: The name of the pipeline step that keeps a sentence whole after an abbreviation.
_NO_CUT_AFTER_ABBREVIATION = "rulegraph_no_cut_after_abbreviation"


def _no_cut_after_abbreviation(doc: Doc) -> Doc:
    """The parser cut "la fig. a X" or "un adv. doté de X" after the abbreviation's point and left
    the name in a tree of its own, with no verb to govern it. ``text.sentences`` knows the
    abbreviations and did not cut there; the parser may still cut elsewhere ("Q : … ? R : …")."""
    abbreviations = _abbreviation_set()
    for previous, token in zip(doc, doc[1:]):
        if previous.text in abbreviations:
            token.is_sent_start = False
    return doc


def _abbreviations() -> list[str]:
    """The abbreviations the sentence cutter knows ("fig.", "adv."), as written and capitalised:
    one token each for the parser, not a word and a full stop."""
    written = lang_words("text")["abbreviations"]
    return sorted({form for word in written for form in (word, word[:1].upper() + word[1:])})


@cache
def _abbreviation_set() -> frozenset[str]:
    return frozenset(_abbreviations())


@cache
def _load_pipeline() -> Language:
    try:
        import spacy
        from spacy.language import Language as SpacyLanguage

        pipeline = spacy.load(MODEL, exclude=_EXCLUDED)
    except (ImportError, OSError) as error:
        raise RulegraphError(_("the French parser {model} is not installed ({error}); run 'make run' or 'pip install -e .' to install it").format(model=MODEL, error=error)) from None
    if _NO_CUT_AFTER_ABBREVIATION not in SpacyLanguage.factories:
        SpacyLanguage.component(_NO_CUT_AFTER_ABBREVIATION, func=_no_cut_after_abbreviation)
    pipeline.add_pipe(_NO_CUT_AFTER_ABBREVIATION, before="parser")
    tokenizer: Any = pipeline.tokenizer  # a spacy.tokenizer.Tokenizer, typed as a plain callable
    for abbreviation in _abbreviations():
        tokenizer.add_special_case(abbreviation, [{"ORTH": abbreviation}])
    return pipeline


@cache
def model_id() -> str:
    """The model's name and version, read from its package metadata without loading spaCy, and
    what this module changes in its pipeline: a parse cached before a change is not reused."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        release = version(MODEL)
    except PackageNotFoundError:
        release = "unknown"
    changes = hashlib.sha256("\0".join([_NO_CUT_AFTER_ABBREVIATION, *_abbreviations()]).encode()).hexdigest()[:12]
    return f"{MODEL}-{release}+{changes}"


class Analyser:
    """Analyses sentences, through the cache; spaCy loads on the first miss only."""

    def __init__(self, cache_path: Path | None = None, *, use_cache: bool = True, progress: Progress | None = None):
        self.cache = ParseCache((cache_path or default_cache_path()) if use_cache else None)
        self.progress = progress
        self._memory: dict[str, SentenceAnalysis] = {}
        self.parsed = 0

    def analyse_many(self, texts: Iterable[str]) -> dict[str, SentenceAnalysis]:
        texts = list(texts)
        wanted = [t for t in dict.fromkeys(texts) if t not in self._memory]
        model = model_id()
        rows = self.cache.get_many(model, wanted)
        missing = [t for t in wanted if t not in rows]
        if missing:
            if self.progress is not None:
                self.progress(0, len(missing))  # loading spaCy takes seconds: say so first
            pipeline = _load_pipeline()
            fresh: dict[str, list[Row]] = {}
            for done, (text, doc) in enumerate(zip(missing, pipeline.pipe(missing, batch_size=64)), start=1):
                fresh[text] = _rows(doc)
                if self.progress is not None and (done % 200 == 0 or done == len(missing)):
                    self.progress(done, len(missing))
            self.cache.put_many(model, fresh)
            self.parsed += len(fresh)
            rows.update(fresh)
        for text in wanted:
            self._memory[text] = analysis_from_rows(text, rows[text])
        return {t: self._memory[t] for t in texts}

    def analyse(self, text: str) -> SentenceAnalysis:
        return self.analyse_many([text])[text]
