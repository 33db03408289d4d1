"""The ripple of a change on the atlas: the ability, and every ability :func:`rulegraph.impact.impact`
says moves with it, on one atlas page, each ringed in the colour of the nearest layer that names
it (direct, alongside, grants, encounters, findings); and a notebook widget to pick the ability.

The page is the atlas page itself (same template, same escaping): only the node borders change,
and the layers are written in the page title, which the page shows above its filters.
"""

from __future__ import annotations

import html

import networkx as nx
from rdflib import Graph

from ..catalogue import RuleGraph
from ..i18n import N_, _, labelled
from ..impact import PLACE_ONLY_CHECKS, Impact, impact
from .atlas import atlas_data, render_page

#: Layers nearest first, with their ring colour, caption and the colour's name (shown in the
#: user's language).
LAYERS = {
    "centre": ("#000000", N_("changed ability"), N_("black")),
    "direct": ("#d62728", N_("direct"), N_("red")),
    "alongside": ("#ff7f0e", N_("alongside (same relation, same ability)"), N_("orange")),
    "grants": ("#2ca02c", N_("grants"), N_("green")),
    "encounters": ("#9467bd", N_("encounters whose verdict changes"), N_("purple")),
    "findings": ("#8c564b", N_("findings"), N_("brown")),
}


def ripple_layers(result: Impact) -> dict[str, str]:
    """Ability label → the nearest layer that names it; the changed ability is "centre"."""
    layers: dict[str, str] = {result["ability"]: "centre"}

    def put(label: str, layer: str) -> None:
        layers.setdefault(label, layer)

    for item in result["direct"]:
        put(item["ability"], "direct")
    for item in result["alongside"]:
        put(item["ability"], "alongside")
    for key in ("gives", "given_by"):
        for path in result["grants"][key]:
            put(path["ability"], "grants")
    for encounter in result["encounters"]:
        for change in encounter["changes"]:
            put(change["ability"], "encounters")
    for finding in result["findings"]:
        if finding["check"] not in PLACE_ONLY_CHECKS:
            for label in finding["abilities"]:
                put(label, "findings")
    return layers


def ripple_page(graph: Graph, name: str, *, game: str | None = None, result: Impact | None = None,
                view: nx.MultiDiGraph | None = None) -> str:
    """The atlas page of the ripple: the changed ability, the abilities that move, the edges
    between them; each node ringed in its layer's colour."""
    result = result or impact(graph, name, game=game)
    view = view if view is not None else RuleGraph(graph).networkx()
    layers = ripple_layers(result)
    nodes = [n for n, d in view.nodes(data=True) if d["label"] in layers and d["game"] == result["game"] and d["kind"] in ("ability", "undefined")]
    centre = [n for n in nodes if view.nodes[n]["label"] == result["ability"]]
    data = atlas_data(view.subgraph(nodes).copy(), focus=centre)
    for node, info in zip(data["nodes"], data["nodeInfo"]):
        layer = layers[info["label"]]
        node["color"]["border"] = LAYERS[layer][0]
        node["color"]["highlight"]["border"] = LAYERS[layer][0]
        node["borderWidth"] = 6 if layer == "centre" else 4
        info["layer"] = layer
    legend = " · ".join(f"{_(caption)} ({_(colour_name)})" for layer, (_colour, caption, colour_name) in LAYERS.items()
                        if layer in set(layers.values()))
    return render_page(data, title=_("{ability}: what moves — {legend}").format(ability=result["ability"], legend=legend))


def ripple_iframe(graph: Graph, name: str, *, game: str | None = None, result: Impact | None = None,
                  height: int = 520) -> str:
    """The ripple page in a sandboxed ``<iframe srcdoc>``, attribute-escaped."""
    page = ripple_page(graph, name, game=game, result=result)
    return (f'<iframe sandbox="allow-scripts" srcdoc="{html.escape(page, quote=True)}" '
            f'style="width:100%;height:{int(height)}px;border:1px solid #ddd;border-radius:4px"></iframe>')


def moves_html(result: Impact) -> str:
    """What moves, as an escaped HTML table: ability, layer, reasons."""
    from ..impact import summary_line

    layers = ripple_layers(result)
    rows = []
    for item in result["moves"]:
        colour, caption, _colour_name = LAYERS[layers.get(item["ability"], "findings")]
        reasons = "<br>".join(html.escape(reason) for reason in item["reasons"])
        rows.append(f'<tr style="vertical-align:top"><td style="padding:2px 8px;border-left:4px solid {colour}">{html.escape(item["ability"])}</td>'
                    f'<td style="padding:2px 8px;color:#555">{html.escape(_(caption))}</td><td style="padding:2px 8px">{reasons}</td></tr>')
    notes = "".join('<div style="background:#fff8e1;border-left:3px solid #f0b400;padding:4px 8px;margin:4px 0">'
                    + html.escape(labelled(_("Designer's note"), note["text"])) + "</div>"
                    for note in result["notes"])
    return (f'<div style="font-family:system-ui,sans-serif;font-size:13px"><p><b>{html.escape(summary_line(result))}</b></p>'
            f'<table style="border-collapse:collapse">{"".join(rows)}</table>{notes}</div>')


def impact_explorer(graph: Graph, name: str | None = None, *, game: str | None = None, findings=None):
    """Pick an ability: the table of what moves and the ripple on the atlas, kept in step."""
    import ipywidgets as widgets

    from ..checks import run_checks
    from ..errors import RulegraphError
    from .widgets import search_box

    view = RuleGraph(graph).networkx()
    findings = list(findings) if findings is not None else run_checks(graph)
    search = search_box(view, value=name or "")
    table = widgets.HTML(layout=widgets.Layout(width="100%"))
    picture = widgets.HTML(layout=widgets.Layout(width="100%"))
    message = widgets.HTML()

    def refresh(_change=None) -> None:
        if not search.value:
            return
        try:
            result = impact(graph, search.value, game=game, findings=findings)
            table.value = moves_html(result)
            picture.value = ripple_iframe(graph, search.value, game=game, result=result)
            message.value = ""
        except RulegraphError as error:
            message.value = f"<b>{html.escape(str(error))}</b>"

    search.observe(refresh, names="value")
    refresh()
    return widgets.VBox([search, message, table, picture])
