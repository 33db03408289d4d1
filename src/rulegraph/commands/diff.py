"""``rulegraph diff``: one ability across editions, or two builds of the glossary compared.

``rulegraph diff ABILITY [--game G] [--from E1 --to E2]`` reads the graph built from the manifest
(or one ``--graph FILE``); ``rulegraph diff --graph old.ttl --graph new.ttl`` compares two builds.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..i18n import _
from ..render.diffs import render_history, render_pair, render_revisions
from .common import DEFAULT_MANIFEST, Progress, print_json


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "diff",
        help="compare an ability across editions, or two builds (--graph old.ttl --graph new.ttl)",
    )
    parser.add_argument("ability", nargs="?", help="the ability to follow across its game's editions")
    parser.add_argument("--game", help="the ability's game, when its name exists in several")
    parser.add_argument("--from", dest="from_edition", metavar="EDITION", help="older edition to compare")
    parser.add_argument("--to", dest="to_edition", metavar="EDITION", help="newer edition to compare")
    parser.add_argument("--graph", action="append", type=Path, default=[], metavar="FILE",
                        help="a graph.ttl to read; twice (old, new) to compare two builds")
    parser.add_argument("--manifest", type=Path, default=None, help="corpus manifest (default: data/corpus.toml)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.set_defaults(run=run)


def run(args) -> int:
    from ..editions import diff_editions, diff_graphs, edition_history, timeline
    from ..errors import RulegraphError
    from ..graph import load_graph

    colour = sys.stdout.isatty() and not args.json
    if args.ability is None:
        if len(args.graph) != 2:
            raise RulegraphError(_('give an ABILITY, or two builds to compare: --graph old.ttl --graph new.ttl'))
        revisions = diff_graphs(load_graph(args.graph[0]), load_graph(args.graph[1]))
        print_json(revisions) if args.json else print(render_revisions(revisions, args.graph, colour))
        return 0
    if len(args.graph) > 1:
        raise RulegraphError(_('an ABILITY is read from one graph; give at most one --graph'))
    if (args.from_edition is None) != (args.to_edition is None):
        raise RulegraphError(_('--from and --to go together; leave both out for the whole timeline'))
    graph = _ability_graph(args)
    if args.from_edition is not None:
        result = diff_editions(graph, args.ability, args.from_edition, args.to_edition, args.game)
        result["timeline"] = timeline(graph, args.ability, args.game)
        print_json(result) if args.json else print(render_pair(result, colour))
    else:
        result = edition_history(graph, args.ability, args.game)
        print_json(result) if args.json else print(render_history(result, colour))
    return 0


def _ability_graph(args):
    from ..build import build
    from ..graph import load_graph

    if args.graph:
        return load_graph(args.graph[0])
    progress = Progress()
    result = build(args.manifest or DEFAULT_MANIFEST, progress=progress)
    progress.done()
    return result.graph


