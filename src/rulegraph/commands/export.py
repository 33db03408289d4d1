"""``rulegraph export FORMAT``: the graph as an HTML atlas, JSON-LD, GraphML, CSV or Turtle."""

from __future__ import annotations

from pathlib import Path

from ..defaults import DEFAULT_OUT, EXPORT_FORMATS, GLOSSARY_FORMATS
from ..i18n import _
from .common import Progress, add_source_arguments, build_from_args

_FORMATS = (*EXPORT_FORMATS, "glossary")


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "export",
        help="write the graph as html, jsonld, graphml, csv or ttl, or the glossary with its links",
        description="Write the graph (or the neighbourhood of one name) in another format. "
        f"Default paths: {', '.join(str(DEFAULT_OUT / name) for name, _ in EXPORT_FORMATS.values())}; "
        "a focused export is named after the focus, e.g. out/graph-interception-2.html. "
        f"'export glossary [--format {'|'.join(GLOSSARY_FORMATS)}] [--clean] [--game G]' writes the glossary back, in its own "
        f"order and text, with every cross-reference linked (default: {DEFAULT_OUT / 'glossary.html'}).",
    )
    parser.add_argument("export_format", metavar="FORMAT", choices=_FORMATS, help=", ".join(_FORMATS))
    add_source_arguments(parser)
    parser.add_argument("--out", type=Path, default=None, help="output file (default: under out/)")
    parser.add_argument("--focus", metavar="NAME", help="only the neighbourhood of this ability or term")
    parser.add_argument("--depth", type=int, default=2, help="how many edges away from --focus to keep (default: 2)")
    parser.add_argument("--clean", action="store_true", help="glossary: leave out designer notes and open findings")
    parser.set_defaults(run=run)


def run(args) -> int:
    from ..build import write_atomic
    from ..exports import default_path, export

    if args.export_format == "glossary":
        return _run_glossary(args)
    progress = Progress()
    result = build_from_args(args, progress)
    progress(_("writing {format}").format(format=args.export_format))
    content = export(result.graph, args.export_format, focus=args.focus, depth=args.depth)
    path = args.out or default_path(args.export_format, focus=args.focus, depth=args.depth, out=DEFAULT_OUT)
    # A BOM lets spreadsheet programs read the CSV's accents as UTF-8.
    write_atomic(path, content.encode("utf-8-sig") if args.export_format == "csv" else content)
    progress.done()
    print(f"wrote {path}")
    return 0


def _run_glossary(args) -> int:
    """``--format`` names the output here (html, md, docx): those names are not reader formats,
    so a reader format given with FILE… still reaches the build."""
    from ..build import write_atomic
    from ..errors import RulegraphError
    from ..glossary_export import default_path, export_glossary

    output = "html"
    if args.format in GLOSSARY_FORMATS:
        output, args.format = args.format, None
    elif args.format is not None and not args.files:
        raise RulegraphError(_("unknown glossary format {format!r}; use --format {formats}").format(
            format=args.format, formats=_(" or ").join([", ".join(GLOSSARY_FORMATS[:-1]), GLOSSARY_FORMATS[-1]])))
    if args.focus:
        raise RulegraphError(_('export glossary writes whole glossaries; use --game G instead of --focus'))
    progress = Progress()
    result = build_from_args(args, progress)
    game = None if args.files else args.game
    progress(_("writing the glossary ({output})").format(output=output))
    content = export_glossary(result.graph, output, game=game, clean=args.clean)
    path = args.out or default_path(output, game=game, out=DEFAULT_OUT)
    write_atomic(path, content)
    progress.done()
    print(f"wrote {path}")
    return 0
