"""``rulegraph build``: read the corpus, write out/graph.ttl, out/graph.html, the consistency
report (out/report.html, out/report.md) and the store out/graph.oxigraph, print a summary."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..build import GameSummary

from pathlib import Path

from ..i18n import _, ngettext
from .common import DEFAULT_OUT, Progress, add_source_arguments, build_from_args


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("build", help="build the graph and write it under out/")
    add_source_arguments(parser)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default: out/)")
    parser.add_argument("--progress", action="store_true",
                        help="show each step on stderr even when it is not a terminal (a terminal shows them anyway)")
    parser.set_defaults(run=run)


def run(args) -> int:
    """Everything is computed before the first file is written, then published as one unit, so a
    failure leaves out/ as it was."""
    from ..build import summary, turtle_bytes
    from ..checks.report import report_pages
    from ..outputs import publish
    from ..store import store_path, write_store
    from ..views.atlas import render_atlas

    progress = Progress(enabled=True if args.progress else None)
    result = build_from_args(args, progress)
    progress(_("writing the graph as Turtle"))
    turtle = turtle_bytes(result.graph)
    # The store is a cache of graph.ttl that knows the digest of the file it was loaded from: a
    # reader ignores a store that does not match, so loading it before the switch mixes nothing.
    # Loaded now, it reuses the memory the Turtle writer just gave back (a lower peak).
    progress(_("loading the store"))
    write_store(turtle, store_path(args.out / "graph.ttl"))
    progress(_("rendering the atlas"))
    outputs: dict[str, str | bytes] = {"graph.ttl": turtle, "graph.html": render_atlas(result.graph)}
    outputs.update(report_pages(result.graph, progress=progress))
    progress(_("writing outputs"))
    publish(args.out, outputs)
    progress.done()
    print(render_summary(summary(result)))
    print()
    print(_("wrote {graph} ({count} triples) and {atlas}").format(
        graph=args.out / "graph.ttl", count=len(result.graph), atlas=args.out / "graph.html"))
    print(_("wrote {html} and {markdown} (consistency report: rulegraph check)").format(
        html=args.out / "report.html", markdown=args.out / "report.md"))
    print(_("wrote {store} (the store that --graph and rulegraph serve open)").format(
        store=store_path(args.out / "graph.ttl")))
    return 0


def render_summary(per_game: dict[str, GameSummary]) -> str:
    from ..vocabulary import kind_label, relation_label

    lines = []
    for game, info in per_game.items():
        categories = ", ".join(f"{kind_label(c, plural=n > 1).lower()} {n}" for c, n in info["by_category"].items())
        abilities = ngettext("{count} ability", "{count} abilities", info["abilities"]).format(count=info["abilities"])
        notes = ngettext("{count} designer note", "{count} designer notes", info["notes"]).format(count=info["notes"])
        lines.append(_("{game}: {abilities} ({categories}), {notes}").format(
            game=game, abilities=abilities, categories=categories, notes=notes))
        if info.get("glossary_categories"):
            listed = ", ".join(f"{c} {n}" for c, n in info["glossary_categories"].items())
            lines.append("  " + _("categories: {categories}").format(categories=listed))
        undefined = info["undefined"]
        lines.append("  " + _("undefined: {count}").format(count=len(undefined))
                     + (f" ({', '.join(undefined)})" if undefined else ""))
        edges = ", ".join(f"{relation_label(r)} {n}" for r, n in info["edges"].items())
        lines.append("  " + _("edges: {edges}").format(edges=edges or _("none")))
        if not info["lexicon"]:
            lines.append("  " + _("no lexicon file: states, actions and characteristics are not linked "
                                  "(add lexicon = \"….toml\" to its [[game]] in the manifest; see data/lexicons/)"))
    return "\n".join(lines)
