"""The HTML atlas: one self-contained page that opens offline, made from the rdflib graph.

pyvis's own page template loads Bootstrap, tom-select and vis-network from CDNs, so it is not
used; our template (``templates/atlas.html``) inlines the vis-network script and stylesheet
shipped inside the pyvis package, so the page never loads an http(s) resource. The node, edge
and physics option dicts are written here as pyvis's ``Network`` wrote them (same keys, same
order): importing ``pyvis.network`` imports IPython, a tenth of a second of every build, and
the package's files are found without importing it. Rule texts, sentences and notes
travel as JSON data in which ``<``, ``>`` and ``&`` are escaped, and the page only ever shows them
with ``textContent``: a rule text that contains ``<script>`` is displayed, never run.

Each edge's evidence carries the typer's confidence and rule; an edge the typer was unsure of
(left rg:references with rg:suggested, "à vérifier") is drawn dotted in the suggested relation's
colour, labelled with it, and the filter panel can hide it or show it alone.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

import networkx as nx
from rdflib import RDF, RDFS, Graph, Literal

from ..catalogue import KIND_ORDER, RuleGraph
from ..catalogue import match_nodes as match_nodes
from ..errors import RulegraphError
from ..i18n import N_, _, decimal_mark, labelled, language
from ..namespaces import INTERACTIONS, RELATIONS, RG, SYMMETRIC
from ..text import fold
from ..vocabulary import kind_label, relation_label, relation_phrase
from .overview import OVERVIEW_ABILITIES, OVERVIEW_NODES, overview

if TYPE_CHECKING:
    from ..complexity import Score

#: The colour of each kind of node, in the order the legend lists them; the captions are the
#: ontology's labels (rulegraph.vocabulary).
KIND_COLOURS = {
    "ability": "#4e79a7",
    "undefined": "#e15759",
    "state": "#59a14f",
    "action": "#f28e2b",
    "characteristic": "#b07aa1",
    "concept": "#9c9c9c",
}
#: The colour of each relation, interactions between abilities first; the captions are the
#: ontology's labels and phrases (rulegraph.vocabulary).
RELATION_COLOURS = {
    "cancels": "#d62728",
    "negates": "#8c1c13",
    "mutuallyCancels": "#ff7f0e",
    "grants": "#2ca02c",
    "requires": "#1f77b4",
    "excludes": "#9467bd",
    "immuneTo": "#17becf",
    "references": "#7f7f7f",
    "modifies": "#bcbd22",
    "appliesTo": "#e377c2",
    "involvesState": "#8c564b",
    "mentionsConcept": "#c7c7c7",
}
#: Node shapes that mark the game, assigned in the order games appear; a border colour makes
#: games distinguishable again once the shapes run out.
GAME_SHAPES = ("dot", "square", "triangle", "diamond", "star", "triangleDown", "hexagon")
GAME_GLYPHS = {"dot": "●", "square": "■", "triangle": "▲", "diamond": "◆", "star": "★", "triangleDown": "▼", "hexagon": "⬢"}
GAME_BORDERS = ("#2b2b2b", "#e6a700", "#00a19a", "#c2185b", "#5e35b1")
#: Kinds hidden when the page opens (the designer can show them): generic notions are hubs
#: that turn the picture into a hairball.
HIDDEN_KINDS = ("concept",)
#: Stabilisation budget: the page stops the physics after so many iterations or milliseconds,
#: whichever comes first, and freezes the layout. An iteration costs time in proportion to the
#: number of nodes, so big graphs get fewer (but never under the minimum).
STABILISATION_WORK = 60_000
STABILISATION_ITERATIONS = (100, 400)
STABILISATION_MILLISECONDS = 3000
#: Edges the typer was unsure of ("à vérifier"): drawn in the suggested relation's colour with a
#: dash pattern of their own (plain rg:references edges use vis's default dashes).
UNSURE_DASHES = [2, 6]
#: The page's own words, shown in the user's language (rulegraph.i18n): the page's script fills
#: its buttons, headings and messages from DATA.text, with {name} placeholders it fills itself.
PAGE_TEXTS = {
    "search": N_("Search"),
    "searchPlaceholder": N_("Name of an ability, a state…"),
    "relations": N_("Relations"),
    "unsure": N_("To review"),
    "unsureOnly": N_("show only the edges to review"),
    "unsureRow": N_("to review (suggested relation)"),
    "kinds": N_("Kinds of nodes"),
    "games": N_("Games"),
    "categories": N_("Categories"),
    "editions": N_("Editions"),
    "showAll": N_("Show all"),
    "fit": N_("Fit to the window"),
    "relayout": N_("Lay out again"),
    "edgeLabels": N_("Edge labels"),
    "hideIsolated": N_("Hide the nodes without a visible edge"),
    "nodeSize": N_("Node size"),
    "sizeLinks": N_("number of links"),
    "sizeComplexity": N_("complexity (rulegraph complexity)"),
    "layingOut": N_("Laying out…"),
    "progress": N_("Laying out… {percent}%"),
    "hint": N_("Click a node or an edge to read the rule, the sentence behind each relation (file:line) "
               "and the designer's notes."),
    "summary": N_("{nodes} / {allNodes} nodes, {edges} / {allEdges} edges shown"),
    "summaryOverview": N_("Overview: {nodes} of the {abilities} abilities (the most connected), {edges} edges; "
                          "search a name to load its neighbourhood."),
    "notes": N_("{count} designer note(s)"),
    "review": N_("to review: “{first}” {relation} “{second}”? (review ID {id})"),
    "confidence": N_("confidence {value}"),
    "rule": N_("rule: {rule}"),
    "quote": N_("“{text}”"),
    "condition": N_("condition: {condition}"),
    "edition": N_("edition: {edition}"),
    "editionList": N_("editions: {editions}"),
    "more": N_("… and {count} more"),
    "moreOutside": N_("… and {count} more outside the overview"),
    "load": N_("(load its neighbourhood)"),
    "noExact": N_("No name matches exactly; did you mean:"),
    "noMatch": N_("No name matches."),
    "towardsThis": N_("→ this"),
    "complexity": N_("Complexity {score}: {detail}"),
    "onDemand": N_("Loaded from the overview: its text and the sentences of its relations are in the atlas "
                   "centred on it (rulegraph export html --focus \"{label}\")."),
    "undefined": N_("This name is used as an ability but the glossary of this game does not define it."),
    "designerNotes": N_("Designer's notes"),
    "outgoing": N_("Outgoing relations ({count})"),
    "incoming": N_("Incoming relations ({count})"),
}


def page_texts() -> dict[str, str]:
    """The page's own words in the user's language, and its decimal mark."""
    return {**{key: _(text) for key, text in PAGE_TEXTS.items()}, "decimalMark": decimal_mark()}


def neighbourhood(view: nx.MultiDiGraph, name: str, depth: int) -> nx.MultiDiGraph:
    """The nodes within ``depth`` edges of the node(s) named ``name``, in either direction."""
    if depth < 0:
        raise RulegraphError(_('--depth must be 0 or more, not {depth}').format(depth=depth))
    centres = match_nodes(view, name)
    undirected = view.to_undirected(as_view=True)
    kept: set[str] = set(centres)
    # A walk does not go on through the kinds the page hides at first (generic notions): they
    # would bring in nodes whose only link to the focus is invisible.
    frontier = list(centres)
    for _step in range(depth):
        following = []
        for node in frontier:
            if node not in centres and view.nodes[node].get("kind") in HIDDEN_KINDS:
                continue
            for neighbour in sorted(undirected.neighbors(node)):
                if neighbour not in kept:
                    kept.add(neighbour)
                    following.append(neighbour)
        frontier = following
    return view.subgraph(kept).copy()


def atlas_data(view: nx.MultiDiGraph, *, focus: list[str] | None = None, edition_ranks: dict[str, int] | None = None,
               complexity: dict[str, Score] | None = None, universe: nx.MultiDiGraph | None = None) -> dict[str, Any]:
    """Everything the page needs, as JSON-ready data: the vis-network nodes, edges and options, and the
    texts, notes and evidence the side panel shows; ``complexity`` (per node URI, from
    :func:`rulegraph.complexity.scores_by_node`) lets the page size abilities by their score.
    ``universe``, the whole graph of which ``view`` is an overview, gives the games and
    categories the filters list."""
    games = game_order(universe if universe is not None else view)
    game_index = {game: index for index, game in enumerate(games)}
    ids = {node: index for index, node in enumerate(sorted(view.nodes, key=lambda n: (_node_sort_key(view, n))))}
    degree = dict(view.degree())
    start = initial_positions(view)
    nodes: list[dict[str, Any]] = []
    infos = []
    for node, index in sorted(ids.items(), key=lambda item: item[1]):
        data = view.nodes[node]
        game = game_index.get(data["game"], 0)
        colour = KIND_COLOURS[data["kind"]]
        shape = GAME_SHAPES[game % len(GAME_SHAPES)]
        border = GAME_BORDERS[(game // len(GAME_SHAPES)) % len(GAME_BORDERS)]
        nodes.append({
            "color": {"background": colour, "border": border, "highlight": {"background": colour, "border": "#000000"}},
            "value": 1 + degree[node],
            "borderWidth": 2 if data["kind"] == "undefined" else 1,
            "shapeProperties": {"borderDashes": [4, 3]} if data["kind"] == "undefined" else {},
            "x": start[node][0],
            "y": start[node][1],
            "id": index,
            "label": data["label"] or index,
            "shape": shape,
        })
        infos.append({
            "label": data["label"],
            "kind": data["kind"],
            "game": game,
            "category": data.get("category"),
            "group": data.get("glossary_category"),
            "text": data["text"],
            "notes": list(data["notes"]),
            "uri": node,
            **_complexity_info(complexity, node),
        })
    edges: list[dict[str, Any]] = []
    edge_infos = []
    pair_count: dict[tuple[int, int], int] = defaultdict(int)
    ordered = sorted(view.edges(data=True), key=lambda e: (ids[e[0]], ids[e[1]], RELATIONS.index(e[2]["relation"]), e[2]["line"], e[2]["sentence"]))
    for source, target, data in _one_edge_per_edition_run(ordered, edition_ranks or {}):
        relation = data["relation"]
        pair = (min(ids[source], ids[target]), max(ids[source], ids[target]))
        parallel = pair_count[pair]
        pair_count[pair] += 1
        review = _review_info(view, source, target, data)
        style = review["suggested"] if review else relation
        edges.append({
            "color": RELATION_COLOURS[style],
            "label": (f"{style} ?" if review else relation) if relation in INTERACTIONS else "",
            "arrows": _arrows(style, review),
            "dashes": UNSURE_DASHES if review else relation == "references",
            "width": 2 if relation in INTERACTIONS and relation != "references" else 1,
            "smooth": {"enabled": True, "type": "curvedCW", "roundness": 0.08 + 0.15 * parallel},
            "from": ids[source],
            "to": ids[target],
        })
        edge_infos.append({
            "relation": relation,
            "sentence": data["sentence"],
            "where": f"{data['source']}:{data['line']}" if data["source"] else "",
            "condition": data["condition"],
            "edition": data["edition"],
            **({"editions": data["editions"]} if data.get("editions") else {}),
            "method": data["method"],
            "confidence": data.get("confidence"),
            "rule": data.get("rule"),
            **review,
        })
    low, high = STABILISATION_ITERATIONS
    iterations = max(low, min(high, STABILISATION_WORK // max(1, len(infos))))
    options: dict[str, Any] = {
        "configure": {"enabled": False},
        "edges": {},
        "interaction": {},
        "physics": {
            "enabled": True,
            "forceAtlas2Based": {"avoidOverlap": 0.6, "centralGravity": 0.015, "damping": 0.5, "gravitationalConstant": -80,
                                 "springConstant": 0.06, "springLength": 110},
            "solver": "forceAtlas2Based",
            "stabilization": {"enabled": True, "fit": True, "iterations": iterations, "onlyDynamicEdges": False, "updateInterval": 25},
        },
    }
    options["edges"] = {"font": {"size": 13, "align": "middle", "strokeWidth": 3, "strokeColor": "#ffffff"}, "arrows": {"to": {"scaleFactor": 0.5}, "from": {"scaleFactor": 0.5}}}
    options["nodes"] = {"scaling": {"min": 10, "max": 32, "label": {"enabled": True, "min": 16, "max": 26, "drawThreshold": 5}}, "font": {"size": 16, "strokeWidth": 4, "strokeColor": "#ffffff"}}
    options["interaction"] = {"hover": True, "tooltipDelay": 150, "navigationButtons": False, "keyboard": {"enabled": True, "bindToWindow": False}, "hideEdgesOnDrag": len(edge_infos) > 1000}
    options["layout"] = {"randomSeed": 7, "improvedLayout": False}  # every node has a starting position
    editions = sorted({e["edition"] for e in edge_infos if e["edition"]} | {name for e in edge_infos for name in e.get("editions", ())}, key=lambda name: ((edition_ranks or {}).get(name, len(edition_ranks or {})), fold(name)))
    return {
        "nodes": nodes,
        "edges": edges,
        "nodeInfo": infos,
        "edgeInfo": edge_infos,
        "options": options,
        "games": [{"name": game, "glyph": GAME_GLYPHS[GAME_SHAPES[i % len(GAME_SHAPES)]], "border": GAME_BORDERS[(i // len(GAME_SHAPES)) % len(GAME_BORDERS)]} for i, game in enumerate(games)],
        "kinds": [{"name": kind, "colour": colour, "caption": kind_label(kind)} for kind, colour in KIND_COLOURS.items()],
        "weaponCaption": kind_label("weapon"),
        "relations": [{"name": name, "colour": colour, "caption": relation_label(name), "phrase": relation_phrase(name),
                       "interaction": name in INTERACTIONS} for name, colour in RELATION_COLOURS.items()],
        "unsureDashes": UNSURE_DASHES,
        "editions": editions,
        "categories": sorted({g for _from, g in (universe if universe is not None else view).nodes(data="glossary_category") if g}, key=fold),
        "gameShapes": list(GAME_SHAPES),
        "hiddenKinds": list(HIDDEN_KINDS),
        "focus": [ids[node] for node in focus or [] if node in ids],
        "budget": {"iterations": iterations, "milliseconds": STABILISATION_MILLISECONDS},
        "text": page_texts(),
    }


def _one_edge_per_edition_run(edges: list[tuple[str, str, dict]], ranks: dict[str, int]) -> list[tuple[str, str, dict]]:
    """The same relation between the same two nodes in several editions is drawn once, with its
    editions listed (and the newest edition's sentence): one edge per edition made a fan of
    overlapping labels (Toxique's immunities)."""
    groups: dict[tuple, list[tuple[str, str, dict]]] = defaultdict(list)
    order: list[tuple] = []
    for source, target, data in edges:
        key = (source, target, data["relation"], data.get("suggested")) if data.get("edition") else (source, target, id(data))
        if key not in groups:
            order.append(key)
        groups[key].append((source, target, data))
    out = []
    for key in order:
        members = groups[key]
        if len(members) == 1:
            out.append(members[0])
            continue
        members.sort(key=lambda e: (ranks.get(e[2]["edition"], len(ranks)), fold(e[2]["edition"])))
        source, target, newest = members[-1]
        merged = dict(newest, edition=None, editions=[e[2]["edition"] for e in members])
        out.append((source, target, merged))
    return out


class ReviewInfo(TypedDict, total=False):
    """What the side panel shows of an edge left "à vérifier" (empty for other edges)."""

    unsure: bool
    suggested: str
    suggestedFrom: str
    suggestedTo: str
    reversed: bool
    review: str


def _review_info(view: nx.MultiDiGraph, source: str, target: str, data: dict[str, Any]) -> ReviewInfo:
    """For an edge the typer was unsure of ("à vérifier"): the suggested relation, its ends in
    the suggested direction, and the ID ``rulegraph review`` answers; empty for other edges."""
    suggested = data.get("suggested")
    if not isinstance(suggested, str) or suggested not in RELATION_COLOURS:
        return {}
    from ..review import review_id, suggested_ends

    a, b = view.nodes[source]["label"], view.nodes[target]["label"]
    first, second = suggested_ends(a, b, data.get("reason") or "")
    game = view.nodes[source].get("game_id") or ""
    return {
        "unsure": True,
        "suggested": suggested,
        "suggestedFrom": first,
        "suggestedTo": second,
        "reversed": first != a,
        "review": review_id(game, a, b, data["source"], data["line"], data["sentence"]),
    }


def _arrows(relation: str, review: ReviewInfo) -> str:
    """Symmetric relations point both ways; a suggestion that reverses the edge points back."""
    if relation in SYMMETRIC:
        return "to;from"
    return "from" if review.get("reversed") else "to"


def _complexity_info(complexity: dict[str, Score] | None, node: str) -> dict[str, object]:
    if not complexity or node not in complexity:
        return {}
    from ..complexity import breakdown_line

    return {"complexity": complexity[node]["score"], "complexityDetail": breakdown_line(complexity[node])}


def initial_positions(view: nx.MultiDiGraph, spacing: float = 40.0) -> dict[str, tuple[float, float]]:
    """Where the physics starts: each game on its own disc, discs packed in rows, and inside a
    disc the nodes in breadth-first order from the busiest one along a sunflower spiral, so
    that neighbours start close. A few iterations then suffice, even on large graphs."""
    by_game: dict[str, list[str]] = defaultdict(list)
    for node, game in view.nodes(data="game"):
        by_game[game or ""].append(node)
    undirected = nx.Graph(view.to_undirected(as_view=True))
    discs = []
    for _game, members in sorted(by_game.items(), key=lambda item: (-len(item[1]), item[0])):
        order: list[str] = []
        seen: set[str] = set()
        for root in sorted(members, key=lambda n: (-undirected.degree(n), n)):
            if root in seen:
                continue
            for node in nx.bfs_tree(undirected.subgraph(members), root, sort_neighbors=sorted):
                seen.add(node)
                order.append(node)
        discs.append((spacing * math.sqrt(len(order)) + spacing, order))
    row_width = 2.4 * math.sqrt(sum(radius * radius for radius, _rest in discs)) + 2 * discs[0][0] if discs else 0.0
    positions: dict[str, tuple[float, float]] = {}
    x = y = row_height = 0.0
    for radius, order in discs:
        if x > 0 and x + 2 * radius > row_width:
            x, y, row_height = 0.0, y + row_height, 0.0
        centre = (x + radius, y + radius)
        for rank, node in enumerate(order):
            distance, angle = spacing * math.sqrt(rank), rank * _GOLDEN_ANGLE
            positions[node] = (round(centre[0] + distance * math.cos(angle), 1), round(centre[1] + distance * math.sin(angle), 1))
        x += 2 * radius
        row_height = max(row_height, 2 * radius)
    return positions


_GOLDEN_ANGLE = math.pi * (3 - math.sqrt(5))


def render_atlas(graph: Graph, *, title: str = "rulegraph atlas", focus: str | None = None, depth: int = 2,
                 overview_nodes: int = OVERVIEW_NODES, overview_abilities: int = OVERVIEW_ABILITIES) -> str:
    """The atlas page of the whole graph, or of the neighbourhood of ``focus`` within ``depth``.
    A graph of more than ``overview_nodes`` nodes opens on an overview of its
    ``overview_abilities`` most connected abilities (see :mod:`rulegraph.views.overview`)."""
    from ..complexity import scores_by_node

    view = RuleGraph(graph).networkx()
    scores = scores_by_node(graph, view)
    centres: list[str] = []
    if focus is not None:
        centres = match_nodes(view, focus)
        view = neighbourhood(view, focus, depth)
        title = labelled(title, _("{name} (depth {depth})").format(name=view.nodes[centres[0]]["label"], depth=depth))
    if focus is None and view.number_of_nodes() > overview_nodes:
        drawn, catalogue = overview(view, game_order(view), overview_abilities)
        data = atlas_data(drawn, edition_ranks=edition_order(graph), complexity=scores, universe=view)
        return render_page({**data, "overview": catalogue}, title=title)
    return render_page(atlas_data(view, focus=centres, edition_ranks=edition_order(graph), complexity=scores), title=title)


def game_order(view: nx.MultiDiGraph) -> list[str]:
    """The games in the order the atlas lists them (and numbers them, for shapes and filters)."""
    return sorted({game for _from, game in view.nodes(data="game") if game}, key=lambda g: _game_order(view, g))


def render_page(data: dict[str, object], *, title: str) -> str:
    template = resources.files("rulegraph.views").joinpath("templates", "atlas.html").read_text(encoding="utf-8")
    vis = _pyvis_folder().joinpath("templates", "lib", "vis-9.1.2")
    replacements = {
        "{{LANG}}": language(),
        "{{TITLE}}": _escape_html(title),
        "{{VIS_STYLE}}": vis.joinpath("vis-network.css").read_text(encoding="utf-8").replace("</", "<\\/"),
        "{{VIS_SCRIPT}}": vis.joinpath("vis-network.min.js").read_text(encoding="utf-8").replace("</script", "<\\/script"),
        "{{DATA}}": _safe_json(data),
    }
    page = template
    for marker, value in replacements.items():
        page = page.replace(marker, value)
    return page


def _pyvis_folder() -> Path:
    """Where the pyvis package is installed, found without running its ``__init__`` (which
    imports pyvis.network, and with it IPython)."""
    from importlib.util import find_spec

    spec = find_spec("pyvis")
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError("pyvis, a dependency of rulegraph, is not installed", name="pyvis")
    return Path(spec.origin).parent


def _safe_json(data: object) -> str:
    """JSON that cannot close the surrounding <script> element nor open a comment."""
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _escape_html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _node_sort_key(view: nx.MultiDiGraph, node: str) -> tuple[str, int, str]:
    data = view.nodes[node]
    return (data["game"] or "", KIND_ORDER.index(data["kind"]), fold(data["label"]))


def _game_order(view: nx.MultiDiGraph, game: str) -> tuple[int, str]:
    """Games with the most nodes first, so the main game gets the plainest shape."""
    size = sum(1 for _from, g in view.nodes(data="game") if g == game)
    return (-size, game)


def edition_order(graph: Graph) -> dict[str, int]:
    """Edition labels in lineage order (rg:order), for the edition filter."""
    order: dict[str, int] = {}
    for edition in graph.subjects(RDF.type, RG.Edition):
        label, rank = graph.value(edition, RDFS.label), graph.value(edition, RG.order)
        if label is not None:
            order.setdefault(str(label), int(rank.toPython()) if isinstance(rank, Literal) else len(order) + 1000)
    return order
