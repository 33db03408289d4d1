"""``rulegraph build``: read the corpus, write out/graph.ttl, out/graph.html, the consistency
report (out/report.html, out/report.md) and the store out/graph.oxigraph, print a summary."""

from __future__ import annotations

from pathlib import Path

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
    progress("writing the graph as Turtle")
    turtle = turtle_bytes(result.graph)
    # The store is a cache of graph.ttl that knows the digest of the file it was loaded from: a
    # reader ignores a store that does not match, so loading it before the switch mixes nothing.
    # Loaded now, it reuses the memory the Turtle writer just gave back (a lower peak).
    progress("loading the store")
    write_store(turtle, store_path(args.out / "graph.ttl"))
    progress("rendering the atlas")
    outputs: dict[str, str | bytes] = {"graph.ttl": turtle, "graph.html": render_atlas(result.graph)}
    outputs.update(report_pages(result.graph, progress=progress))
    progress("writing outputs")
    publish(args.out, outputs)
    progress.done()
    print(render_summary(summary(result)))
    print(f"\nwrote {args.out / 'graph.ttl'} ({len(result.graph)} triples) and {args.out / 'graph.html'}")
    print(f"wrote {args.out / 'report.html'} and {args.out / 'report.md'} (consistency report: rulegraph check)")
    print(f"wrote {store_path(args.out / 'graph.ttl')} (the store that --graph and rulegraph serve open)")
    return 0


def render_summary(per_game: dict[str, dict[str, object]]) -> str:
    lines = []
    for game, info in per_game.items():
        categories = ", ".join(f"{n} {c}" for c, n in info["by_category"].items())
        lines.append(f"{game}: {_count(info['abilities'], 'ability', 'abilities')} ({categories}), "
                     f"{_count(info['notes'], 'designer note', 'designer notes')}")
        if info.get("glossary_categories"):
            lines.append("  categories: " + ", ".join(f"{c} {n}" for c, n in info["glossary_categories"].items()))
        undefined = info["undefined"]
        lines.append(f"  undefined: {len(undefined)}" + (f" ({', '.join(undefined)})" if undefined else ""))
        edges = ", ".join(f"{r} {n}" for r, n in info["edges"].items())
        lines.append(f"  edges: {edges or 'none'}")
        if not info["lexicon"]:
            lines.append("  no lexicon file: states, actions and characteristics are not linked "
                         "(add lexicon = \"….toml\" to its [[game]] in the manifest; see data/lexicons/)")
    return "\n".join(lines)


def _count(number: int, singular: str, plural: str) -> str:
    return f"{number} {singular if number == 1 else plural}"
