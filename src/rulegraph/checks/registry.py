"""The list of checks: each with its stable code, name, usual severity and what it finds.

This list is the report: adding a check means writing ``check_xxx(graph) -> list[Finding]`` and
adding one line here.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from rdflib import Graph

from ..errors import RulegraphError
from ..i18n import N_, _
from ..stored import PickleCache
from ..text import cache_folder, fold
from .designer_notes import DESIGNER_NOTE, check_designer_notes
from .duplicates import (
    DUPLICATE_DEFINITION,
    IDENTICAL_TEXT,
    NEAR_IDENTICAL_RATIO,
    NEAR_IDENTICAL_TEXT,
    check_duplicate_definitions,
    check_identical_texts,
    check_near_identical_texts,
)
from .editions import EDITION_GAP, check_edition_gaps
from .finding import CheckId, Finding, sort_key
from .parameters import PARAMETER_MISMATCH, check_parameter_mismatches
from .references import UNDEFINED_REFERENCE, check_undefined_references
from .relations import (
    CONTRADICTION,
    GRANT_CYCLE,
    ONE_SIDED_RELATION,
    SELF_REFERENCE,
    check_contradictions,
    check_grant_cycles,
    check_one_sided_relations,
    check_self_references,
)
from .shacl import SHACL_CHECK, check_shacl
from .spelling import SPELLING, check_spelling
from .to_review import TO_REVIEW, check_to_review


@dataclass(frozen=True, slots=True)
class Check:
    id: CheckId
    severity: str
    #: What the check finds, in English; :meth:`description` gives it in the user's language.
    finds: str
    run: Callable[[Graph], list[Finding]]

    def description(self) -> str:
        return _(self.finds).format(ratio=NEAR_IDENTICAL_RATIO)

    @property
    def code(self) -> str:
        return self.id.code

    @property
    def name(self) -> str:
        return self.id.name


CHECKS: list[Check] = [
    Check(DESIGNER_NOTE, "warning", N_("each `=> …` question of the author, with the sentence it questions"), check_designer_notes),
    Check(UNDEFINED_REFERENCE, "warning", N_("a name used as an ability that its game does not define; every place used, closest defined names (other games' marked)"), check_undefined_references),
    Check(DUPLICATE_DEFINITION, "info / error", N_("the same entry repeated word for word (info), the same name with different texts (error)"), check_duplicate_definitions),
    Check(IDENTICAL_TEXT, "info", N_("abilities of one game whose texts are the same (own name aside): candidates for merging"), check_identical_texts),
    Check(NEAR_IDENTICAL_TEXT, "info", N_("texts almost the same: difflib ratio over folded words ≥ {ratio}, with the differing words; each text linked to one it resembles, not to all"), check_near_identical_texts),
    Check(PARAMETER_MISMATCH, "warning", N_("a parameter (X, D, Y, N; X/D is both) or keyword slot used in the text but not declared in the name, or declared and never used"), check_parameter_mismatches),
    Check(ONE_SIDED_RELATION, "warning", N_("a symmetric relation (mutuallyCancels, excludes) stated in only one of the two texts"), check_one_sided_relations),
    Check(CONTRADICTION, "error", N_("a pair both granted and cancelled/negated, or both required and excluded"), check_contradictions),
    Check(GRANT_CYCLE, "warning", N_("abilities that grant each other in a loop (A → B → … → A)"), check_grant_cycles),
    Check(SELF_REFERENCE, "info", N_("an ability that cancels, grants, requires… itself"), check_self_references),
    Check(EDITION_GAP, "info / warning", N_("an ability present in some editions and absent from others (warning when missing between two editions that have it)"), check_edition_gaps),
    Check(SPELLING, "warning", N_("words in neither pyspellchecker's French list nor the game's vocabulary, once per game, with a suggestion"), check_spelling),
    Check(SHACL_CHECK, "error", N_("structural rules of ontology/shapes.ttl (one label, game, source and line per ability; interaction ends are abilities; notes hang off an ability…), by pySHACL"), check_shacl),
    Check(TO_REVIEW, "info", N_("each edge the relation typer was unsure of (à vérifier): its sentence, the suggested relation, the confidence and rule, and the ID that `rulegraph review` answers"), check_to_review),
]


def select_checks(wanted: Iterable[str] | None = None) -> list[Check]:
    """Checks by code or name (``RG004``, ``identical-text``); all of them when none is given."""
    wanted = [w for w in (wanted or []) if w]
    if not wanted:
        return list(CHECKS)
    by_key = {}
    for check in CHECKS:
        by_key[fold(check.code)] = check
        by_key[fold(check.name)] = check
    chosen = []
    for key in wanted:
        found = by_key.get(fold(key))
        if found is None:
            known = ", ".join(f"{c.code} {c.name}" for c in CHECKS)
            raise RulegraphError(_('unknown check {key!r}; choose among: {known}').format(key=key, known=known))
        if found not in chosen:
            chosen.append(found)
    return chosen


def run_checks(graph: Graph, checks: Iterable[str] | None = None, *, games: Iterable[str] | None = None,
               categories: Iterable[str] | None = None, progress: Callable[[str], None] | None = None) -> list[Finding]:
    """Run the chosen checks and return their findings sorted by code, game, file and line.

    ``games`` keeps the findings of those games (by id or display name, any case or accents);
    ``categories`` those about abilities of those glossary categories (rg:category labels);
    ``progress`` is told the name of each check as it starts.
    """
    chosen = select_checks(checks)
    started = _started(graph)
    shacl = next((check for check in chosen if check.id == SHACL_CHECK), None)
    aside: _Aside | _Kept | None = None
    if shacl is None:
        if started is not None:
            started.cancel()
    elif started is not None:
        aside = started
    elif len(graph) >= FORK_FROM_TRIPLES:
        aside = _run_aside(shacl, graph)
    found: dict[str, list[Finding]] = {}
    for check in chosen:
        if progress is not None:
            progress(_("check {code} {name}").format(code=check.code, name=check.name))
        if aside is None or check is not shacl:
            found[check.code] = check.run(graph)
    if aside is not None and shacl is not None:
        found[shacl.code] = aside.findings()
    findings = [finding for check in chosen for finding in found[check.code]]
    if games or categories:
        findings = filter_findings(findings, games=games, categories=categories, graph=graph)
    return sorted(findings, key=sort_key)


#: A graph of this many triples or more is validated by pySHACL in a forked process while the
#: other checks run (SHACL is half of a large build's checks; a fork shares the graph in memory
#: where another process would parse it again). A smaller graph is validated in-process, unless
#: :func:`start_checks` started it.
FORK_FROM_TRIPLES = 100_000
#: Validations started by :func:`start_checks`: graph id → (the graph, its size then, the child).
_STARTED: dict[int, tuple[weakref.ref[Graph], int, _Aside | _Kept]] = {}


def start_checks(graph: Graph) -> None:
    """Start the SHACL check of ``graph`` now, in a forked process, for the :func:`run_checks`
    that comes later (``rulegraph build`` calls it once the graph is built): the validation then
    runs while the Turtle, the store and the atlas are written, and pySHACL is imported only in
    that process. Forked before the Turtle is written, the child shares less of a large build's
    memory. Nothing happens where fork is unavailable."""
    check = next(check for check in CHECKS if check.id == SHACL_CHECK)
    aside = _run_aside(check, graph)
    if aside is not None:
        _STARTED[id(graph)] = (weakref.ref(graph), len(graph), aside)


def name_content(graph: Graph, digest: str) -> None:
    """``graph``'s content is ``digest`` (its Turtle's SHA-256): the findings of a validation of
    that content made before are read from the cache folder, and the validation
    :func:`start_checks` started is stopped; otherwise its findings will be kept there."""
    started = _STARTED.get(id(graph))
    cache, key = _shacl_cache(digest)
    kept = cache.get(key)
    if isinstance(kept, list):
        if started is not None:
            started[2].cancel()
        _STARTED[id(graph)] = (weakref.ref(graph), len(graph), _Kept(kept))
    elif started is not None and isinstance(started[2], _Aside):
        started[2].keep_in(cache, key)


def _shacl_cache(digest: str) -> tuple[PickleCache, str]:
    """Where a validation of the content ``digest`` names is kept, and its key: the language of
    the findings is in it too (the shapes are package files and pySHACL's version is in every key)."""
    from ..i18n import language

    return PickleCache(cache_folder() / "shacl"), PickleCache.key(digest, language())


class _Kept:
    """The findings of a validation made before, read from the cache."""

    def __init__(self, findings: list[Finding]):
        self._findings = findings

    def findings(self) -> list[Finding]:
        return self._findings

    def cancel(self) -> None:
        pass


def stop_checks(graph: Graph) -> None:
    """Nobody will read the findings of the validation :func:`start_checks` started for
    ``graph`` (the report was read back from the cache): stop it."""
    started = _started(graph)
    if started is not None:
        started.cancel()


def _started(graph: Graph) -> _Aside | _Kept | None:
    """The validation :func:`start_checks` started for this very graph, still of the same size;
    one started for a graph changed since is stopped."""
    started = _STARTED.pop(id(graph), None)
    if started is None:
        return None
    reference, size, aside = started
    if reference() is not graph or size != len(graph):
        aside.cancel()
        return None
    return aside


class _Aside:
    """A check running in a forked child: :meth:`findings` waits for them (or runs the check
    here if the child died), :meth:`cancel` stops the child when nobody will read them."""

    def __init__(self, check: Check, graph: Graph):
        import multiprocessing

        context = multiprocessing.get_context("fork")
        self._check, self._graph = check, graph
        self._cache: tuple[PickleCache, str] | None = None
        self._receiver, sender = context.Pipe(duplex=False)
        self._child = context.Process(target=_run_in_child, args=(check.run, graph, sender), daemon=True)
        self._child.start()
        sender.close()

    def findings(self) -> list[Finding]:
        try:
            outcome = self._receiver.recv()
        except EOFError:
            outcome = None
        finally:
            self._receiver.close()
            self._child.join()
        if outcome is None:
            return self._check.run(self._graph)
        ok, value = outcome
        if not ok:
            raise value
        if self._cache is not None:
            cache, key = self._cache
            cache.put(key, value)
        return value

    def keep_in(self, cache: PickleCache, key: str) -> None:
        """Keep the findings the child sends in ``cache`` under ``key``."""
        self._cache = (cache, key)

    def cancel(self) -> None:
        self._child.terminate()
        self._child.join()
        self._receiver.close()


def _run_aside(check: Check, graph: Graph) -> _Aside | None:
    """``check`` started in a forked child; None where fork is unavailable."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        return None
    return _Aside(check, graph)


def _run_in_child(run: Callable[[Graph], list[Finding]], graph: Graph, sender) -> None:
    try:
        sender.send((True, run(graph)))
    except Exception as error:
        sender.send((False, error))
    finally:
        sender.close()


def filter_findings(findings: Iterable[Finding], *, checks: Iterable[str] | None = None,
                    games: Iterable[str] | None = None, severities: Iterable[str] | None = None,
                    categories: Iterable[str] | None = None, graph: Graph | None = None) -> list[Finding]:
    """The findings matching every filter given: check code or name, game, severity, and the
    glossary category of the ability a finding is about (needs ``graph``)."""
    check_keys = {fold(c) for c in checks or []}
    game_keys = {fold(g) for g in games or []}
    if game_keys and graph is not None:
        game_keys |= _game_aliases(graph, game_keys)
    severity_keys = set(severities or [])
    category_keys = {fold(c) for c in categories or []}
    in_categories = _abilities_in_categories(graph, category_keys) if category_keys and graph is not None else set()
    kept = []
    for finding in findings:
        if check_keys and not {fold(finding.code), fold(finding.check)} & check_keys:
            continue
        if game_keys and fold(finding.game) not in game_keys:
            continue
        if severity_keys and finding.severity not in severity_keys:
            continue
        if category_keys and (fold(finding.game), fold(finding.subject)) not in in_categories:
            continue
        kept.append(finding)
    return kept


def _abilities_in_categories(graph: Graph, keys: set[str]) -> set[tuple[str, str]]:
    """(game name, ability label) of the abilities whose glossary category is among ``keys``,
    folded; a category named that no game has is an error that lists the ones there are."""
    from rdflib import RDFS

    from ..namespaces import RG

    labels: dict[str, str] = {}
    found = set()
    for ability, category in graph.subject_objects(RG.category):
        label = str(graph.value(category, RDFS.label) or "")
        labels[fold(label)] = label
        if fold(label) in keys:
            game = graph.value(ability, RG.game)
            found.add((fold(str(graph.value(game, RDFS.label) or "")), fold(str(graph.value(ability, RDFS.label) or ""))))
    unknown = sorted(keys - set(labels))
    if unknown:
        known = ", ".join(sorted(labels.values(), key=fold)) or "none: this glossary has no categories"
        raise RulegraphError(_('no category {unknown!r} in the graph; categories: {known}').format(unknown=unknown[0], known=known))
    return found


def _game_aliases(graph: Graph, keys: set[str]) -> set[str]:
    """Game display names for the ids among ``keys`` (``hell-dorado`` → ``hell dorado``)."""
    from ..catalogue import games

    return {fold(label) for game_id, label in games(graph).items() if fold(game_id) in keys}
