"""``rulegraph complexity [--game G] [--top N] [--json] [--weights FILE]``: the abilities ranked
by how much a player must learn to apply them, each with what makes up its score."""

from __future__ import annotations

from pathlib import Path

from ..render.answers import render_complexity
from .common import add_graph_arguments, load_graph, print_json


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "complexity", help="rank the abilities by how much they cost to learn, with the breakdown",
        description="A weighted sum of the rules a player must know to apply an ability (abilities, states, "
                    "actions, characteristics it involves, through grants and requires), its conditions, its "
                    "parameters, the exceptions touching it and the length of its text. The weights are in "
                    "src/rulegraph/resources/complexity.toml; --weights reads another file.")
    parser.add_argument("--game", help="only this game's abilities")
    parser.add_argument("--top", type=int, default=None, metavar="N", help="only the N heaviest")
    parser.add_argument("--weights", type=Path, default=None, metavar="FILE", help="a weights file (same keys as the shipped one)")
    add_graph_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.set_defaults(run=run)


def run(args) -> int:
    from ..complexity import check_top, complexity, load_weights

    check_top(args.top)
    weights = load_weights(args.weights)
    scored = complexity(load_graph(args), game=args.game, weights=weights)
    scored = scored[: args.top] if args.top else scored
    if args.json:
        print_json({"weights": weights.values, "weights_file": weights.path, "abilities": scored})
    else:
        print(render_complexity(scored, weights))
    return 0


