"""The HTML atlas: a pyvis network rendered into one self-contained page that opens offline.

pyvis computes the vis-network node and edge options; the page itself comes from our template,
which inlines the vis-network script shipped inside the pyvis package, so no http(s) resource is
ever loaded. Rule texts are passed as JSON data and shown with textContent: they never run.
"""

from __future__ import annotations

import json
from importlib import resources

from rdflib import Graph

from .networkx_view import to_networkx

KIND_COLOURS = {
    "ability": "#4e79a7",
    "undefined": "#e15759",
    "state": "#59a14f",
    "action": "#f28e2b",
    "characteristic": "#b07aa1",
    "concept": "#9c9c9c",
}
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


def _vis_script() -> str:
    lib = resources.files("pyvis").joinpath("templates", "lib", "vis-9.1.2")
    return lib.joinpath("vis-network.min.js").read_text(encoding="utf-8")


def _safe_json(data: object) -> str:
    """JSON that cannot close the surrounding <script> element."""
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def atlas_data(graph: Graph) -> dict[str, object]:
    view = to_networkx(graph)
    nodes = [
        {
            "id": node,
            "label": data["label"],
            "kind": data["kind"],
            "game": data["game"],
            "text": data["text"],
            "notes": data["notes"],
            "color": KIND_COLOURS[data["kind"]],
        }
        for node, data in sorted(view.nodes(data=True))
    ]
    edges = [
        {
            "from": source,
            "to": target,
            "relation": data["relation"],
            "sentence": data["sentence"],
            "where": f"{data['source']}:{data['line']}",
            "condition": data["condition"],
            "edition": data["edition"],
            "color": RELATION_COLOURS[data["relation"]],
        }
        for source, target, data in sorted(view.edges(data=True), key=lambda e: (e[0], e[1], e[2]["relation"], e[2]["line"]))
    ]
    return {"nodes": nodes, "edges": edges, "kinds": KIND_COLOURS, "relations": RELATION_COLOURS}


def render_atlas(graph: Graph, *, title: str = "rulegraph atlas") -> str:
    template = resources.files("rulegraph.views").joinpath("templates", "atlas.html").read_text(encoding="utf-8")
    return (
        template.replace("{{TITLE}}", title.replace("<", "&lt;"))
        .replace("{{VIS_SCRIPT}}", _vis_script())
        .replace("{{DATA}}", _safe_json(atlas_data(graph)))
    )
