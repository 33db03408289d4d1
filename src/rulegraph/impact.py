"""What moves when a designer changes an ability, read off the graph layer by layer.

:func:`impact` answers "what else moves if I change this ability": the abilities that act on it
or that it acts on (direct), the abilities that stand in the same relation to the same third
ability (alongside: a change to one should often be made to the other), the grant closure both
ways, the encounters whose resolver verdict changes when the ability's relations are taken away,
the consistency findings that name it, and its designer notes.

:func:`impact_of_edit` does the same for everything an edit of the glossary changed (the
revision diff of :func:`rulegraph.editions.diff_graphs`), and replays the resolver on the old
and the new graph, so the verdicts it lists are the ones the edit really changes.
"""

from __future__ import annotations

import weakref
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import NotRequired, TypedDict, final

import networkx as nx
from rdflib import RDF, Graph, URIRef

from .catalogue import ABILITY_KINDS, RuleGraph, Term, find_game, find_term, game_lexicon, line_of, source_of, text_of
from .checks.finding import Finding
from .editions import RevisionDiff, field_label
from .errors import RulegraphError
from .i18n import N_, _, labelled, ngettext, word
from .interactions import EdgeEvidence, edge_record
from .namespaces import INTERACTIONS, RELATIONS, RG
from .resolve import ATTACKS, MUTUAL, Explanation, Resolution, resolve
from .text import fold
from .vocabulary import edge_sentence


class LayerItem(EdgeEvidence, total=False):
    """An ability one edge away (direct) or beside this one (alongside, ``via`` the third)."""

    ability: str
    direction: str
    via: str


class GrantPath(TypedDict):
    ability: str
    relation: str
    hops: int
    chain: list[EdgeEvidence]


class VerdictChange(TypedDict):
    side: int
    ability: str
    before: str
    after: str
    why_before: str
    why_after: str


class Encounter(TypedDict):
    sides: list[str]
    changes: list[VerdictChange]


class FindingAbout(TypedDict):
    """A consistency finding (:class:`~rulegraph.checks.finding.Finding`'s fields) and the
    abilities its message names."""

    check: str
    code: str
    severity: str
    subject: str
    game: str
    message: str
    source: str | None
    line: int | None
    abilities: list[str]


class DesignerNote(TypedDict):
    text: str
    questions: str
    line: int


class Moved(TypedDict):
    ability: str
    reasons: list[str]


@final
class Impact(TypedDict, total=False):
    """What :func:`impact` returns; :func:`impact_of_edit` adds what changed and the findings after."""

    ability: str
    game: str
    source: str
    line: int
    direct: list[LayerItem]
    alongside: list[LayerItem]
    grants: dict[str, list[GrantPath]]
    encounters: list[Encounter]
    findings: list[FindingAbout]
    notes: list[DesignerNote]
    moves: list[Moved]
    changed: str
    findings_after: list[FindingAbout]


class ChangedAbility(TypedDict):
    game: str
    ability: str
    what: str


@final
class EditImpact(TypedDict):
    """What :func:`impact_of_edit` returns."""

    diff: RevisionDiff
    changed: list[ChangedAbility]
    abilities: list[Impact]
    encounters: list[Encounter]
    moves: list[Moved]
    #: Set by ``rulegraph impact --edit``: the manifest source replaced, and the edited copy.
    source: NotRequired[str]
    edited: NotRequired[str]


#: Relations the resolver treats as attacks: an encounter through them can change its verdict.
ATTACK_RELATIONS = ATTACKS + (MUTUAL,)
#: Relations whose siblings are worth a look: references only cite, so they are left out there.
TYPED_RELATIONS = tuple(r for r in INTERACTIONS if r != "references")
VERDICTS = ("in effect", "defeated", "undecided")
NOT_HELD = "not held"
#: The verdicts as the user reads them (JSON keeps the codes above).
_VERDICT_WORDS = {"in effect": N_("in effect"), "defeated": N_("defeated"), "undecided": N_("undecided"), NOT_HELD: N_("not held")}


def verdict_label(verdict: str) -> str:
    return word(_VERDICT_WORDS, verdict)


def encounter_reason(sides: list[str], change: VerdictChange) -> str:
    """Why an ability moves: "rencontre Fouisseur contre … : annulée → en vigueur"."""
    return _("encounter {change}").format(change=encounter_change(sides, change))


def encounter_change(sides: list[str], change: VerdictChange) -> str:
    """"Fouisseur contre Attaque d’opportunité : Attaque d’opportunité annulée → en vigueur"."""
    return _("{sides}: {ability} {before} → {after}").format(
        sides=_(" vs ").join(sides), ability=change["ability"], before=verdict_label(change["before"]), after=verdict_label(change["after"]))
#: Checks whose message lists other abilities only as places where a word is seen: those
#: abilities do not move with this one.
PLACE_ONLY_CHECKS = frozenset({"spelling"})


def impact(graph: Graph, name: str, game: str | None = None, *, findings: Iterable[Finding] | None = None,
           encounters: bool = True) -> Impact:
    """Everything that depends on one ability, layer by layer, each item with its reason.

    ``findings`` are consistency findings already computed (``run_checks``); they are computed
    for the ability's game when omitted. ``encounters=False`` skips the resolver replays."""
    term = find_term(graph, name, game=game, kinds=ABILITY_KINDS)
    view = RuleGraph(graph).networkx()
    node = str(term.uri)
    result: Impact = {
        "ability": term.label,
        "game": term.game,
        "source": source_of(graph, term.uri),
        "line": line_of(graph, term.uri) or 0,
        "direct": direct_layer(view, node),
        "alongside": alongside_layer(view, node),
        "grants": grant_layer(view, node),
        "encounters": removal_encounters(graph, view, node, term.game_id) if encounters else [],
        "findings": findings_about(graph, term.label, term.game, term.game_id, findings),
        "notes": designer_notes(graph, term.uri),
    }
    result["moves"] = moved_abilities(result)
    return result


# --- layers ----------------------------------------------------------------------------------


def _is_ability(view: nx.MultiDiGraph, node: str) -> bool:
    return view.nodes[node]["kind"] in ABILITY_KINDS


def _order(item: LayerItem) -> tuple[int, str, int]:
    return (RELATIONS.index(item["relation"]), fold(item["ability"]), item["line"] or 0)


def direct_layer(view: nx.MultiDiGraph, node: str) -> list[LayerItem]:
    """The abilities that cancel, negate, grant, require, exclude, are immune to or cite this one
    (direction "in"), and those it acts on (direction "out"), one item per edge."""
    items: list[LayerItem] = []
    for other, _node, data in view.in_edges(node, data=True):
        if other != node and data["relation"] in INTERACTIONS and _is_ability(view, other):
            items.append({"ability": view.nodes[other]["label"], "direction": "in", **edge_record(view, other, node, data)})
    for _node, other, data in view.out_edges(node, data=True):
        if other != node and data["relation"] in INTERACTIONS and _is_ability(view, other):
            items.append({"ability": view.nodes[other]["label"], "direction": "out", **edge_record(view, node, other, data)})
    return sorted(items, key=_order)


def alongside_layer(view: nx.MultiDiGraph, node: str) -> list[LayerItem]:
    """Abilities in the same typed relation to the same third ability: Insaisissable beside
    Fouisseur, since both cancel Attaque d'opportunité and Interception negates both."""
    items: list[LayerItem] = []
    seen = set()
    # (this node's edges to a third, that third's edges of the same relation, which end is the sibling)
    sides = ((view.out_edges, view.in_edges, "out"), (view.in_edges, view.out_edges, "in"))
    for own_edges, third_edges, direction in sides:
        for a, b, data in own_edges(node, data=True):
            third = b if direction == "out" else a
            if data["relation"] not in TYPED_RELATIONS or third == node:
                continue
            for c, d, other_data in third_edges(third, data=True):
                sibling = c if direction == "out" else d
                key = (sibling, data["relation"], third, direction)
                if other_data["relation"] != data["relation"] or sibling in (node, third) or not _is_ability(view, sibling) or key in seen:
                    continue
                seen.add(key)
                items.append({"ability": view.nodes[sibling]["label"], "direction": direction, "via": view.nodes[third]["label"],
                              **edge_record(view, c, d, other_data)})
    return sorted(items, key=_order)


#: The grant subgraph of each view, built once (the grant layer and the encounters both walk it;
#: views are read, never changed).
_GRANTS: weakref.WeakKeyDictionary[nx.MultiDiGraph, nx.DiGraph] = weakref.WeakKeyDictionary()


def _grant_graph(view: nx.MultiDiGraph) -> nx.DiGraph:
    grants = _GRANTS.get(view)
    if grants is None:
        grants = nx.DiGraph()
        for subject, obj, data in view.edges(data=True):
            if data["relation"] == "grants" and subject != obj and not grants.has_edge(subject, obj):
                grants.add_edge(subject, obj, **data)
        _GRANTS[view] = grants
    return grants


def grant_layer(view: nx.MultiDiGraph, node: str) -> dict[str, list[GrantPath]]:
    """The grant closure both ways: what this ability gives (``gives``), and what gives it
    (``given_by``), each with the chain of grants and their sentences."""
    grants = _grant_graph(view)
    layer: dict[str, list[GrantPath]] = {"gives": [], "given_by": []}
    if node not in grants:
        return layer
    for key, paths in (("gives", nx.single_source_shortest_path(grants, node)),
                       ("given_by", nx.single_source_shortest_path(grants.reverse(copy=False), node))):
        for other, path in sorted(paths.items(), key=lambda item: (len(item[1]), fold(view.nodes[item[0]]["label"]))):
            if other == node:
                continue
            hops = list(zip(path, path[1:])) if key == "gives" else [(v, u) for u, v in zip(path, path[1:])]
            chain = [edge_record(view, u, v, grants.edges[u, v]) for u, v in hops]
            layer[key].append({"ability": view.nodes[other]["label"], "relation": "grants", "hops": len(chain), "chain": chain})
    return layer


def designer_notes(graph: Graph, uri: URIRef) -> list[DesignerNote]:
    notes: list[DesignerNote] = [{"text": text_of(graph, note, RG.text), "questions": text_of(graph, note, RG.questions),
                                  "line": line_of(graph, note) or 0} for note in graph.objects(uri, RG.hasNote)]
    return sorted(notes, key=lambda n: (n["line"], n["text"]))


def findings_about(graph: Graph, label: str, game: str, game_id: str, findings: Iterable[Finding] | None) -> list[FindingAbout]:
    """The findings whose subject is the ability or whose message names it (matched as the
    extractor matches names, longest first: "Frappe rapide" is not "Rapide")."""
    if findings is None:
        from .checks import run_checks

        findings = run_checks(graph, games=[game_id])
    from .checks.spelling import GENERAL_RULES

    lexicon = game_lexicon(graph, game_id, ABILITY_KINDS)
    found: list[FindingAbout] = []
    for finding in findings:
        if finding.game != game:
            continue
        named = [m.term.label for m in lexicon.find(finding.message)]
        if fold(finding.subject) != fold(label) and label not in named:
            continue
        abilities = sorted({n for n in named if n != label} | ({finding.subject} - {label, _(GENERAL_RULES)}), key=fold)
        found.append(FindingAbout(check=finding.check, code=finding.code, severity=finding.severity, subject=finding.subject,
                                  game=finding.game, message=finding.message, source=finding.source, line=finding.line,
                                  abilities=abilities))
    return found


# --- encounters ------------------------------------------------------------------------------


def without_ability(graph: Graph, uri: URIRef) -> Graph:
    """A copy of the graph in which the ability has no relations left: what the game would be if
    its text said nothing (its node, text and notes stay)."""
    copy = Graph()
    statements = {s for s in graph.subjects(RDF.type, RG.Statement)
                  if graph.value(s, RDF.subject) == uri or graph.value(s, RDF.object) == uri}
    relation_predicates = {RG[r] for r in RELATIONS}
    for triple in graph:
        subject, predicate, obj = triple
        if subject in statements:
            continue
        if predicate in relation_predicates and uri in (subject, obj):
            continue
        copy.add(triple)
    return copy


def encounter_pairs(view: nx.MultiDiGraph, node: str) -> list[tuple[str, str]]:
    """Pairs of abilities whose encounter goes through this one: the ability (or what grants
    it) against each ability that attacks it or that it attacks, directly or through what it
    grants."""
    grants = _grant_graph(view)
    holders = {node} | (nx.ancestors(grants, node) if node in grants else set())
    carried = {node} | (nx.descendants(grants, node) if node in grants else set())
    opponents = set()
    for member in carried:
        for _member, other, data in view.out_edges(member, data=True):
            if data["relation"] in ATTACK_RELATIONS:
                opponents.add(other)
        for other, _member, data in view.in_edges(member, data=True):
            if data["relation"] in ATTACK_RELATIONS:
                opponents.add(other)
    pairs = {(holder, opponent) for holder in holders for opponent in opponents
             if holder != opponent and _is_ability(view, holder) and _is_ability(view, opponent)}
    return sorted(pairs, key=lambda p: (fold(view.nodes[p[0]]["label"]), fold(view.nodes[p[1]]["label"])))


def _verdicts(result: Resolution) -> dict[tuple[int, str], Explanation]:
    return {(item["side"], item["ability"]): item for item in result["explanation"] if item["verdict"] in VERDICTS}


def compare_encounter(before_graph: Graph, after_graph: Graph, sides: list[str], game_id: str) -> Encounter:
    """Resolve the same encounter on two graphs and list the abilities whose verdict differs."""
    before = resolve(before_graph, [[name] for name in sides], game=game_id)
    after = resolve(after_graph, [[name] for name in sides], game=game_id)
    old, new = _verdicts(before), _verdicts(after)
    changes: list[VerdictChange] = []
    for key in sorted(old.keys() | new.keys(), key=lambda k: (k[0], fold(k[1]))):
        was = old[key]["verdict"] if key in old else NOT_HELD
        now = new[key]["verdict"] if key in new else NOT_HELD
        if was != now:
            changes.append({
                "side": key[0], "ability": key[1], "before": was, "after": now,
                "why_before": old[key]["text"] if key in old else "",
                "why_after": new[key]["text"] if key in new else "",
            })
    return {"sides": sides, "changes": changes}


def removal_encounters(graph: Graph, view: nx.MultiDiGraph, node: str, game_id: str) -> list[Encounter]:
    """The encounters through the ability whose verdict changes once its relations are gone."""
    pairs = encounter_pairs(view, node)
    if not pairs:
        return []
    removed = without_ability(graph, URIRef(node))
    moved = []
    for first, second in pairs:
        sides = [view.nodes[first]["label"], view.nodes[second]["label"]]
        outcome = compare_encounter(graph, removed, sides, game_id)
        if outcome["changes"]:
            moved.append(outcome)
    return moved


# --- the summary -----------------------------------------------------------------------------


def _reason(item: LayerItem, layer: str) -> str:
    edge = edge_sentence(item["subject"], item["relation"], item["object"])
    if layer != "direct":
        edge = _("{edge} too").format(edge=edge)
    return _("{edge} (line {line})").format(edge=edge, line=item["line"]) if item.get("line") else edge


def _grant_reason(item: GrantPath) -> str:
    chain = " → ".join([item["chain"][0]["subject"], *(hop["object"] for hop in item["chain"])])
    return _("grants, through {chain}").format(chain=chain)


def moved_abilities(result: Impact) -> list[Moved]:
    """Every other ability the layers name, with the reasons, in the layers' order."""
    reasons: dict[str, list[str]] = defaultdict(list)
    own = result["ability"]

    def add(ability: str, reason: str) -> None:
        if ability != own and reason not in reasons[ability]:
            reasons[ability].append(reason)

    for item in result["direct"]:
        add(item["ability"], _reason(item, "direct"))
    for item in result["alongside"]:
        add(item["ability"], _reason(item, "alongside"))
    for key in ("gives", "given_by"):
        for path in result["grants"][key]:
            if path["hops"] > 1:
                add(path["ability"], _grant_reason(path))
    for encounter in result["encounters"]:
        for change in encounter["changes"]:
            add(change["ability"], encounter_reason(encounter["sides"], change))
    for finding in result["findings"]:
        if finding["check"] in PLACE_ONLY_CHECKS:
            continue
        for ability in finding["abilities"]:
            add(ability, labelled(f"{finding['code']} {finding['check']}", finding["message"]))
    return [{"ability": ability, "reasons": items} for ability, items in reasons.items()]


# --- an edit of the glossary -------------------------------------------------------------


def edited_source(manifest: Path, edited: Path, source: str | None = None) -> str:
    """Which manifest source an edited copy replaces: the one named, else the one with the same
    file name, else the one whose lines it shares most."""
    from .corpus import load_manifest
    from .files import read_text

    _games, sources = load_manifest(manifest)
    names = [spec.name for spec in sources]
    if source is not None:
        if source not in names:
            raise RulegraphError(_('no [[source]] with path {source!r}; the manifest has: {names}').format(source=source, names=', '.join(names)), path=manifest)
        return source
    same_name = [spec.name for spec in sources if Path(spec.name).name == edited.name]
    if len(same_name) == 1:
        return same_name[0]
    lines = {line.strip() for line in read_text(edited).splitlines() if line.strip()}
    shared = {spec.name: len(lines & {row.strip() for row in read_text(spec.path).splitlines() if row.strip()}) for spec in sources}
    best = max(shared, key=lambda name: shared[name])
    if not shared[best]:
        raise RulegraphError(_('shares no line with any source of the manifest; say which one it replaces with --source'), path=edited)
    return best


def _changed_keys(diff: RevisionDiff) -> list[tuple[str, str, str]]:
    """(game, ability, what changed) for each ability the edit touched, text first."""
    changed: dict[tuple[str, str], list[str]] = defaultdict(list)
    for item in diff["abilities_changed"]:
        changed[(item["game"], item["ability"])] += [field_label(field) for field in item["fields"]]
    for added in diff["abilities_added"]:
        changed[(added["game"], added["ability"])].append(_("added"))
    for removed in diff["abilities_removed"]:
        changed[(removed["game"], removed["ability"])].append(_("removed"))
    for change, edges in ((N_("{edge}: added"), diff["edges_added"]), (N_("{edge}: removed"), diff["edges_removed"])):
        for edge in edges:
            what = _(change).format(edge=edge_sentence(edge["subject"], edge["relation"], edge["object"]))
            if what not in changed[(edge["game"], edge["subject"])]:
                changed[(edge["game"], edge["subject"])].append(what)
    return [(game, ability, ", ".join(fields)) for (game, ability), fields in sorted(changed.items(), key=lambda i: (i[0][0], fold(i[0][1])))]


def impact_of_edit(old: Graph, new: Graph) -> EditImpact:
    """What an edit did (the revision diff) and what it moves: the impact of each changed
    ability, and every encounter through them whose verdict differs between the two graphs."""
    from .checks import run_checks
    from .editions import diff_graphs

    diff = diff_graphs(old, new)
    old_findings, new_findings = run_checks(old), run_checks(new)
    abilities: list[Impact] = []
    encounters: dict[tuple[str, ...], Encounter] = {}
    for game, label, fields in _changed_keys(diff):
        in_old = _find(old, label, game)
        graph = old if in_old is not None else new
        term = in_old or _find(new, label, game)
        if term is None:
            continue
        layers = impact(graph, term.label, term.game_id, findings=old_findings if graph is old else new_findings, encounters=False)
        layers["changed"] = fields
        layers["findings_after"] = findings_about(new, term.label, term.game, term.game_id, new_findings) if _find(new, label, game) else []
        abilities.append(layers)
        for version in (old, new):
            found = _find(version, label, game)
            if found is None:
                continue
            view = RuleGraph(version).networkx()
            for first, second in encounter_pairs(view, str(found.uri)):
                sides = [view.nodes[first]["label"], view.nodes[second]["label"]]
                if tuple(sides) in encounters or not all(_find(g, s, game) for g in (old, new) for s in sides):
                    continue
                encounters[tuple(sides)] = compare_encounter(old, new, sides, term.game_id)
    moved_encounters = [e for e in encounters.values() if e["changes"]]
    moves: dict[str, list[str]] = defaultdict(list)
    changed_names = {item["ability"] for item in abilities}
    for item in abilities:
        for moved in item["moves"]:
            if moved["ability"] not in changed_names:
                moves[moved["ability"]] += [r for r in moved["reasons"] if r not in moves[moved["ability"]]]
    for encounter in moved_encounters:
        for change in encounter["changes"]:
            reason = encounter_reason(encounter["sides"], change)
            if change["ability"] not in changed_names and reason not in moves[change["ability"]]:
                moves[change["ability"]].append(reason)
    return {
        "diff": diff,
        "changed": [{"game": item["game"], "ability": item["ability"], "what": item["changed"]} for item in abilities],
        "abilities": abilities,
        "encounters": moved_encounters,
        "moves": [{"ability": ability, "reasons": reasons} for ability, reasons in moves.items()],
    }


def _find(graph: Graph, label: str, game: str) -> Term | None:
    try:
        return find_term(graph, label, game=find_game(graph, game), kinds=ABILITY_KINDS)
    except RulegraphError:
        return None


def summary_line(result: Impact | EditImpact) -> str:
    """"you changed X's text; these N abilities and M encounter verdicts move"."""
    verdicts = sum(len(e["changes"]) for e in result["encounters"])
    moved = len(result["moves"])
    abilities = ngettext("{count} other ability", "{count} other abilities", moved).format(count=moved)
    encounters = ngettext("{count} encounter verdict", "{count} encounter verdicts", verdicts).format(count=verdicts)
    if "diff" in result:
        what = "; ".join(f"{c['ability']} ({c['what']})" for c in result["changed"]) or _("nothing the graph holds")
        return _("you changed {what}; {abilities} and {encounters} move").format(what=what, abilities=abilities, encounters=encounters)
    return _("changing {ability} ({game}) moves {abilities} and {encounters}").format(
        ability=result["ability"], game=result["game"], abilities=abilities, encounters=encounters)

