"""``rulegraph interactions A B [--game G] [--json]``: how two terms interact, with evidence."""

from __future__ import annotations

from ..render.answers import read_as, render_interactions
from .common import add_graph_arguments, add_output_arguments, load_graph, print_json


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "interactions", help="how two abilities (or states, actions…) interact, with the sentences",
        description="Direct edges both ways, paths of up to three hops, and what both share.")
    parser.add_argument("a", help="a name, matched whatever its case, accents or apostrophes")
    parser.add_argument("b", help="the other name")
    parser.add_argument("--game", help="the game, when a name exists in several")
    parser.add_argument("--max-length", type=int, default=3, choices=range(1, 5), metavar="1-4",
                        help="longest path, in hops (default 3, at most 4)")
    add_graph_arguments(parser)
    add_output_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    from ..interactions import interactions

    result = interactions(load_graph(args), args.a, args.b, game=args.game, max_length=args.max_length)
    if args.json:
        print_json(result)
    else:
        for note in read_as([args.a, args.b], [result["a"], result["b"]]):
            print(note)
        print(render_interactions(result))
    return 0


