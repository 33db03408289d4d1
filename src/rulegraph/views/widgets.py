"""Notebook widgets (ipywidgets) for exploring the graph: pure functions that return widgets.

- :func:`search_box`: a Combobox that completes ability names;
- :func:`game_filter`, :func:`category_filter`, :func:`relation_filter`: multiple-choice filters;
- :func:`ability_panel`: an ability's text with the abilities it mentions highlighted, its
  outgoing and incoming edges with their evidence, its designer notes;
- :func:`neighbourhood_view`: the focused atlas page inside the notebook;
- :func:`explorer`: all of them wired together.

The neighbourhood is shown as the atlas page in an ``<iframe srcdoc=…>`` held by a plain
``widgets.HTML``: unlike pyvis's ``show()`` inside an ``Output`` widget, which stays blank in some
front ends, this needs no notebook extension and no file on disk. Every text from the
glossaries is HTML-escaped before it reaches a widget.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

import ipywidgets as widgets
import networkx as nx
from rdflib import Graph

from ..catalogue import ABILITY_KINDS, RuleGraph, match_nodes
from ..extract.lexicon import Lexicon
from ..i18n import _, quoted
from ..namespaces import RELATIONS
from ..text import fold
from ..vocabulary import kind_label, relation_label, relation_phrase
from .atlas import KIND_COLOURS, RELATION_COLOURS, atlas_data, neighbourhood, render_page


def as_view(graph: Graph | nx.MultiDiGraph) -> nx.MultiDiGraph:
    """The NetworkX view of an rdflib graph; a view is passed through unchanged."""
    return graph if isinstance(graph, nx.MultiDiGraph) else RuleGraph(graph).networkx()


def ability_labels(graph: Graph | nx.MultiDiGraph, games: Iterable[str] | None = None) -> list[str]:
    """Sorted ability names (defined or not), optionally of some games only."""
    wanted = set(games) if games is not None else None
    view = as_view(graph)
    return sorted(
        {data["label"] for _, data in view.nodes(data=True) if data["kind"] in ABILITY_KINDS and (wanted is None or data["game"] in wanted)},
        key=fold,
    )


def search_box(graph: Graph | nx.MultiDiGraph, *, value: str = "") -> widgets.Combobox:
    """A text box that completes ability names as you type."""
    return widgets.Combobox(
        value=value,
        options=ability_labels(graph),
        placeholder=_("Ability…"),
        description=_("Ability"),
        ensure_option=False,
        continuous_update=False,
    )


def game_filter(graph: Graph | nx.MultiDiGraph) -> widgets.SelectMultiple:
    """Which games to show; all are selected at first."""
    games = sorted({game for _, game in as_view(graph).nodes(data="game") if game})
    return widgets.SelectMultiple(options=games, value=tuple(games), description=_("Games"), rows=min(6, max(2, len(games))))


def category_filter(graph: Graph | nx.MultiDiGraph) -> widgets.SelectMultiple:
    """Which of the glossaries' own categories (rg:category) to show; all are selected at first."""
    categories = sorted({c for _, c in as_view(graph).nodes(data="glossary_category") if c}, key=fold)
    return widgets.SelectMultiple(options=categories, value=tuple(categories), description=_("Categories"),
                                  rows=min(6, max(2, len(categories))))


def relation_filter(graph: Graph | nx.MultiDiGraph) -> widgets.SelectMultiple:
    """Which relations to show, those present in the graph, in the vocabulary's order; all
    are selected at first."""
    present = {relation for *_, relation in as_view(graph).edges(data="relation")}
    relations = [r for r in RELATION_COLOURS if r in present]
    return widgets.SelectMultiple(options=[(relation_label(r), r) for r in relations], value=tuple(relations), description=_("Relations"),
                                  rows=min(8, max(2, len(relations))))


def filtered_view(graph: Graph | nx.MultiDiGraph, *, games: Iterable[str] | None = None, relations: Iterable[str] | None = None,
                  categories: Iterable[str] | None = None) -> nx.MultiDiGraph:
    """The view restricted to the nodes of some games, the abilities of some glossary
    categories (nodes without a category stay), and the edges of some relations."""
    view = as_view(graph)
    games = set(games) if games is not None else None
    relations = set(relations) if relations is not None else None
    categories = {fold(c) for c in categories} if categories is not None else None
    kept = [node for node, data in view.nodes(data=True)
            if (games is None or data["game"] in games)
            and (categories is None or not data.get("glossary_category") or fold(data["glossary_category"]) in categories)]
    result = view.subgraph(kept).copy()
    if relations is not None:
        result.remove_edges_from([(u, v, k) for u, v, k, r in result.edges(keys=True, data="relation") if r not in relations])
    return result


def highlight_mentions(text: str, labels: Iterable[str], *, game: str = "") -> str:
    """``text`` as HTML, escaped, with every mention of one of ``labels`` in a <mark>.

    Mentions are found the way the extractor finds them (case, accents, elisions, plurals)."""
    lexicon = Lexicon(game)
    for label in labels:
        lexicon.add("ability", label)
    pieces, position = [], 0
    for mention in lexicon.find(text):
        pieces.append(html.escape(text[position : mention.start]))
        pieces.append(f'<mark title="{html.escape(mention.term.label)}">{html.escape(text[mention.start : mention.end])}</mark>')
        position = mention.end
    pieces.append(html.escape(text[position:]))
    return "".join(pieces)


def ability_html(graph: Graph | nx.MultiDiGraph, name: str, *, games: Iterable[str] | None = None, relations: Iterable[str] | None = None) -> str:
    """The HTML of :func:`ability_panel`: one section per ability called ``name``."""
    view = as_view(graph)
    nodes = match_nodes(view, name)
    if games is not None:
        nodes = [node for node in nodes if view.nodes[node]["game"] in set(games)] or nodes
    wanted = set(relations) if relations is not None else None
    return "".join(_node_section(view, node, wanted) for node in nodes)


def ability_panel(graph: Graph | nx.MultiDiGraph, name: str, *, games: Iterable[str] | None = None, relations: Iterable[str] | None = None) -> widgets.HTML:
    """An ability's text (mentioned abilities highlighted), its edges with evidence, its notes."""
    return widgets.HTML(ability_html(graph, name, games=games, relations=relations), layout=widgets.Layout(width="100%"))


def neighbourhood_view(graph: Graph | nx.MultiDiGraph, name: str, *, depth: int = 1, games: Iterable[str] | None = None,
                       relations: Iterable[str] | None = None, height: int = 520) -> widgets.HTML:
    """The atlas page of the neighbourhood of ``name``, in a sandboxed iframe."""
    return widgets.HTML(neighbourhood_iframe(graph, name, depth=depth, games=games, relations=relations, height=height),
                        layout=widgets.Layout(width="100%"))


def neighbourhood_iframe(graph: Graph | nx.MultiDiGraph, name: str, *, depth: int = 1, games: Iterable[str] | None = None,
                         relations: Iterable[str] | None = None, height: int = 520) -> str:
    """An ``<iframe srcdoc>`` holding the focused atlas page; the page is attribute-escaped,
    and the sandbox lets its scripts run without reaching the notebook."""
    view = filtered_view(graph, games=games, relations=relations)
    centres = match_nodes(view, name)
    title = _("{name} (depth {depth})").format(name=view.nodes[centres[0]]["label"], depth=depth)
    page = render_page(atlas_data(neighbourhood(view, name, depth), focus=centres), title=title)
    return (
        f'<iframe sandbox="allow-scripts" srcdoc="{html.escape(page, quote=True)}" '
        f'style="width:100%;height:{int(height)}px;border:1px solid #ddd;border-radius:4px"></iframe>'
    )


def explorer(graph: Graph | nx.MultiDiGraph, name: str | None = None, *, depth: int = 1) -> widgets.VBox:
    """Search box, filters, ability panel and neighbourhood view, kept in step."""
    view = as_view(graph)
    labels = ability_labels(view)
    search = search_box(view, value=name or (labels[0] if labels else ""))
    games = game_filter(view)
    categories = category_filter(view)
    relations = relation_filter(view)
    radius = widgets.IntSlider(value=depth, min=0, max=4, description=_("Depth"))
    panel = widgets.HTML(layout=widgets.Layout(width="100%"))
    picture = widgets.HTML(layout=widgets.Layout(width="100%"))
    message = widgets.HTML()

    def refresh(_change=None) -> None:
        from ..errors import RulegraphError

        shown = filtered_view(view, categories=categories.value) if categories.options else view
        search.options = ability_labels(shown, games.value)
        if search.value and search.value not in search.options and search.value in labels:
            # The ability exists; the game or category filter hides it. Say so, not "unknown".
            message.value = "<b>" + _("“{name}” is hidden by the filters (game, category): choose an ability among "
                                       "those shown, or widen the filters.").format(name=html.escape(search.value)) + "</b>"
            panel.value = picture.value = ""
            return
        try:
            panel.value = ability_html(shown, search.value, games=games.value, relations=relations.value)
            picture.value = neighbourhood_iframe(shown, search.value, depth=radius.value, games=games.value, relations=relations.value)
            message.value = ""
        except RulegraphError as error:
            message.value = f"<b>{html.escape(str(error))}</b>"

    for control in (search, games, categories, relations, radius):
        control.observe(refresh, names="value")
    refresh()
    return widgets.VBox([
        widgets.HBox([search, radius]),
        widgets.HBox([games, categories, relations] if categories.options else [games, relations]),
        message,
        panel,
        picture,
    ])


def _node_section(view: nx.MultiDiGraph, node: str, relations: set[str] | None) -> str:
    data = view.nodes[node]
    same_game = [other["label"] for _, other in view.nodes(data=True)
                 if other["kind"] in ABILITY_KINDS and other["game"] == data["game"] and other["label"] != data["label"]]
    text = highlight_mentions(data["text"], same_game, game=data["game"] or "") if data["text"] else "<i>" + html.escape(_("(no text in the glossary)")) + "</i>"
    colour = KIND_COLOURS[data["kind"]]
    parts = [
        '<div style="font-family:system-ui,sans-serif;font-size:13px;line-height:1.4">',
        f'<h3 style="margin:4px 0">{html.escape(data["label"])}</h3>',
        f'<div style="color:#666"><span style="color:{colour}">●</span> {html.escape(kind_label(data["kind"]))} · {html.escape(data["game"] or "")}</div>',
        f'<div style="white-space:pre-wrap;border:1px solid #e3e3e3;border-radius:4px;padding:6px;margin:6px 0">{text}</div>',
    ]
    for note in data["notes"]:
        parts.append(f'<div style="background:#fff8e1;border-left:3px solid #f0b400;padding:4px 8px;margin:4px 0;white-space:pre-wrap">{html.escape(note)}</div>')
    outgoing = [(view.nodes[v]["label"], d) for _, v, d in view.out_edges(node, data=True)]
    incoming = [(view.nodes[u]["label"], d) for u, _, d in view.in_edges(node, data=True) if u != node]
    for title, edges, inverse in ((_("Outgoing relations ({count})"), outgoing, False), (_("Incoming relations ({count})"), incoming, True)):
        edges = sorted((e for e in edges if relations is None or e[1]["relation"] in relations), key=lambda e: (RELATIONS.index(e[1]["relation"]), fold(e[0])))
        parts.append(f'<h4 style="margin:8px 0 2px">{html.escape(title.format(count=len(edges)))}</h4>')
        if edges:
            parts.append('<table style="border-collapse:collapse;font-size:12px">')
            parts.extend(_edge_row(other, edge, inverse) for other, edge in edges)
            parts.append("</table>")
    parts.append("</div>")
    return "".join(parts)


def _edge_row(other: str, edge: dict, inverse: bool) -> str:
    """One edge of a node: "annule X" going out, "est annulée par X" coming in."""
    colour, caption = RELATION_COLOURS[edge["relation"]], relation_phrase(edge["relation"], inverse=inverse)
    sentence = quoted(edge["sentence"])
    where = " · ".join(filter(None, [f"{edge['source']}:{edge['line']}" if edge["source"] else "", _condition_text(edge["condition"]) if edge["condition"] else "", edge["edition"] or ""]))
    return (
        '<tr style="vertical-align:top;border-top:1px solid #eee">'
        f'<td style="padding:2px 6px;color:{colour};font-weight:600;white-space:nowrap">{html.escape(caption)}</td>'
        f'<td style="padding:2px 6px;white-space:nowrap">{html.escape(other)}</td>'
        f'<td style="padding:2px 6px"><i>{html.escape(sentence)}</i><br><span style="color:#777">{html.escape(where)}</span></td>'
        "</tr>"
    )


def _condition_text(condition: str) -> str:
    """A condition as the text says it ("Si un lémure…", "tant qu'il…"), with "si" put before
    it only when it does not open with a word of its own."""
    from ..extract.analysis import words

    folded = fold(condition)
    if any(folded.startswith(marker) for marker in words().condition_markers):
        return condition
    return _("if {condition}").format(condition=condition)
