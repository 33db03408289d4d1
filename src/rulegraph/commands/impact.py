"""``rulegraph impact ABILITY [--game G] [--json]``: what moves if this ability changes;
``rulegraph impact --edit FILE``: what an edited copy of a glossary moves."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..impact import EditImpact, Encounter, FindingAbout, Impact, Moved

import sys
from pathlib import Path

from ..i18n import _
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
    print_json(result) if args.json else print(render(result))
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


def _where(item: Mapping[str, object]) -> str:
    where = f" ({item['source']}:{item['line']})" if item.get("source") else ""
    condition = f"\n        condition: {item['condition']}" if item.get("condition") else ""
    return f"« {item['evidence']} »{where}{condition}"


def _layers(result: Impact, own: str) -> list[str]:
    lines = [f"Direct ({len(result['direct'])}):"]
    for item in result["direct"]:
        lines.append(f"  {item['subject']} {item['relation']} {item['object']}")
        lines.append(f"      {_where(item)}")
    lines.append(f"Alongside: the same relation to the same ability ({len(result['alongside'])}):")
    for item in result["alongside"]:
        lines.append(f"  {item['subject']} {item['relation']} {item['object']} (as {own} with {item['via']})")
        lines.append(f"      {_where(item)}")
    for key, title in (("gives", "Grants, transitively"), ("given_by", "Granted by, transitively")):
        paths = result["grants"][key]
        lines.append(f"{title} ({len(paths)}):")
        for path in paths:
            chain = " → ".join([path["chain"][0]["subject"], *(hop["object"] for hop in path["chain"])])
            lines.append(f"  {path['ability']}: {chain}")
    return lines


def _encounters(encounters: list[Encounter], title: str) -> list[str]:
    verdicts = sum(len(e["changes"]) for e in encounters)
    lines = [f"{title} ({verdicts}):"]
    for encounter in encounters:
        for change in encounter["changes"]:
            lines.append(f"  {' vs '.join(encounter['sides'])}: {change['ability']} {change['before']} → {change['after']}")
            lines.append(f"      before: {change['why_before'] or '(not held)'}")
            lines.append(f"      after:  {change['why_after'] or '(not held)'}")
    if not encounters:
        lines.append("  none")
    return lines


def _findings(findings: list[FindingAbout], title: str = "Findings") -> list[str]:
    lines = [f"{title} ({len(findings)}):"]
    for finding in findings:
        where = f"{finding['source']}:{finding['line']}: " if finding.get("source") and finding.get("line") else ""
        lines.append(f"  {finding['code']} {finding['check']} ({finding['severity']}): {where}{finding['message']}")
    return lines


def _moves(moves: list[Moved]) -> list[str]:
    lines = [f"What moves ({len(moves)}):"]
    for item in moves:
        lines.append(f"  {item['ability']}")
        lines += [f"      - {reason}" for reason in item["reasons"]]
    if not moves:
        lines.append("  nothing")
    return lines


def render(result: Impact) -> str:
    from ..impact import summary_line

    where = f", {result['source']}:{result['line']}" if result["source"] else ", not defined in its glossary"
    lines = [f"{result['ability']} ({result['game']}{where})", summary_line(result), ""]
    lines += _moves(result["moves"]) + [""]
    lines += _layers(result, result["ability"])
    lines += _encounters(result["encounters"], f"Encounters whose verdict changes once {result['ability']}'s relations are gone")
    lines += _findings(result["findings"])
    lines.append(f"Designer notes ({len(result['notes'])}):")
    lines += [f"  line {note['line']}: « {note['text']} » on « {note['questions']} »" for note in result["notes"]]
    return "\n".join(lines)


def render_edit(result: EditImpact, colour: bool = False) -> str:
    from ..impact import summary_line
    from .diff import render_diff

    lines = [f"{result['source']} → {result['edited']}", summary_line(result), ""]
    diff = result["diff"]
    lines.append(f"Changed ({len(result['changed'])}):")
    for changed in diff["abilities_changed"]:
        lines.append(f"  {changed['ability']} ({changed['game']}): {', '.join(changed['fields'])}")
        if "text_diff" in changed:
            lines.append("    " + render_diff(changed["text_diff"], colour).replace("\n", "\n    "))
    for title, abilities in (("added", diff["abilities_added"]), ("removed", diff["abilities_removed"])):
        lines += [f"  {item['ability']} ({item['game']}): {title}" for item in abilities]
    for title, edges in (("edge added", diff["edges_added"]), ("edge removed", diff["edges_removed"])):
        for edge in edges:
            lines.append(f"  {title}: {edge['subject']} {edge['relation']} {edge['object']} (line {edge['line']})")
    lines.append("")
    lines += _encounters(result["encounters"], "Encounter verdicts that differ between the two versions")
    lines.append("")
    lines += _moves(result["moves"])
    for item in result["abilities"]:
        lines += ["", f"— {item['ability']} ({item['game']}): {item['changed']}"]
        lines += _layers(item, item["ability"])
        lines += _findings(item["findings"], "Findings before the edit")
        lines += _findings(item["findings_after"], "Findings after the edit")
    return "\n".join(lines)
