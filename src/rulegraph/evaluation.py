"""How well extraction agrees with a hand-written gold annotation.

A gold file is a TSV (``game subject relation object line evidence``; ``#`` lines are comments).
Only ability-to-ability edges count. A *link* is the unordered pair {subject, object} within a
game (names compared through :func:`rulegraph.text.fold`): link precision and recall say whether
the extractor finds the right pairs; *typed accuracy* is the share of found gold links whose
relation, and direction for a non-symmetric relation, agrees with the gold.

Per relation, the two sides are kept apart so that every figure has one meaning: a *gold* row
counts the gold links of that relation (how many were found: recall; how many of those were typed
as the gold: typed accuracy); a *found* row counts the links the extractor typed with that
relation (how many are gold links: precision; how many carry the gold's relation: typed
precision).

Run ``rulegraph evaluate`` (``make eval``) for the seeds and the invented glossaries, or
``rulegraph evaluate GOLD.tsv MANIFEST.toml`` for another pair.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from .corpus import load_corpus
from .errors import RulegraphError
from .extract.cues import load_cues
from .extract.curation import curate
from .extract.extractor import extract_corpus
from .files import read_text
from .i18n import _
from .model import Statement
from .namespaces import INTERACTIONS, SYMMETRIC
from .text import editor_lines, fold

#: The annotated sets ``make eval`` reports: name → (gold file, manifest), relative to the
#: repository's root (the CLI resolves them from the working folder, as it does data/corpus.toml).
GOLD_SETS: dict[str, tuple[Path, Path]] = {
    "seeds": (Path("tests/gold/seeds.tsv"), Path("data/corpus.toml")),
    "brumes": (Path("tests/gold/brumes.tsv"), Path("examples/brumes/corpus.toml")),
    **{name: (Path(f"tests/gold/{name}.tsv"), Path(f"tests/gold/{name}/corpus.toml"))
       for name in ("ronces", "marees", "coque-noire", "fourmilieres", "olympe", "sept-clans", "plomb",
                    "cendres", "caravanes", "sortileges", "tranchees", "abysses", "lanternes",
                    "pirates", "ruines", "orbitale", "grognards", "legions",
                    "marais", "steppes", "vigies", "brisants", "falaises", "dunes", "forges", "cryptes",
                    "far-west", "glaciers", "samourais", "stellaire", "catacombes", "templiers", "essaims", "vapeur",
                    "automates", "jungle", "gobelins", "nomades", "corsaires-du-ciel", "sabbat", "bastions", "mecha",
                    "galeres", "chevaliers", "neon", "dragons", "zombies", "druides", "pharaons", "tribus",
                    "vikings", "gladiateurs", "aztecques", "tanks", "sorciers-urbains", "fees", "robots-minage",
                    "mousquetaires", "elfes-noirs", "cosaques", "sumo", "kaiju", "pretoriens", "chasseurs-primes",
                    "alchimistes", "legionnaires-spatiaux", "ninjas", "investigateurs", "centaures", "atlantes",
                    "vampires", "moines-guerriers", "amazones", "golems", "nains-mineurs", "chasseurs-sorcieres",
                    "gardiens-temporels", "ogres", "minotaures", "chevaliers-teutoniques", "cyborgs-ninjas",
                    "sorcieres-vaudou", "pirates-des-sables", "titans", "mutants", "abordages", "yokai",
                    "arthuriens", "grands-anciens", "espions", "cathares", "conquistadors", "elfes-sylvains",
                    "londres", "legion-etrangere", "chamans", "cosmonautes", "bretons", "mamelouks", "sirenes",
                    "gangsters", "troglodytes", "sentinelles-polaires", "lutins", "hussards", "cartographes", "nagas",
                    "rois-maudits", "samurais-spatiaux", "mineurs-de-sel", "chevaliers-errants", "zouaves", "faunes",
                    "cyberpunks-lyon", "croises", "apaches-paris", "mayas", "geishas-ombre", "sous-mariniers",
                    "carnaval-venise", "gaulois", "ligue-hanseatique", "momies", "tanukis", "chevaliers-zodiaque",
                    "dirigeables", "corsaires-malouins", "alchimistes-prague", "golems-de-boue", "ronins-errants",
                    "clowns-macabres", "druides-celtes", "loups-garous", "vignerons-bourgogne", "cheminots-rouges",
                    "cartels-venus", "pretres-soleil", "lanciers-polonais", "bateliers-loire", "sherpas-himalaya",
                    "cyclopes-sicile", "horlogers-jura", "chamanes-siberie", "pompiers-paris", "gondoliers-venise",
                    "sapeurs-verdun", "bergers-corses", "corsaires-barbaresques", "trappeurs-quebec", "moines-shaolin",
                    "mineurs-lorrains", "pecheurs-islande", "brigands-calabre", "mages-byzance", "hussites-boheme",
                    "chasqui-incas", "bucherons-landes", "faucons-mongols", "moines-athos", "contrebandiers-pyrenees",
                    "archers-gallois", "sorcieres-salem", "vanniers-camargue", "baleiniers-nantucket", "chouans-bretagne",
                    "orpailleurs-guyane", "samnites-arene", "muletiers-andes", "gabariers-dordogne", "sauniers-guerande",
                    "flotteurs-morvan", "cordiers-saint-malo", "verriers-murano", "bergers-aubrac",
                    "forgerons-toledo", "tisserands-lyon", "sauveteurs-ouessant", "pelerins-compostelle",
                    "cueilleurs-cevennes", "charbonniers-vosges",
                    "cordeliers-avignon", "corsaires-dunkerque", "mineurs-potosi", "bateleurs-foire", "sonneurs-bretons",
                    "veilleurs-beffroi",
                    "faienciers-quimper", "luthiers-mirecourt", "papetiers-annonay", "santonniers-aubagne",
                    "tanneurs-grasse", "vignerons-tokaj",
                    "dentelliers-alencon", "chaudronniers-durfort", "sabotiers-ardennes", "ferronniers-nancy",
                    "oiseleurs-sologne", "horticulteurs-angers",
                    "emailleurs-limoges", "bouilleurs-cognac", "tonneliers-beaune", "ardoisiers-trelaze",
                    "chapeliers-caussade", "facteurs-orgues",
                    "tapissiers-aubusson", "couteliers-thiers",
                    "vitraillistes-chartres", "orfevres-lunel", "cloutiers-forez", "potiers-vallauris",
                    "dinandiers-villedieu", "plumassiers-paris", "tailleurs-comblanchien",
                    "ebenistes-faubourg", "sabliers-nemours", "relieurs-troyes",
                    "cartiers-rouen", "gantiers-millau")},
}


def default_sets(root: Path) -> dict[str, tuple[Path, Path]]:
    """The shipped gold sets with their paths under ``root`` (a checkout of the repository)."""
    return {name: (root / gold, root / manifest) for name, (gold, manifest) in GOLD_SETS.items()}


_COLUMNS = ("game", "subject", "relation", "object", "line", "evidence")

Pair = tuple[str, frozenset[str]]
Label = tuple[str, str, str]


@dataclass(frozen=True, slots=True)
class Edge:
    """One ability-to-ability edge, from the gold or from the extractor."""

    game: str
    subject: str
    relation: str
    object: str
    line: int
    sentence: str
    source: str = ""

    @property
    def pair(self) -> Pair:
        return (self.game, frozenset((fold(self.subject), fold(self.object))))

    @property
    def label(self) -> Label:
        """The relation with its direction; symmetric relations have none."""
        if self.relation in SYMMETRIC:
            ends = sorted((fold(self.subject), fold(self.object)))
            return (self.relation, ends[0], ends[1])
        return (self.relation, fold(self.subject), fold(self.object))

    def where(self) -> str:
        return f"{self.source}:{self.line}" if self.source else f"line {self.line}"


@dataclass(slots=True)
class Score:
    gold: int = 0
    found: int = 0
    true_found: int = 0
    matched: int = 0
    typed: int = 0

    @property
    def precision(self) -> float:
        return self.true_found / self.found if self.found else 1.0

    @property
    def recall(self) -> float:
        return self.matched / self.gold if self.gold else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def typed_accuracy(self) -> float:
        return self.typed / self.matched if self.matched else 1.0


@dataclass(slots=True)
class RelationScore:
    """One relation, seen from the gold (links whose gold relation it is) and from the
    extractor (links it typed with it)."""

    gold: int = 0
    recalled: int = 0
    typed: int = 0
    found: int = 0
    in_gold: int = 0
    typed_right: int = 0

    @property
    def recall(self) -> float:
        return self.recalled / self.gold if self.gold else 1.0

    @property
    def typed_accuracy(self) -> float:
        return self.typed / self.recalled if self.recalled else 1.0

    @property
    def precision(self) -> float:
        return self.in_gold / self.found if self.found else 1.0

    @property
    def typed_precision(self) -> float:
        return self.typed_right / self.found if self.found else 1.0


@dataclass(slots=True)
class Mistyped:
    gold: list[Edge]
    found: list[Edge]


@dataclass(slots=True)
class Evaluation:
    name: str
    overall: Score
    by_relation: dict[str, RelationScore]
    by_game: dict[str, Score]
    misses: list[Edge] = field(default_factory=list)
    false_alarms: list[Edge] = field(default_factory=list)
    mistyped: list[Mistyped] = field(default_factory=list)
    curated: int = 0
    #: The overall score before the curation file is applied, when it changes anything.
    extraction_alone: Score | None = None
    #: The score if every "à vérifier" suggestion were accepted, when there are any.
    suggestions_accepted: Score | None = None
    to_review: int = 0


def load_gold(path: Path) -> list[Edge]:
    """Gold rows; a row that does not have the six columns or a known relation is an error."""
    edges = []
    for number, raw in enumerate(editor_lines(read_text(path)), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        cells = raw.split("\t")
        if number == 1 and tuple(c.strip() for c in cells) == _COLUMNS:
            continue
        if len(cells) != len(_COLUMNS):
            raise RulegraphError(_('expected {count} tab-separated columns ({columns}), found {count2}').format(count=len(_COLUMNS), columns=', '.join(_COLUMNS), count2=len(cells)), path=path, line=number)
        game, subject, relation, obj, line, evidence = (c.strip() for c in cells)
        if relation not in INTERACTIONS:
            raise RulegraphError(_('relation {relation!r} must be one of {interactions}').format(relation=relation, interactions=', '.join(INTERACTIONS)), path=path, line=number)
        if not line.isdigit():
            raise RulegraphError(_('line {line!r} must be a number').format(line=line), path=path, line=number)
        edges.append(Edge(game, subject, relation, obj, int(line), evidence))
    return edges


def found_edges(statements: list[Statement]) -> list[Edge]:
    """The extractor's ability-to-ability edges, term edges left out."""
    return [
        Edge(s.subject.game, s.subject.label, s.relation, s.object.label, s.line, s.sentence, s.source)
        for s in statements
        if s.relation in INTERACTIONS and s.subject.kind == "ability" and s.object.kind == "ability"
    ]


def _labels(edges: list[Edge]) -> set[Label]:
    """What a pair's edges say: their typed relations, or references when none is typed."""
    typed = {e.label for e in edges if e.relation != "references"}
    return typed or {e.label for e in edges}


def pair_labels(edges: list[Edge]) -> dict[Pair, set[Label]]:
    """Each pair of abilities with what its edges say, as the scores compare them."""
    by_pair: dict[Pair, list[Edge]] = defaultdict(list)
    for edge in edges:
        by_pair[edge.pair].append(edge)
    return {pair: _labels(group) for pair, group in by_pair.items()}


def _relation_of(labels: set[Label]) -> str:
    relations = sorted({label[0] for label in labels})
    return relations[0] if len(relations) == 1 else "+".join(relations)


def evaluate(name: str, gold: list[Edge], found: list[Edge], curated: int = 0) -> Evaluation:
    """Compare found edges to gold edges, by link and by type."""
    gold_pairs: dict[Pair, list[Edge]] = defaultdict(list)
    found_pairs: dict[Pair, list[Edge]] = defaultdict(list)
    for edge in gold:
        gold_pairs[edge.pair].append(edge)
    for edge in found:
        found_pairs[edge.pair].append(edge)
    overall = Score()
    by_relation: dict[str, RelationScore] = defaultdict(RelationScore)
    by_game: dict[str, Score] = defaultdict(Score)
    result = Evaluation(name, overall, by_relation, by_game, curated=curated)
    for pair, edges in gold_pairs.items():
        gold_labels = _labels(edges)
        side = by_relation[_relation_of(gold_labels)]
        scores = (overall, by_game[pair[0]])
        side.gold += 1
        for score in scores:
            score.gold += 1
        if pair not in found_pairs:
            result.misses.extend(edges)
            continue
        correct = _labels(found_pairs[pair]) == gold_labels
        side.recalled += 1
        side.typed += correct
        for score in scores:
            score.matched += 1
            score.typed += correct
        if not correct:
            result.mistyped.append(Mistyped(edges, found_pairs[pair]))
    for pair, edges in found_pairs.items():
        found_labels = _labels(edges)
        side = by_relation[_relation_of(found_labels)]
        hit = pair in gold_pairs
        side.found += 1
        side.in_gold += hit
        side.typed_right += hit and _labels(gold_pairs[pair]) == found_labels
        for score in (overall, by_game[pair[0]]):
            score.found += 1
            score.true_found += hit
        if not hit:
            result.false_alarms.extend(edges)
    result.by_relation = dict(sorted(by_relation.items()))
    result.by_game = dict(sorted(by_game.items()))
    return result


def evaluate_manifest(name: str, gold_path: Path, manifest: Path) -> Evaluation:
    """Build the manifest's corpus, extract, apply its curation file, and compare to the gold."""
    corpus = load_corpus(manifest)
    extracted = extract_corpus(corpus, load_cues())
    statements = curate(extracted, corpus, manifest)
    gold = load_gold(gold_path)
    result = evaluate(name, gold, found_edges(statements), sum(1 for s in statements if s.method == "curated"))
    if statements != extracted:
        result.extraction_alone = evaluate(name, gold, found_edges(extracted)).overall
    unsure = [s for s in statements if s.suggested]
    if unsure:
        result.to_review = len(unsure)
        result.suggestions_accepted = evaluate(name, gold, found_edges(best_guesses(statements))).overall
    return result


def best_guesses(statements: list[Statement]) -> list[Statement]:
    """The edges with every "à vérifier" suggestion accepted: each typed with the typer's best guess."""
    return [s for s in statements if not s.suggested] + [_accepted(s) for s in statements if s.suggested]


def _accepted(statement: Statement) -> Statement:
    """The edge as the typer suggested it."""
    from dataclasses import replace

    edge = _suggested_edge(statement)
    subject, obj = statement.subject, statement.object
    if fold(edge.subject) != fold(subject.label):
        subject, obj = obj, subject
    return replace(statement, subject=subject, relation=edge.relation, object=obj, suggested=None)


def _score_row(label: str, score: Score) -> str:
    return (f"  {label:<22} {score.gold:>10} {score.found:>11} {score.matched:>8} {score.precision:>9.3f} "
            f"{score.recall:>7.3f} {score.f1:>6.3f} {score.typed_accuracy:>9.3f}")


def _relation_row(relation: str, score: RelationScore) -> str:
    return (f"  {relation:<22} {score.gold:>10} {score.recalled:>8} {score.recall:>7.3f} {score.typed_accuracy:>9.3f}"
            f"   {score.found:>11} {score.in_gold:>8} {score.precision:>9.3f} {score.typed_precision:>10.3f}")


def format_evaluation(result: Evaluation) -> str:
    lines = [f"== {result.name} ==",
             f"  {'links':<22} {'gold links':>10} {'found links':>11} {'matched':>8} {'precision':>9} {'recall':>7} {'F1':>6} {'typed acc':>9}"]
    lines.append(_score_row("all links", result.overall))
    lines += [_score_row(f"game {game}", score) for game, score in result.by_game.items()]
    if result.suggestions_accepted is not None:
        lines.append(_score_row("suggestions accepted", result.suggestions_accepted))
        lines.append(f"  ({result.to_review} edge(s) à vérifier; 'suggestions accepted' scores them as the typer suggests)")
    if result.extraction_alone is not None:
        lines.append(_score_row("extraction alone", result.extraction_alone))
        lines.append(f"  ({result.curated} edge(s) come from the curation file; 'extraction alone' is before it)")
    lines.append(f"  {'by relation':<22} {'gold links of this relation':^37}   {'found links typed with this relation':^41}")
    lines.append(f"  {'':<22} {'gold links':>10} {'found':>8} {'recall':>7} {'typed acc':>9}"
                 f"   {'found links':>11} {'in gold':>8} {'precision':>9} {'typed prec':>10}")
    lines += [_relation_row(relation, score) for relation, score in result.by_relation.items()]
    lines.append("  (typed acc: share of the found gold links typed as the gold, direction included; typed prec:"
                 " share of the found links of this relation whose gold has the same relation and direction)")
    lines.append(f"  misses ({len(result.misses)}):")
    lines += [f"    {e.game}: {e.subject} {e.relation} {e.object} @ line {e.line}: {e.sentence}" for e in result.misses]
    lines.append(f"  false alarms ({len(result.false_alarms)}):")
    lines += [f"    {e.game}: {e.subject} {e.relation} {e.object} @ {e.where()}: {e.sentence}" for e in result.false_alarms]
    lines.append(f"  mistyped ({len(result.mistyped)}):")
    for item in result.mistyped:
        for e in item.gold:
            lines.append(f"    gold  {e.game}: {e.subject} {e.relation} {e.object} @ line {e.line}: {e.sentence}")
        for e in item.found:
            lines.append(f"    found {e.game}: {e.subject} {e.relation} {e.object} @ {e.where()}: {e.sentence}")
    return "\n".join(lines)


#: Bands of the typer's confidence for the calibration table.
CALIBRATION_BANDS = (0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0001)


@dataclass(slots=True)
class CalibrationBand:
    low: float
    high: float
    count: int
    right: int

    @property
    def accuracy(self) -> float:
        return self.right / self.count if self.count else 0.0


def calibration_table(points: list[tuple[float, bool]]) -> list[CalibrationBand]:
    """Predicted confidence against observed accuracy, by bands."""
    bands = []
    for low, high in zip(CALIBRATION_BANDS, CALIBRATION_BANDS[1:]):
        inside = [right for confidence, right in points if low <= confidence < high]
        bands.append(CalibrationBand(low, min(high, 1.0), len(inside), sum(inside)))
    return bands


def format_calibration(bands: list[CalibrationBand], title: str) -> str:
    lines = [title, f"  {'confidence':<12} {'edges':>6} {'typed right':>12} {'accuracy':>9}"]
    for band in bands:
        if band.count:
            lines.append(f"  {band.low:.1f}–{band.high:.1f}{'':<5} {band.count:>6} {band.right:>12} {band.accuracy:>9.3f}")
    return "\n".join(lines)


def typed_points(statements: list[Statement], gold: list[Edge]) -> list[tuple[float, bool]]:
    """(confidence, right?) of every typed edge whose pair the gold links at that sentence."""
    from .extract.typer import is_candidate

    by_pair: dict[Pair, list[Edge]] = defaultdict(list)
    for edge in gold:
        by_pair[edge.pair].append(edge)
    points = []
    for statement in statements:
        if statement.confidence is None or not is_candidate(statement):
            continue
        edge = found_edges([statement])[0]
        rows = [g for g in by_pair.get(edge.pair, []) if abs(g.line - edge.line) <= 2 or fold(edge.sentence) in fold(g.sentence)]
        if rows:
            guess = _suggested_edge(statement) if statement.suggested else edge
            points.append((statement.confidence, any(guess.label == g.label for g in rows)))
    return points


def _suggested_edge(statement: Statement) -> Edge:
    """The edge the typer suggests for an edge it left as references, read the way the review
    reads it (:func:`rulegraph.review.suggested_ends`)."""
    from .review import suggested_ends

    subject, obj = suggested_ends(statement.subject.label, statement.object.label, statement.reason or "")
    return Edge(statement.subject.game, subject, statement.suggested or statement.relation, obj, statement.line, statement.sentence)


@dataclass(slots=True)
class CrossValidated:
    """Every gold set typed by a model trained without it: the edges a build writes, each with
    the model's best guess (``overall``), and what the graph would assert with the shipped
    calibration and threshold (``asserted``: edges typed and right, of those typed;
    ``to_review``: left as references with a suggestion)."""

    results: list[Evaluation]
    overall: Score
    calibration: list[CalibrationBand]
    to_review: int
    asserted: int = 0
    asserted_right: int = 0
    thresholded: Score | None = None
    threshold: float = 0.0


def cross_validate_sets(sets: dict[str, tuple[Path, Path]], progress=None) -> CrossValidated:
    """Leave one glossary out: each set's candidate edges are typed by a typer trained on the
    others (curation entries count as gold), then scored like ``evaluate`` scores extraction."""
    from .extract.analysis import Analyser
    from .extract.training import cross_validate, load_gold_set

    analyser = Analyser(progress=progress)
    gold_sets = [load_gold_set(name, gold, manifest, analyser) for name, (gold, manifest) in sets.items()]
    validation = cross_validate(gold_sets, analyser)
    overall, thresholded = Score(), Score()
    results = []
    to_review = asserted = asserted_right = 0
    for gold_set in gold_sets:
        gold = load_gold(gold_set.gold_path)
        kept = validation.thresholded[gold_set.name]
        # The edges a build writes (an unsure edge said of a whole category is not one), each
        # typed with the held-out typer's best guess (its suggestion, where it left one).
        result = evaluate(gold_set.name, gold, found_edges(best_guesses(kept)))
        results.append(result)
        _add_scores(thresholded, evaluate(gold_set.name, gold, found_edges(kept)).overall)
        _add_scores(overall, result.overall)
        to_review += sum(1 for s in kept if s.suggested)
        for _confidence, right in typed_points([s for s in kept if not s.suggested and s.relation != "references"], gold):
            asserted += 1
            asserted_right += right
    return CrossValidated(results, overall, calibration_table(validation.points), to_review, asserted, asserted_right,
                          thresholded, validation.threshold)


def _add_scores(total: Score, score: Score) -> None:
    for name in ("gold", "found", "true_found", "matched", "typed"):
        setattr(total, name, getattr(total, name) + getattr(score, name))


def format_cross_validation(validation: CrossValidated) -> str:
    lines = ["Leave one glossary out: each set typed by a typer trained on the other sets",
             f"  {'set':<22} {'gold links':>10} {'found links':>11} {'matched':>8} {'precision':>9} {'recall':>7} {'F1':>6} {'typed acc':>9}"]
    lines += [_score_row(result.name, result.overall) for result in validation.results]
    lines.append(_score_row("all sets (micro)", validation.overall))
    lines.append("  (the edges a build writes; typed acc: the held-out typer's best guess on every found link)")
    if validation.thresholded is not None:
        lines.append("")
        lines.append(f"With the shipped calibration and threshold ({validation.threshold:.3f}): unsure edges stay references, 'à vérifier'")
        lines.append(_score_row("all sets (micro)", validation.thresholded))
        share = validation.asserted_right / validation.asserted if validation.asserted else 1.0
        lines.append(f"  typed edges asserted: {validation.asserted}, typed right: {validation.asserted_right} ({share:.3f}); "
                     f"left 'à vérifier' with a suggestion: {validation.to_review}")
    lines.append("")
    lines.append(format_calibration(validation.calibration,
                                    "Calibration: the held-out typer's probability against how often it typed right"))
    total = validation.overall
    lines.append("")
    lines.append(f"leave-one-glossary-out: sets={len(validation.results)} links={total.gold} precision={total.precision:.3f} "
                 f"recall={total.recall:.3f} typed={total.typed_accuracy:.3f}")
    return "\n".join(lines)
