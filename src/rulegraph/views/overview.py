"""The atlas of a whole catalogue: past a few thousand nodes, one page cannot lay out and draw
everything in the seconds a designer waits, so the page opens on an overview.

The overview draws the most connected abilities (and the interactions between them), and ships
a compact catalogue of every ability with its interactions between abilities: searching a name
that is not drawn loads its neighbourhood on demand, in the same offline page. Rule texts and
sentences of the abilities loaded on demand are not in the page (they are what made the one-file
atlas of a 100-copy catalogue 20 MB); the side panel says how to open a focused atlas that has
them (``rulegraph export html --focus NAME``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import networkx as nx

from ..catalogue import ABILITY_KINDS
from ..namespaces import INTERACTIONS, RELATIONS, SYMMETRIC
from ..text import fold

#: Beyond this many nodes the atlas opens on an overview.
OVERVIEW_NODES = 2000
#: How many of the most connected abilities the overview draws.
OVERVIEW_ABILITIES = 300


def interaction_degree(view: nx.MultiDiGraph) -> Counter[str]:
    """Edges between two different abilities, per ability: what makes an ability central."""
    degree: Counter[str] = Counter()
    for source, target, relation in view.edges(data="relation"):
        if relation in INTERACTIONS and source != target:
            degree[source] += 1
            degree[target] += 1
    return degree


def overview(view: nx.MultiDiGraph, game_order: list[str], limit: int = OVERVIEW_ABILITIES) -> tuple[nx.MultiDiGraph, dict[str, Any]]:
    """The subgraph the page draws first, and the catalogue it loads neighbourhoods from.

    ``game_order`` is the atlas's list of games: a catalogue entry names its game by its index
    there, as the page's nodes do."""
    kinds = dict(view.nodes(data="kind"))
    abilities = sorted((n for n, kind in kinds.items() if kind in ABILITY_KINDS),
                       key=lambda n: (fold(view.nodes[n]["label"]), view.nodes[n]["game"] or ""))
    degree = interaction_degree(view)
    drawn = sorted(abilities, key=lambda n: (-degree[n], fold(view.nodes[n]["label"])))[:limit]
    index = {node: position for position, node in enumerate(abilities)}
    games = {game: position for position, game in enumerate(game_order)}
    catalogue = [[view.nodes[n]["label"], games.get(view.nodes[n]["game"], 0), ABILITY_KINDS.index(kinds[n]),
                  view.nodes[n].get("glossary_category")] for n in abilities]
    links = sorted({(index[s], index[t], RELATIONS.index(relation)) for s, t, relation in view.edges(data="relation")
                    if relation in INTERACTIONS and s != t and s in index and t in index})
    clusters = Counter((view.nodes[n]["game"], view.nodes[n].get("glossary_category") or "") for n in abilities)
    data: dict[str, Any] = {
        "total": {"nodes": view.number_of_nodes(), "edges": view.number_of_edges(), "abilities": len(abilities)},
        "kinds": list(ABILITY_KINDS),
        "relations": list(RELATIONS),
        "symmetric": sorted(SYMMETRIC),
        "catalogue": catalogue,
        "links": [list(link) for link in links],
        "clusters": [{"game": game, "category": category, "abilities": count}
                     for (game, category), count in sorted(clusters.items(), key=lambda item: (-item[1], item[0]))],
    }
    return view.subgraph(drawn).copy(), data
