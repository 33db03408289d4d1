"""Helpers shared by the CLI commands: loading the graph, progress, rendering tables."""

from __future__ import annotations

import gc
import json
import sys
import time
from pathlib import Path

from ..defaults import DEFAULT_MANIFEST, DEFAULT_OUT  # noqa: F401 (the commands' defaults)
from ..i18n import _


class Progress:
    """Shows build steps on stderr, only on a terminal (or when asked) and only once the build
    takes a moment: a fast build prints nothing but its summary. A terminal sees one line
    rewritten in place; a file or a pipe gets one line per step."""

    def __init__(self, enabled: bool | None = None, after: float = 0.3):
        self.terminal = sys.stderr.isatty()
        self.enabled = self.terminal if enabled is None else enabled
        # Asked for (--progress), every step shows; on a terminal, only once the build takes a moment.
        self.after = 0.0 if enabled else after
        self.started = time.perf_counter()
        self.shown = False

    def __call__(self, message: str) -> None:
        elapsed = time.perf_counter() - self.started
        if self.enabled and elapsed >= self.after:
            if self.terminal:
                print(f"\r\033[K[{elapsed:5.1f}s] {message}…", end="", file=sys.stderr, flush=True)
            else:
                print(f"[{elapsed:5.1f}s] {message}…", file=sys.stderr, flush=True)
            self.shown = True

    def done(self) -> None:
        if self.shown and self.terminal:
            print("\r\033[K", end="", file=sys.stderr, flush=True)


def add_source_arguments(parser) -> None:
    """--manifest, or FILE… --game [--format]: where the graph comes from."""
    parser.add_argument("files", nargs="*", type=Path, help="glossary files to build from without a manifest")
    parser.add_argument("--manifest", type=Path, default=None, help="corpus manifest (default: data/corpus.toml)")
    parser.add_argument("--game", help="game name for FILE… (required with files)")
    parser.add_argument("--format", help="format of FILE… when it cannot be detected")
    parser.add_argument("--name-field", help="field or column holding each ability's name (JSON, CSV), when not detected")
    parser.add_argument("--text-field", help="field or column holding each ability's rule text (JSON, CSV), when not detected")
    parser.add_argument("--allow-outside", action="store_true",
                        help="let the manifest name files outside its own folder (only for a manifest you trust)")
    add_size_argument(parser)


def add_size_argument(parser) -> None:
    parser.add_argument("--max-size", type=float, default=20.0, metavar="MB",
                        help="largest input file to read, in megabytes (default: 20)")


def build_from_args(args, progress=None):
    """Build the graph the way the arguments say; shared by every command that needs a graph."""
    from ..build import build
    from ..errors import RulegraphError

    fields = {"name_field": args.name_field, "text_field": args.text_field}
    options = {key: value for key, value in fields.items() if value}
    if args.files and not args.game:
        raise RulegraphError(_('building from files needs --game NAME'))
    if options and not args.files:
        raise RulegraphError(_('--name-field/--text-field apply to FILE…; in a manifest write name_field/text_field in the [[source]]'))
    if args.files:
        result = build(files=args.files, game=args.game, format=args.format, options=options, progress=progress,
                       max_mb=args.max_size)
    else:
        result = build(args.manifest or DEFAULT_MANIFEST, progress=progress, allow_outside=args.allow_outside,
                       max_mb=args.max_size)
    # The graph lives until the command ends: taking it out of the collector's reach spares the
    # full collections that would walk its millions of objects again and again (a studio's
    # catalogue built in 41 s instead of 51 s, and a build time that grows as n^1.02, not n^1.2).
    gc.freeze()
    return result


def add_graph_arguments(parser) -> None:
    """--manifest or --graph: where the graph comes from."""
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--manifest", type=Path, default=None, help="corpus manifest to build from (default: data/corpus.toml)")
    source.add_argument("--graph", type=Path, default=None, help="a Turtle graph written by 'rulegraph build' (out/graph.ttl)")
    parser.add_argument("--allow-outside", action="store_true",
                        help="let the manifest name files outside its own folder (only for a manifest you trust)")
    add_size_argument(parser)


def load_graph(args):
    """The graph the arguments name: the store beside a built graph.ttl when it holds that very
    file (opened at once), else the Turtle file parsed, or a fresh build of the manifest."""
    from ..build import build
    from ..graph import load_graph as load_turtle
    from ..store import as_rdflib, open_store

    if args.graph is not None:
        store = open_store(args.graph)
        return as_rdflib(store) if store is not None else load_turtle(args.graph, max_mb=args.max_size)
    return build(args.manifest or DEFAULT_MANIFEST, allow_outside=args.allow_outside, max_mb=args.max_size).graph


def add_output_arguments(parser, *, csv_output: bool = False) -> None:
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print JSON instead of text")
    if csv_output:
        output.add_argument("--csv", action="store_true", help="print CSV instead of a table")


def print_json(data: object) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))
