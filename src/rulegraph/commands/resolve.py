"""``rulegraph resolve --side "A, B" --side "C" [--game G] [--json]``: what is in effect when
the sides meet, and why."""

from __future__ import annotations

from ..render.answers import read_as, render_resolution
from .common import add_graph_arguments, add_output_arguments, load_graph, print_json


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "resolve", help="which abilities of each side are in effect when the sides meet",
        description="Grants are added, parameters stacked by the game's rule, and cancels/negates/"
                    "mutuallyCancels decided by grounded semantics; every verdict shows its sentences.")
    parser.add_argument("--side", action="append", required=True, metavar="ABILITIES",
                        help='one side\'s abilities, comma-separated, with parameters: "Régénération 2, Fouisseur"')
    parser.add_argument("--game", help="the game, when a name exists in several")
    add_graph_arguments(parser)
    add_output_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    from ..resolve import resolve

    result = resolve(load_graph(args), args.side, game=args.game)
    if args.json:
        print_json(result)
    else:
        from ..resolve import parse_side

        for typed, side in zip(args.side, result["sides"]):
            for note in read_as(parse_side(typed), side["abilities"]):
                print(note)
        print(render_resolution(result))
    return 0


