"""``rulegraph impact ABILITY [--game G] [--json]``: what moves if this ability changes;
``rulegraph impact --edit FILE``: what an edited copy of a glossary moves."""

from __future__ import annotations

import sys
from pathlib import Path

from ..i18n import _
from ..render.answers import render_edit, render_impact
from .common import DEFAULT_MANIFEST, Progress, add_graph_arguments, load_graph, print_json


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "impact", help="what else moves if an ability changes, or what an edited glossary moves (--edit FILE)",
        description="Layer by layer: the abilities acting on it or acted on, those in the same relation to the "
                    "same ability, the grant closure, the encounters whose verdict changes, the findings and "
                    "notes. With --edit FILE (an edited copy of one of the manifest's glossaries), the same for "
                    "everything the edit changed, and the verdicts that differ between the two versions.")
    parser.add_argument("ability", nargs="?", help="the ability, matched whatever its case, accents or apostrophes")
    parser.add_argument("--game", help="the ability's game, when its name exists in several")
    parser.add_argument("--edit", type=Path, metavar="FILE", help="an edited copy of a glossary of the manifest")
    parser.add_argument("--source", metavar="PATH", help="with --edit: the manifest source it replaces (default: the same "
                        "file name, else the source it shares most lines with)")
    add_graph_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.set_defaults(run=run)


def run(args) -> int:
    from ..errors import RulegraphError
    from ..impact import impact

    if args.edit is not None:
        if args.ability or args.graph:
            raise RulegraphError(_("--edit FILE compares the manifest's glossary with its edited copy; give no ABILITY and no --graph"))
        return _run_edit(args)
    if not args.ability:
        raise RulegraphError(_('give an ABILITY, or --edit FILE for an edited copy of a glossary'))
    result = impact(load_graph(args), args.ability, game=args.game)
    print_json(result) if args.json else print(render_impact(result))
    return 0


def _run_edit(args) -> int:
    from ..build import build
    from ..errors import RulegraphError
    from ..impact import edited_source, impact_of_edit

    if not args.edit.is_file():
        raise RulegraphError(_('no such file; give the edited copy of a glossary'), path=args.edit)
    manifest = args.manifest or DEFAULT_MANIFEST
    source = edited_source(manifest, args.edit, args.source)
    progress = Progress()
    progress(_("building the original"))
    old = build(manifest, progress=progress).graph
    progress(_("building the edited copy"))
    new = build(manifest, progress=progress, substitutes={source: args.edit}).graph
    progress(_("replaying encounters"))
    result = impact_of_edit(old, new)
    result["source"], result["edited"] = source, str(args.edit)
    progress.done()
    print_json(result) if args.json else print(render_edit(result, sys.stdout.isatty()))
    return 0


