"""``rulegraph build``: read the corpus, write out/graph.ttl, out/graph.html, the consistency
report (out/report.html, out/report.md) and the store out/graph.oxigraph, print a summary."""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from ..i18n import _
from ..render.answers import render_summary
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
    from ..build import render_pages, summary
    from ..checks import name_content, start_checks
    from ..graph import turtle_bytes
    from ..outputs import publish
    from ..store import BULK_LOAD_FROM, digest, discard_staging, load_store, store_path, swap_store

    progress = Progress(enabled=True if args.progress else None)
    result = build_from_args(args, progress)
    start_checks(result.graph)
    progress(_("writing the graph as Turtle"))
    turtle = turtle_bytes(result.graph)
    turtle_digest = digest(turtle)
    name_content(result.graph, turtle_digest)
    # The store is a cache of graph.ttl that knows the digest of the file it was loaded from: a
    # reader ignores a store that does not match. It is swapped in under the output folder's lock,
    # right after graph.ttl, so that two builds into one folder leave a store that matches.
    # Oxigraph loads with Python's lock released, so a store small enough for one transaction
    # fills in a thread while the atlas and the report are rendered. A large one is bulk-loaded
    # first, here, reusing the memory the Turtle writer just gave back: in a thread, its memory
    # came from another malloc arena, and the peak of 100 copies of the seeds grew by 100 MB.
    progress(_("loading the store"))
    store = store_path(args.out / "graph.ttl")
    staging: Path | None = None
    loading: Future[Path] | None = None
    try:
        with ThreadPoolExecutor(max_workers=1) as loader:
            if len(turtle) >= BULK_LOAD_FROM:
                staging = load_store(turtle, store, turtle_digest)
            else:
                loading = loader.submit(load_store, turtle, store, turtle_digest)
            outputs: dict[str, str | bytes] = {"graph.ttl": turtle}
            outputs.update(render_pages(result.graph, turtle_digest, progress))
        # The loader has finished here, whatever happened above.
        loaded = staging = loading.result() if loading is not None else staging
        assert loaded is not None
        progress(_("writing outputs"))
        publish(args.out, outputs, under_lock=lambda: swap_store(loaded, store))
    finally:
        if staging is None and loading is not None and loading.done() and loading.exception() is None:
            staging = loading.result()
        if staging is not None:
            discard_staging(staging)
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


