"""``rulegraph check``: run the consistency checks and print the report grouped by check.

Exit code 0 when no finding reaches ``--fail-on`` (default ``error``), 1 when one does, 2 on bad
input (the CLI turns RulegraphError into that).
"""

from __future__ import annotations

from ..i18n import _
from .common import Progress, add_source_arguments, build_from_args


def add_parser(subparsers) -> None:
    from ..checks.finding import SEVERITIES

    parser = subparsers.add_parser("check", help="consistency report: notes, undefined names, duplicates, parameters…")
    add_source_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the findings as a JSON list")
    parser.add_argument("--fail-on", choices=SEVERITIES, default="error",
                        help="exit 1 when a finding is at least this severe (default: error)")
    parser.add_argument("--check", dest="checks", nargs="+", action="extend", metavar="CODE",
                        help="only these checks, by code or name (RG004, identical-text)")
    parser.add_argument("--category", dest="categories", nargs="+", action="extend", metavar="NAME",
                        help="only findings about abilities of these glossary categories (section, JSON key…)")
    parser.set_defaults(run=run)


def run(args) -> int:
    from ..catalogue import find_game
    from ..checks import run_checks, select_checks, severity_rank
    from ..render.report import render_json, render_text

    select_checks(args.checks)
    progress = Progress()
    result = build_from_args(args, progress)
    progress(_("running checks"))
    games = [find_game(result.graph, args.game)] if args.game and not args.files else None
    findings = run_checks(result.graph, args.checks, games=games, categories=args.categories)
    progress.done()
    print(render_json(findings) if args.json else render_text(findings))
    threshold = severity_rank(args.fail_on)
    return 1 if any(severity_rank(f.severity) >= threshold for f in findings) else 0
