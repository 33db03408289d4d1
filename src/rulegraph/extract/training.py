"""Training and cross-validating the relation typer on the annotated glossaries.

Each candidate edge the cue rules find in a gold set is an example; its label is the gold
relation and direction of the same pair stated on the same line (or the nearest line within two),
seen from the ability whose text holds the sentence. A candidate whose pair the gold does not
link teaches nothing about typing and is left out.

``cross_validate`` leaves one glossary out at a time: every set is typed by a model trained
without it, which gives the honest figures and the points of the calibration curve; ``train``
then fits the shipped model on every set, with that curve. scikit-learn is imported here only.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..corpus import Corpus, load_corpus
from ..model import Statement
from ..namespaces import SYMMETRIC
from ..text import fold
from .analysis import Analyser
from .cues import load_cues
from .curation import curation_path, load_curation
from .extractor import extract_corpus
from .typer import BACKWARD, FORWARD, TypingModel, analyses_without_names, features, is_candidate, type_statements

if TYPE_CHECKING:
    from ..evaluation import Edge, Pair

#: Inverse regularisation strength of the logistic model: chosen by cross-validation.
C = 0.5
SEED = 0
_LINE_SLACK = 2


@dataclass(frozen=True, slots=True)
class Example:
    set_name: str
    statement: Statement
    features: dict[str, float]
    label: str


@dataclass(slots=True)
class GoldSet:
    name: str
    gold_path: Path
    manifest: Path
    statements: list[Statement]
    examples: list[Example]


def _gold_label(row: Edge, owner: str) -> str:
    """A gold row's relation and direction, seen from the ability whose text holds the sentence."""
    if row.relation in SYMMETRIC or row.relation == "references":
        return row.relation
    return row.relation + (FORWARD if fold(row.subject) == fold(owner) else BACKWARD)


def _curated_rows(manifest: Path, corpus: Corpus) -> list[Edge]:
    """A designer's retypes and additions count as gold (``rulegraph review`` writes them)."""
    from ..evaluation import Edge

    path = curation_path(manifest)
    if not path.is_file():
        return []
    rows = []
    for entry in load_curation(path, corpus):
        if entry.action in ("retype", "add"):
            rows.append(Edge(entry.subject.game, entry.subject.label, entry.relation, entry.object.label, 0, entry.sentence or ""))
    return rows


def load_gold_set(name: str, gold_path: Path, manifest: Path, analyser: Analyser) -> GoldSet:
    from ..evaluation import load_gold

    corpus = load_corpus(manifest)
    statements = extract_corpus(corpus, load_cues(), rules_only=True)
    gold = load_gold(gold_path)
    by_pair: dict[Pair, list[Edge]] = defaultdict(list)
    for row in gold:
        by_pair[row.pair].append(row)
    curated = {row.pair: row for row in _curated_rows(manifest, corpus)}
    candidates = [s for s in statements if is_candidate(s)]
    analyses = analyses_without_names(analyser.analyse_many(s.sentence for s in candidates), statements)
    examples = []
    for statement in candidates:
        pair = (statement.subject.game, frozenset((fold(statement.subject.label), fold(statement.object.label))))
        owner = statement.owner or statement.subject.label
        if pair in curated:
            label = _gold_label(curated[pair], owner)
        else:
            rows = by_pair.get(pair, [])
            sentence = fold(statement.sentence)
            same = [r for r in rows if r.sentence and (sentence in fold(r.sentence) or fold(r.sentence) in sentence)]
            near = [r for r in rows if abs(r.line - statement.line) <= _LINE_SLACK]
            if not (same or near):
                continue
            label = _gold_label(min(same or near, key=lambda r: abs(r.line - statement.line)), owner)
        examples.append(Example(name, statement, features(statement, analyses[statement.sentence]), label))
    return GoldSet(name, gold_path, manifest, statements, examples)


def fit(examples: list[Example], c: float = C) -> TypingModel:
    """A multinomial logistic regression over the examples' sparse features."""
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    # Every example is also shown without the cue rules' reading. On the glossaries the cues
    # were written from, a silent cue almost always meant "references", and a model that learns
    # that calls every new author's phrasing a plain mention; the copies make the words and the
    # syntax carry the relation on their own (seven glossaries the cues were not written from:
    # typed 0.61 → 0.65 on average).
    rows = [e.features for e in examples] + [_without_cues(e.features) for e in examples]
    labels = [e.label for e in examples] * 2
    vectorizer = DictVectorizer(sort=True)
    matrix = vectorizer.fit_transform(rows)
    classifier = LogisticRegression(C=c, solver="newton-cg", max_iter=1000, random_state=SEED)
    classifier.fit(matrix, labels)
    classes = tuple(str(k) for k in classifier.classes_)
    coefficients = classifier.coef_
    intercept = classifier.intercept_
    if len(classes) == 2:  # scikit-learn keeps one row for two classes: spell both out.
        coefficients = [-coefficients[0] / 2, coefficients[0] / 2]
        intercept = [-intercept[0] / 2, intercept[0] / 2]
    names = vectorizer.get_feature_names_out()
    weights = {}
    for column, name in enumerate(names):
        row = tuple(float(coefficients[k][column]) for k in range(len(classes)))
        if any(abs(w) >= 1e-4 for w in row):
            weights[str(name)] = row
    return TypingModel(classes, tuple(float(v) for v in intercept), weights)


def _without_cues(feature_values: dict[str, float]) -> dict[str, float]:
    return {k: v for k, v in feature_values.items() if not k.startswith(("cue=", "cueword="))}


@dataclass(slots=True)
class CrossValidation:
    """Each set typed by a model trained without it, with the calibration and threshold the
    shipped model gets (``thresholded``: unsure edges left as references with a suggestion, the
    model's best guess)."""

    thresholded: dict[str, list[Statement]]
    #: (the held-out model's probability, right?) of every held-out example.
    points: list[tuple[float, bool]]
    calibration: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())
    threshold: float = 0.0


def cross_validate(sets: list[GoldSet], analyser: Analyser, c: float = C) -> CrossValidation:
    points: list[tuple[float, bool]] = []
    models: dict[str, TypingModel] = {}
    for held_out in sets:
        training = [e for s in sets if s is not held_out for e in s.examples]
        model = models[held_out.name] = fit(training, c)
        for example in held_out.examples:
            prediction = model.predict(example.features, example.statement.denied)
            points.append((prediction.probability, prediction.label == example.label))
    xs, ys = calibration_curve(points)
    calibrated = replace(models[sets[0].name], calibration_x=xs, calibration_y=ys)
    threshold = choose_threshold(points, calibrated)
    thresholded = {
        s.name: type_statements(s.statements, replace(models[s.name], calibration_x=xs, calibration_y=ys, threshold=threshold), analyser)
        for s in sets
    }
    return CrossValidation(thresholded, points, (xs, ys), threshold)


def calibration_curve(points: list[tuple[float, bool]]) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Isotonic fit of observed accuracy against the model's probability."""
    from sklearn.isotonic import IsotonicRegression

    xs = [p for p, _ in points]
    ys = [1.0 if right else 0.0 for _, right in points]
    iso = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip", increasing=True)
    iso.fit(xs, ys)
    return tuple(float(v) for v in iso.X_thresholds_), tuple(float(v) for v in iso.y_thresholds_)


#: An edge is asserted only when cross-validated edges this sure were right this often.
TARGET_PRECISION = 0.9


def choose_threshold(points: list[tuple[float, bool]], model: TypingModel) -> float:
    """The lowest calibrated confidence above which the cross-validated predictions are right
    at least :data:`TARGET_PRECISION` of the time."""
    scored = sorted(((model.calibrate(p), right) for p, right in points), reverse=True)
    threshold, right_count = 1.0, 0
    for count, (confidence, right) in enumerate(scored, start=1):
        right_count += right
        if right_count / count >= TARGET_PRECISION:
            threshold = confidence
    return threshold


def train(sets: list[GoldSet], analyser: Analyser, c: float = C) -> tuple[TypingModel, CrossValidation]:
    """The shipped model: fitted on every set, calibrated and thresholded on the cross-validation."""
    validation = cross_validate(sets, analyser, c)
    xs, ys = validation.calibration
    model = replace(fit([e for s in sets for e in s.examples], c), calibration_x=xs, calibration_y=ys,
                    threshold=validation.threshold)
    return model, validation
