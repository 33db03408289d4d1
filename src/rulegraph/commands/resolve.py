"""``rulegraph resolve --side "A, B" --side "C" [--game G] [--json]``: what is in effect when
the sides meet, and why."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..resolve import Resolution

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
        from .interactions import read_as

        for typed, side in zip(args.side, result["sides"]):
            for note in read_as(parse_side(typed), side["abilities"]):
                print(note)
        print(render(result))
    return 0


def render(result: Resolution) -> str:
    from ..i18n import _
    from ..resolve import qualifiers
    from .interactions import edge_line

    lines = []
    for number, side in enumerate(result["sides"], start=1):
        lines.append(_("Side {number}: {abilities}").format(number=number, abilities=", ".join(side["abilities"])))
        lines.append("  " + _("in effect: {abilities}").format(abilities=", ".join(side["in_effect"]) or _("none")))
        for defeat in side["defeated"]:
            # Conditions and scopes stand beside the verdict: "pour les adversaires présents dans sa zone de contrôle".
            by = ", ".join(defeat["by"]) + qualifiers(defeat["evidence"])
            lines.append("  " + _("defeated:  {ability} (by {by})").format(ability=defeat["ability"], by=by))
        if side["undecided"]:
            lines.append("  " + _("undecided: {abilities}").format(abilities=", ".join(side["undecided"])))
        defeated = {defeat["ability"] for defeat in side["defeated"]}
        for grant in side["granted"]:
            fate = _(", then defeated") if grant["ability"] in defeated else ""
            lines.append("  " + _("granted:   {ability} (by {by}{fate})").format(ability=grant["ability"], by=", ".join(grant["by"]), fate=fate))
    lines += ["", _("Why:")]
    for item in result["explanation"]:
        lines.append(f"  - {item['text']}")
        for link in item["chain"]:
            edge: Mapping[str, object] = link  # an edge, or a general rule's sentence (evidence only)
            where = f" ({edge['source']}:{edge['line']})" if edge.get("source") else ""
            relation = f"{edge_line(edge)} : " if edge.get("relation") else ""
            lines.append(f"      {relation}« {edge['evidence']} »{where}")
    return "\n".join(lines)
