"""``rulegraph review``: the edges the typer was unsure of, and the designer's answer to each,
appended to the manifest's curation file (never rewriting an entry)."""

from __future__ import annotations

from pathlib import Path

from ..i18n import _
from .common import DEFAULT_MANIFEST, print_json


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "review", help="list the uncertain edges ('à vérifier') and accept, retype or remove one",
        description="Without an action, list the edges the relation typer left as references with a suggested "
                    "relation (and, with --below, the typed edges under that confidence), each with an ID. "
                    "--accept ID, --retype ID RELATION or --remove ID --reason TEXT appends the answer to the "
                    "curation file next to the manifest; the next build applies it.")
    parser.add_argument("--manifest", type=Path, default=None, help="corpus manifest (default: data/corpus.toml)")
    parser.add_argument("--game", help="only this game (id or name)")
    parser.add_argument("--below", type=float, metavar="CONFIDENCE",
                        help="also list typed edges whose confidence is under this value (0–1)")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--accept", metavar="ID", help="keep the relation the typer suggests (or, for a typed edge listed by --below, the one it asserted)")
    action.add_argument("--retype", nargs=2, metavar=("ID", "RELATION"), help="give the edge this relation")
    action.add_argument("--remove", metavar="ID", help="drop the edge (with --reason)")
    parser.add_argument("--reason", help="why (required with --remove; kept in the graph)")
    parser.add_argument("--json", action="store_true", help="print the list as JSON")
    parser.set_defaults(run=run)


def run(args) -> int:
    from ..build import build
    from ..catalogue import find_game
    from ..errors import RulegraphError
    from ..i18n import ngettext, quoted
    from ..review import append_to_curation, confidence_text, curation_entry, find_item, proposal, review_items
    from ..vocabulary import edge_sentence

    manifest = args.manifest or DEFAULT_MANIFEST
    result = build(manifest)
    game = find_game(result.graph, args.game) if args.game else None
    if args.below is not None and not 0 <= args.below <= 1:
        raise RulegraphError(_('--below takes a confidence between 0 and 1, not {below}').format(below=args.below))
    items = review_items(result.statements, game=game, below=args.below)
    chosen = args.accept or (args.retype[0] if args.retype else None) or args.remove
    if chosen:
        item = find_item(items, result.statements, chosen)
        action = "accept" if args.accept else "retype" if args.retype else "remove"
        block = curation_entry(item, action, relation=args.retype[1] if args.retype else None, reason=args.reason)
        path = append_to_curation(manifest, block, result.corpus)
        print(_("appended to {path}:").format(path=path) + f"\n\n{block}\n" + _("The next 'rulegraph build' applies it."))
        return 0
    if args.json:
        print_json([{"id": i.id, "game": i.game, "subject": i.statement.subject.label, "relation": i.statement.relation,
                     "object": i.statement.object.label, "suggested": i.suggested, "suggested_edge": i.suggested_edge,
                     "confidence": i.statement.confidence, "rule": i.statement.rule, "source": i.statement.source,
                     "line": i.statement.line, "sentence": i.statement.sentence} for i in items])
        return 0
    if not items:
        print(_("Nothing to review: every extracted edge is above the typer's confidence threshold."))
        return 0
    print(ngettext("To review: {count} edge, least sure first", "To review: {count} edges, least sure first", len(items)).format(count=len(items)))
    for item in items:
        s = item.statement
        edge = edge_sentence(*proposal(item))
        asked = _("suggested: {edge}").format(edge=edge) if item.suggested else _("typed: {edge}").format(edge=edge)
        print(f"\n[{item.id}] {s.source}:{s.line}  " + _("confidence {value}").format(value=confidence_text(item)) + f"  {asked}")
        print(f"    {quoted(s.sentence)}")
    print("\n" + _("Answer with: {command}").format(command='rulegraph review --accept ID | --retype ID RELATION | --remove ID --reason "…"'))
    return 0
