"""The relation typer: a trained linear model decides the type and direction of every
ability-to-ability edge, from features of the sentence analysis (dependency path, governing verb,
negation, modality, conditions, which mention is the ability itself) and the cue rules' own reading.

The model is a small JSON file in the package (``resources/typer.json``), trained by
``make train`` (:mod:`rulegraph.extract.training`); a build only reads it, with plain Python
(no scikit-learn import). Its confidence is calibrated on a leave-one-glossary-out
cross-validation; below the model's threshold an edge stays ``references`` and carries the
likely relation as ``suggested``, for the designer to review.
"""

from __future__ import annotations

import json
import math
import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources

from ..model import Statement, TermRef
from ..namespaces import SYMMETRIC
from ..text import fold
from .analysis import Analyser, SentenceAnalysis, words

MODEL_RESOURCE = "typer.json"
#: The label of an edge that the cue rules typed, for the model: relation and direction
#: (">" the ability whose text it is acts on the other, "<" the other way round).
FORWARD, BACKWARD = ">", "<"
#: The cue rules' reading counts this much more than one word or syntactic feature: chosen by
#: leave-one-glossary-out cross-validation (1: typed 0.723, 2: 0.748, 3: 0.753, 5: 0.767).
CUE_WEIGHT = 5.0
#: An edge said of a whole category reaches its members only this sure: one wrong reading is
#: repeated once per member, and the calibration, learnt mostly on single edges, overrates them
#: (over the 206 gold sets, in sample: 23 of 147 category edges right between the threshold and
#: 0.8, 130 of 174 above).
CATEGORY_CONFIDENCE = 0.8
#: The feature word of a word that counts ("un seul") rather than restricts (see ``counts``).
COUNT = "#compte"


def is_candidate(statement: Statement) -> bool:
    """An ability-to-ability edge the extractor read in a sentence (not curated, not a term)."""
    return (statement.subject.kind == "ability" and statement.object.kind == "ability"
            and statement.span is not None and statement.owner is not None)


def own_label(statement: Statement) -> str:
    """The statement's relation and direction, seen from the ability whose text it is in."""
    if statement.relation in SYMMETRIC or statement.relation == "references":
        return statement.relation
    forward = fold(statement.subject.label) == fold(statement.owner or "")
    return statement.relation + (FORWARD if forward else BACKWARD)


def relation_of(label: str) -> str:
    """``grants>`` → ``grants``: a label's relation, without its direction."""
    return label.rstrip(FORWARD + BACKWARD)


def with_label(statement: Statement, label: str) -> Statement:
    """The statement retyped to ``label``, its subject and object set by the label's direction."""
    relation = relation_of(label)
    owner = fold(statement.owner or "")
    if fold(statement.subject.label) == owner:
        me, other = statement.subject, statement.object
    else:
        me, other = statement.object, statement.subject
    subject, obj = (other, me) if label.endswith(BACKWARD) else (me, other)
    if relation in SYMMETRIC or relation == "references":
        subject, obj = me, other
    recipient = statement.recipient if relation == "grants" else None
    if relation == "grants" and recipient is None:
        recipient = "bearer"
    return replace(statement, subject=subject, relation=relation, object=obj, recipient=recipient)


#: A sentence that ends as a question, closing quotes or brackets aside.
_QUESTION_END = re.compile(r"\?[\s)\]»\"']*$")


def features(statement: Statement, analysis: SentenceAnalysis) -> dict[str, float]:
    """What the model reads about one edge: the cue rules' reading, and the sentence's syntax
    around the other ability's mention and the ability itself. ``analysis`` is the sentence's,
    without the negative words inside its names (see :func:`analyses_without_names`)."""
    vocabulary = words()
    assert statement.span is not None
    out: dict[str, float] = {"bias": 1.0}
    if statement.relation != "references":
        out[f"cue={own_label(statement)}"] = CUE_WEIGHT
    if statement.cue:
        out[f"cueword={fold(statement.cue).split()[0]}"] = 1.0
    mention = analysis.span_head(*statement.span)
    token = analysis.tokens[mention]
    clause = analysis.clause_of(mention)
    governor = analysis.tokens[clause.head]
    negated = analysis.negated(mention)
    out[f"gov={governor.key}"] = 1.0
    out[f"mdep={token.dep.split(':')[0]}"] = 1.0
    out[f"path={analysis.path(mention, governor.index)}"] = 1.0
    for child in analysis.children(mention):
        if child.dep == "case" or child.pos == "ADP":
            out[f"case={child.key}"] = 1.0
    for distance in (1, 2):
        index = mention - distance
        while index >= 0 and analysis.tokens[index].start >= statement.span[0]:
            index -= 1
        if index >= 0:
            out[f"left{distance}={analysis.tokens[index].key}"] = 1.0
    if negated:
        out["neg"] = 1.0
        out[f"gov={governor.key}&neg"] = 1.0
        out[f"cue={own_label(statement)}&neg"] = 1.0
    sentence_negated = any(c.negated for c in analysis.clauses)
    if sentence_negated:
        out["sentence_neg"] = 1.0
    if clause.modal:
        out[f"modal={clause.modal}"] = 1.0
        if negated:
            out[f"modal={clause.modal}&neg"] = 1.0
    if analysis.restricted(mention):
        # "ne peut être utilisé que si la figurine a X": only with X (requires), not "not X".
        out["restricted"] = 1.0
        out[f"gov={governor.key}&restricted"] = 1.0
        if clause.modal:
            out[f"modal={clause.modal}&restricted"] = 1.0
    if analysis.in_condition(mention):
        out["mention_in_condition"] = 1.0
        if negated:
            out["mention_in_condition&neg"] = 1.0
    if analysis.in_concession(mention):
        out["mention_in_concession"] = 1.0
    if analysis.in_exception(mention):
        # "gagne +1, sauf contre un adversaire doté de X": X's bearers are exempt from the
        # ability; "n'est pas affectée par la Peur, sauf contre X": an exception to an immunity.
        out["mention_in_exception"] = 1.0
        out[f"mention_in_exception&{'sentence_neg' if sentence_negated else 'sentence_pos'}"] = 1.0
        out[f"mention_in_exception&self_{'implicit' if not statement.selves else 'explicit'}"] = 1.0
    if analysis.in_contrast(mention):
        # "immunisé à la Peur, mais pas à la Terreur": the statement leaves X out (a mention);
        # "cumulable avec un Gilet, mais pas avec X": the contrast is the relation (excludes).
        out["mention_in_contrast"] = 1.0
        out[f"mention_in_contrast&cue={own_label(statement)}"] = 1.0
    if clause.kind == "relative":
        out["mention_in_relative"] = 1.0
    clause_words = {analysis.tokens[i].key for i in clause.tokens}
    if clause_words & vocabulary.opponent_words:
        out["opponent_in_clause"] = 1.0
    elif any(t.key in vocabulary.opponent_words for t in analysis.tokens):
        out["opponent_in_sentence"] = 1.0
    selves = [analysis.span_head(*span) for span in statement.selves]
    # Who loses or keeps the other ability: the bearer ("il perd X": cancels) or someone the
    # ability touched ("la figurine touchée perd X": negates).
    subject = analysis.subject_kind(mention, selves)
    out[f"subject={subject}"] = 1.0
    if statement.relation != "references":
        out[f"subject={subject}&cue={own_label(statement)}"] = 1.0
    if _QUESTION_END.search(statement.sentence):
        # "Q : et si l'adversaire a Contre-attaque ?": a question asks, the answer states.
        out["question"] = 1.0
        if statement.relation != "references":
            out[f"question&cue={own_label(statement)}"] = 1.0
    if statement.owner_targets:
        out["owner_targets"] = 1.0
    if not selves:
        out["self_implicit"] = 1.0
    for own in selves[:2]:
        own_token = analysis.tokens[own]
        out["self_before" if own < mention else "self_after"] = 1.0
        out[f"self_dep={own_token.dep.split(':')[0]}"] = 1.0
        if analysis.clause_of(own).head == clause.head:
            out["self_same_clause"] = 1.0
            out[f"self_{'before' if own < mention else 'after'}&{token.dep.split(':')[0]}"] = 1.0
        if analysis.in_condition(own):
            out["self_in_condition"] = 1.0
    span_tokens = {t.index for t in analysis.tokens if t.start < statement.span[1] and t.end > statement.span[0]}
    counts = analysis.counts()

    def word(index: int) -> str:
        return COUNT if index in counts else analysis.tokens[index].key

    for index in clause.tokens:
        other = analysis.tokens[index]
        if index not in span_tokens and other.pos in ("VERB", "AUX", "ADJ", "NOUN", "ADV", "ADP", "SCONJ"):
            out[f"clause={word(index)}"] = 0.5
    for index in range(max(0, min(span_tokens, default=mention) - 4), min(span_tokens, default=mention)):
        out[f"before={word(index)}"] = 0.5
    for index in analysis.ancestors(mention)[:3]:
        out[f"head={analysis.tokens[index].key}"] = 0.5
    for other in analysis.tokens:
        if other.is_verb and other.index != governor.index:
            out[f"verb={other.key}"] = 0.3
    near = set(range(max(0, mention - 5), min(len(analysis.tokens), mention + 4)))
    for relation, lemmas in vocabulary.relation_words.items():
        in_clause = any(analysis.tokens[i].key in lemmas or fold(analysis.tokens[i].text) in lemmas for i in clause.tokens if i not in counts)
        if in_clause:
            out[f"lex={relation}"] = 1.0
            out[f"lex={relation}&{'neg' if negated else 'pos'}"] = 1.0
            out[f"lex={relation}&self_{'implicit' if not selves else ('before' if selves[0] < mention else 'after')}"] = 1.0
        if any(analysis.tokens[i].key in lemmas or fold(analysis.tokens[i].text) in lemmas for i in near if i not in counts):
            out[f"lexnear={relation}"] = 1.0
    return out


@dataclass(frozen=True, slots=True)
class Prediction:
    label: str
    probability: float
    confidence: float
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TypingModel:
    """A multinomial logistic model over sparse features, with its calibration curve."""

    classes: tuple[str, ...]
    intercept: tuple[float, ...]
    weights: dict[str, tuple[float, ...]]
    calibration_x: tuple[float, ...] = ()
    calibration_y: tuple[float, ...] = ()
    threshold: float = 0.0
    #: How sure an edge said of a whole category must be to reach its members.
    category_threshold: float = CATEGORY_CONFIDENCE

    def probabilities(self, feature_values: dict[str, float]) -> list[float]:
        logits = list(self.intercept)
        for name, value in feature_values.items():
            row = self.weights.get(name)
            if row is not None:
                for k, weight in enumerate(row):
                    logits[k] += weight * value
        top = max(logits)
        exps = [math.exp(v - top) for v in logits]
        total = sum(exps)
        return [e / total for e in exps]

    def calibrate(self, probability: float) -> float:
        """The observed accuracy of cross-validated predictions this sure (isotonic, interpolated)."""
        xs, ys = self.calibration_x, self.calibration_y
        if not xs:
            return probability
        if probability <= xs[0]:
            return ys[0]
        if probability >= xs[-1]:
            return ys[-1]
        k = bisect_right(xs, probability)
        x0, x1, y0, y1 = xs[k - 1], xs[k], ys[k - 1], ys[k]
        return y0 if x1 == x0 else y0 + (y1 - y0) * (probability - x0) / (x1 - x0)

    def predict(self, feature_values: dict[str, float], denied: str | None = None) -> Prediction:
        """The likeliest relation; one the sentence ``denied`` ("n'obtient pas X": grants) is
        ruled out, in either direction, and the others share its probability."""
        probabilities = self.probabilities(feature_values)
        if denied is not None:
            probabilities = [0.0 if relation_of(c) == denied else p for c, p in zip(self.classes, probabilities, strict=True)]
            total = sum(probabilities) or 1.0
            probabilities = [p / total for p in probabilities]
        best = max(range(len(self.classes)), key=lambda k: (probabilities[k], -k))
        contributions = sorted(
            ((self.weights[name][best] * value, name) for name, value in feature_values.items()
             if name in self.weights and name != "bias"),
            reverse=True,
        )
        reasons = tuple(name for weight, name in contributions[:3] if weight > 0)
        probability = probabilities[best]
        return Prediction(self.classes[best], probability, self.calibrate(probability), reasons)

    def to_json(self) -> str:
        data = {
            "format": 1,
            "classes": list(self.classes),
            "intercept": [round(v, 6) for v in self.intercept],
            "threshold": round(self.threshold, 4),
            "calibration": {"x": [round(v, 6) for v in self.calibration_x], "y": [round(v, 6) for v in self.calibration_y]},
            "weights": {name: [round(v, 6) for v in row] for name, row in sorted(self.weights.items())},
        }
        return json.dumps(data, ensure_ascii=False, indent=0, sort_keys=False) + "\n"

    @classmethod
    def from_json(cls, text: str) -> TypingModel:
        data = json.loads(text)
        return cls(
            classes=tuple(data["classes"]),
            intercept=tuple(data["intercept"]),
            weights={name: tuple(row) for name, row in data["weights"].items()},
            calibration_x=tuple(data["calibration"]["x"]),
            calibration_y=tuple(data["calibration"]["y"]),
            threshold=float(data["threshold"]),
        )


@cache
def shipped_model() -> TypingModel | None:
    """The model shipped in the package, or None before the first ``make train``."""
    resource = resources.files("rulegraph.resources").joinpath(MODEL_RESOURCE)
    if not resource.is_file():
        return None
    return TypingModel.from_json(resource.read_text("utf-8"))


def _shared_by_conjuncts(statements: list[Statement], predictions: dict[int, Prediction],
                         analyses: dict[str, SentenceAnalysis]) -> dict[int, int]:
    """Names coordinated in one sentence of one ability's text ("Parade et Leste cessent de
    fonctionner pour elle", "Ni Exorcisme ni Intercession n'ont de prise sur elle") stand in the
    same relation to it: each takes the surest prediction among them (statement index → the
    index whose prediction it takes). The parse joins them as conjuncts; the second one's own
    syntax (a "conj" far from the verb) says little."""
    groups: dict[tuple[str, str, int], list[int]] = {}
    for index in predictions:
        statement = statements[index]
        assert statement.span is not None
        analysis = analyses[statement.sentence]
        head = analysis.span_head(*statement.span)
        while analysis.tokens[head].dep.startswith("conj") and analysis.tokens[head].head != head:
            head = analysis.tokens[head].head
        groups.setdefault((statement.sentence, fold(statement.owner or ""), head), []).append(index)
    shared: dict[int, int] = {}
    for members in groups.values():
        if len(members) > 1:
            surest = max(members, key=lambda index: (predictions[index].confidence, -index))
            shared.update({index: surest for index in members if index != surest})
    return shared


def in_former_edition(statement: Statement, analysis: SentenceAnalysis) -> bool:
    """The edge is a rule of a former edition, no longer in force: the sentence names that edition
    ("en V1", "dans la première édition") and the verb of the other ability's clause is in the
    imperfect ("annulait", "étaient incompatibles"). "désormais, seule une figurine dotée de
    Régent…" in the same sentence is the rule in force."""
    vocabulary = words()
    if statement.span is None or vocabulary.former_edition.search(fold(statement.sentence)) is None:
        return False
    head = analysis.clause_of(analysis.span_head(*statement.span)).head
    # "étaient incompatibles": the parse heads the clause with the adjective, its copula a child.
    verbs = [analysis.tokens[head], *(t for t in analysis.children(head) if t.dep.split(":")[0] in ("cop", "aux"))]
    return any(fold(verb.text).endswith(vocabulary.imperfect_endings) and fold(verb.text) not in vocabulary.imperfect_exceptions
               for verb in verbs)


def _rule(prediction: Prediction) -> str:
    shown = ", ".join(prediction.reasons) if prediction.reasons else "prior"
    return f"typer ({shown})"


#: Relations an ability cannot have with itself ("Acharné grants Acharné" misreads "un combattant
#: en Furie est considéré comme Acharné"); Terreur can be immune to another's Terreur.
_NEVER_OF_ITSELF = frozenset({"grants", "requires"})


def type_statements(statements: Iterable[Statement], model: TypingModel, analyser: Analyser) -> list[Statement]:
    """Every candidate edge typed by the model, with its calibrated confidence and what decided
    it; an edge below the threshold stays references and carries ``suggested``. An edge said of
    a whole category reaches each member only with an asserted relation: "les capacités de
    Survie coûtent moins" names the category and says nothing of each member, and an unsure
    relation would put the same doubt "à vérifier" once per member (a preamble's "une capacité
    suivie d'un X (par exemple Éperon 2)" made 44); see ``CATEGORY_CONFIDENCE``."""
    statements = list(statements)
    analyses = analyses_without_names(analyser.analyse_many(s.sentence for s in statements if is_candidate(s)), statements)
    predictions = {index: model.predict(features(statement, analyses[statement.sentence]), statement.denied)
                   for index, statement in enumerate(statements) if is_candidate(statement)}
    shared = _shared_by_conjuncts(statements, predictions, analyses)
    out = []
    for index, statement in enumerate(statements):
        if not is_candidate(statement):
            out.append(statement)
            continue
        analysis = analyses[statement.sentence]
        prediction = predictions[shared.get(index, index)]
        rule = _rule(prediction) if index not in shared else f"{_rule(prediction)}, shared with its coordinated name"
        confidence = round(prediction.confidence, 3)
        if in_former_edition(statement, analysis):
            prediction = replace(prediction, label="references")
            confidence = round(model.calibrate(1.0), 3)
            rule = "former edition (an edition marker, and the imperfect: the relation no longer holds)"
        if statement.via_category and (prediction.label == "references" or prediction.confidence < model.category_threshold):
            continue
        if statement.subject == statement.object and relation_of(prediction.label) in _NEVER_OF_ITSELF:
            continue
        if prediction.label == "references":
            out.append(replace(with_label(statement, "references"), confidence=confidence, rule=rule))
        elif prediction.confidence < model.threshold:
            typed = with_label(statement, prediction.label)
            suggestion = f"{typed.subject.label} {typed.relation} {typed.object.label}"
            out.append(replace(with_label(statement, "references"), confidence=confidence, rule=rule,
                               suggested=typed.relation, reason=suggestion if statement.reason is None else statement.reason))
        else:
            out.append(replace(with_label(statement, prediction.label), confidence=confidence, rule=rule))
    return _deduplicated(out)


def analyses_without_names(analyses: dict[str, SentenceAnalysis], statements: Iterable[Statement]) -> dict[str, SentenceAnalysis]:
    """Each sentence's analysis with no negative word inside the names its edges join ("Pas de
    velours", "Plus fort que la mort" negate nothing)."""
    spans: dict[str, set[tuple[int, int]]] = {}
    for statement in statements:
        if statement.span is not None:
            spans.setdefault(statement.sentence, set()).update((statement.span, *statement.selves))
    return {sentence: analysis.without_negation_in(spans.get(sentence, ())) for sentence, analysis in analyses.items()}


def _deduplicated(statements: list[Statement]) -> list[Statement]:
    """One edge per subject, relation, object, edition and line once retyping has merged some."""
    seen: set[tuple[TermRef, str, TermRef, str | None, int, str]] = set()
    out = []
    for statement in statements:
        key = (statement.subject, statement.relation, statement.object, statement.edition, statement.line, statement.sentence)
        if key not in seen:
            seen.add(key)
            out.append(statement)
    return out
