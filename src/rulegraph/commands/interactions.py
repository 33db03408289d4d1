"""``rulegraph interactions A B [--game G] [--json]``: how two terms interact, with evidence."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..interactions import Interactions

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
        print(render(result))
    return 0


def read_as(typed: list[str], matched: list[str]) -> list[str]:
    """One line per name that was matched to another spelling than a change of case, accents or
    apostrophes ("Fouiseur" → "Fouisseur"): a typo is never corrected silently."""
    from ..i18n import _
    from ..names import parse_heading
    from ..text import fold

    lines = []
    for name, label in zip(typed, matched):
        if fold(parse_heading(name).name) != fold(label):
            lines.append(_("(read '{name}' as '{label}')").format(name=name, label=label))
    return lines


def _where(edge: Mapping[str, object]) -> str:
    from ..i18n import _

    condition = "\n      " + _("condition: {condition}").format(condition=edge["condition"]) if edge.get("condition") else ""
    scope = "\n      " + _("scope: {scope}").format(scope=edge["scope"]) if edge.get("scope") else ""
    return f"« {edge['evidence']} » ({edge['source']}:{edge['line']}){condition}{scope}"


def edge_line(edge: Mapping[str, object]) -> str:
    """« A » relation « B », with the relation in the user's language ("annule les effets de")."""
    from ..text import before_name
    from ..vocabulary import relation_phrase

    return f"{edge['subject']} {before_name(relation_phrase(str(edge['relation'])), str(edge['object']))}"


def render(result: Interactions) -> str:
    from ..i18n import _, ngettext
    from ..vocabulary import kind_label, relation_label

    lines = [f"{result['a']} ↔ {result['b']}", "", _("Direct relations:")]
    for edge in result["relations"]:
        lines.append(f"  {edge_line(edge)}")
        lines.append(f"      {_where(edge)}")
    if not result["relations"]:
        lines.append("  " + _("none"))
    lines += ["", _("Paths through other terms ({count}):").format(count=len(result["paths"]))]
    for path in result["paths"]:
        steps = [result["a"]]
        for hop in path["hops"]:
            relation = relation_label(hop["relation"])
            arrow = f"-{relation}->" if hop["direction"] == "forward" else f"<-{relation}-"
            steps.append(f"{arrow} {hop['to']}")
        lines.append("  " + " ".join(steps))
        for hop in path["hops"]:
            more = (" " + ngettext("(and {count} more edge between them: {command})", "(and {count} more edges between them: {command})",
                                   hop["other_edges"]).format(count=hop["other_edges"], command=f'rulegraph interactions "{hop["from"]}" "{hop["to"]}"')
                    ) if hop["other_edges"] else ""
            lines.append(f"      {hop['from']} / {hop['to']}{more}: {_where(hop)}")
    if not result["paths"]:
        lines.append("  " + _("none"))
    lines += ["", _("Shared:")]
    for item in result["shared"]:
        lines.append(f"  {kind_label(item['kind']).lower()}: {item['term']}")
        for side in ("a", "b"):
            for edge in item[side]:
                lines.append(f"      {edge_line(edge)}: {_where(edge)}")
    if not result["shared"]:
        lines.append("  " + _("nothing"))
    return "\n".join(lines)
