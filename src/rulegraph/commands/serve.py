"""``rulegraph serve [--port 7878] [--host 127.0.0.1] [--out out/]``: a read-only SPARQL endpoint
over the store that ``rulegraph build`` wrote, with the atlas, the report and a query page."""

from __future__ import annotations

from pathlib import Path

from ..i18n import _
from .common import DEFAULT_OUT


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "serve", help="a read-only SPARQL endpoint (/sparql) over the built graph, with the atlas and report",
        description="Serve out/graph.oxigraph as a SPARQL 1.1 Protocol endpoint at /sparql (JSON, XML, CSV "
                    "results; Turtle or JSON-LD for CONSTRUCT), read-only, each query time-limited.")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the build's output folder (default: out/)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=7878, help="port (default 7878)")
    parser.add_argument("--timeout", type=float, default=10.0, help="time limit of one query, in seconds (default 10)")
    parser.set_defaults(run=run)


def run(args) -> int:
    import waitress

    from ..errors import RulegraphError
    from ..server import SparqlApp
    from ..store import open_store, store_path

    graph = args.out / "graph.ttl"
    if open_store(graph) is None:
        raise RulegraphError(_("no store matching graph.ttl here; run 'rulegraph build' first (it writes graph.oxigraph)"),
                             path=args.out)
    app = SparqlApp(store_path(graph), out=args.out, timeout=args.timeout)
    print(f"serving {store_path(graph)} read-only at http://{args.host}:{args.port}/sparql "
          f"(query page: http://{args.host}:{args.port}/); Ctrl-C stops", flush=True)
    waitress.serve(app, host=args.host, port=args.port, threads=4, _quiet=True)
    return 0
