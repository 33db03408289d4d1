"""The text answers of the commands: interactions, resolve, impact, complexity, the build summary."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..i18n import _, labelled, ngettext, number, quoted
from .tables import format_table

if TYPE_CHECKING:
    from ..build import GameSummary
    from ..complexity import Score, Weights
    from ..impact import EditImpact, Encounter, FindingAbout, Impact, Moved
    from ..interactions import Interactions
    from ..resolve import Resolution


def read_as(typed: list[str], matched: list[str]) -> list[str]:
    """One line per name that was matched to another spelling than a change of case, accents or
    apostrophes ("Fouiseur" → "Fouisseur"): a typo is never corrected silently."""
    from ..names import parse_heading
    from ..text import fold

    lines = []
    for name, label in zip(typed, matched):
        if fold(parse_heading(name).name) != fold(label):
            lines.append(_("(read '{name}' as '{label}')").format(name=name, label=label))
    return lines


def _evidence_where(edge: Mapping[str, object]) -> str:
    condition = "\n      " + _("condition: {condition}").format(condition=edge["condition"]) if edge.get("condition") else ""
    scope = "\n      " + _("scope: {scope}").format(scope=edge["scope"]) if edge.get("scope") else ""
    return f"{quoted(str(edge['evidence']))} ({edge['source']}:{edge['line']}){condition}{scope}"


def edge_sentence(subject: str, relation: str, obj: str) -> str:
    """:func:`rulegraph.vocabulary.edge_sentence`, imported when first used: the CLI's parser
    imports this module, and the vocabulary brings rdflib and pyoxigraph."""
    from ..vocabulary import edge_sentence as sentence

    return sentence(subject, relation, obj)


def _edge(edge: Mapping[str, object]) -> str:
    return edge_sentence(str(edge["subject"]), str(edge["relation"]), str(edge["object"]))


def render_interactions(result: Interactions) -> str:
    from ..vocabulary import kind_label, relation_label

    lines = [f"{result['a']} ↔ {result['b']}", "", _("Direct relations:")]
    for edge in result["relations"]:
        lines.append(f"  {_edge(edge)}")
        lines.append(f"      {_evidence_where(edge)}")
    if not result["relations"]:
        lines.append("  " + _("none"))
    lines += ["", _("Paths through other terms ({count}):").format(count=len(result["paths"]))]
    for path in result["paths"]:
        steps = [result["a"]]
        for hop in path["hops"]:
            relation = relation_label(hop["relation"])
            arrow = f"-{relation}->" if hop["direction"] == "forward" else f"<-{relation}-"
            steps.append(f"{arrow} {hop['to']}")
        lines.append("  " + " ".join(steps))
        for hop in path["hops"]:
            more = (" " + ngettext("(and {count} more edge between them: {command})", "(and {count} more edges between them: {command})",
                                   hop["other_edges"]).format(count=hop["other_edges"], command=f'rulegraph interactions "{hop["from"]}" "{hop["to"]}"')
                    ) if hop["other_edges"] else ""
            lines.append(f"      {hop['from']} / {hop['to']}{more}: {_evidence_where(hop)}")
    if not result["paths"]:
        lines.append("  " + _("none"))
    lines += ["", _("Shared:")]
    for item in result["shared"]:
        lines.append(f"  {kind_label(item['kind']).lower()}: {item['term']}")
        for side in ("a", "b"):
            for edge in item[side]:
                lines.append(f"      {_edge(edge)}: {_evidence_where(edge)}")
    if not result["shared"]:
        lines.append("  " + _("nothing"))
    return "\n".join(lines)


def render_resolution(result: Resolution) -> str:
    from ..resolve import qualifiers

    lines = []
    for position, side in enumerate(result["sides"], start=1):
        lines.append(_("Side {number}: {abilities}").format(number=position, abilities=", ".join(side["abilities"])))
        lines.append("  " + _("in effect: {abilities}").format(abilities=", ".join(side["in_effect"]) or _("none")))
        for defeat in side["defeated"]:
            # Conditions and scopes stand beside the verdict: "pour les adversaires présents dans sa zone de contrôle".
            by = ", ".join(defeat["by"]) + qualifiers(defeat["evidence"])
            lines.append("  " + _("defeated:  {ability} (by {by})").format(ability=defeat["ability"], by=by))
        if side["undecided"]:
            lines.append("  " + _("undecided: {abilities}").format(abilities=", ".join(side["undecided"])))
        defeated = {defeat["ability"] for defeat in side["defeated"]}
        for grant in side["granted"]:
            fate = _(", then defeated") if grant["ability"] in defeated else ""
            lines.append("  " + _("granted:   {ability} (by {by}{fate})").format(ability=grant["ability"], by=", ".join(grant["by"]), fate=fate))
    lines += ["", _("Why:")]
    for item in result["explanation"]:
        lines.append(f"  - {item['text']}")
        for link in item["chain"]:
            edge: Mapping[str, object] = link  # an edge, or a general rule's sentence (evidence only)
            where = f" ({edge['source']}:{edge['line']})" if edge.get("source") else ""
            evidence = quoted(str(edge["evidence"]))
            cited = labelled(_edge(edge), evidence) if edge.get("relation") else evidence
            lines.append(f"      {cited}{where}")
    return "\n".join(lines)


def _impact_where(item: Mapping[str, object]) -> str:
    where = f" ({item['source']}:{item['line']})" if item.get("source") else ""
    condition = "\n        " + _("condition: {condition}").format(condition=item["condition"]) if item.get("condition") else ""
    return f"{quoted(str(item['evidence']))}{where}{condition}"


def _counted(title: str, count: int) -> str:
    """"Direct (3):", with the user's punctuation."""
    return labelled(f"{title} ({count})")


def _layers(result: Impact, own: str) -> list[str]:
    lines = [_counted(_("Direct"), len(result["direct"]))]
    for item in result["direct"]:
        lines.append("  " + edge_sentence(item["subject"], item["relation"], item["object"]))
        lines.append(f"      {_impact_where(item)}")
    lines.append(_counted(_("Alongside: the same relation to the same ability"), len(result["alongside"])))
    for item in result["alongside"]:
        lines.append("  " + _("{edge} (as {own} with {via})").format(
            edge=edge_sentence(item["subject"], item["relation"], item["object"]), own=own, via=item["via"]))
        lines.append(f"      {_impact_where(item)}")
    for key, title in (("gives", _("Grants, transitively")), ("given_by", _("Granted by, transitively"))):
        paths = result["grants"][key]
        lines.append(_counted(title, len(paths)))
        for path in paths:
            chain = " → ".join([path["chain"][0]["subject"], *(hop["object"] for hop in path["chain"])])
            lines.append(f"  {path['ability']}: {chain}")
    return lines


def _encounters(encounters: list[Encounter], title: str) -> list[str]:
    from ..impact import encounter_change

    verdicts = sum(len(e["changes"]) for e in encounters)
    lines = [_counted(title, verdicts)]
    not_held = _("(not held)")
    for encounter in encounters:
        for change in encounter["changes"]:
            lines.append("  " + encounter_change(encounter["sides"], change))
            lines.append("      " + _("before: {why}").format(why=change["why_before"] or not_held))
            lines.append("      " + _("after:  {why}").format(why=change["why_after"] or not_held))
    if not encounters:
        lines.append("  " + _("none"))
    return lines


def _findings(findings: list[FindingAbout], title: str | None = None) -> list[str]:
    from ..checks.finding import severity_label

    lines = [_counted(title or _("Findings"), len(findings))]
    for finding in findings:
        where = f"{finding['source']}:{finding['line']}: " if finding.get("source") and finding.get("line") else ""
        lines.append(f"  {finding['code']} {finding['check']} ({severity_label(finding['severity'])}): {where}{finding['message']}")
    return lines


def _moves(moves: list[Moved]) -> list[str]:
    lines = [_counted(_("What moves"), len(moves))]
    for item in moves:
        lines.append(f"  {item['ability']}")
        lines += [f"      - {reason}" for reason in item["reasons"]]
    if not moves:
        lines.append("  " + _("nothing"))
    return lines


def render_impact(result: Impact) -> str:
    from ..impact import summary_line

    where = f", {result['source']}:{result['line']}" if result["source"] else _(", not defined in its glossary")
    lines = [f"{result['ability']} ({result['game']}{where})", summary_line(result), ""]
    lines += _moves(result["moves"]) + [""]
    lines += _layers(result, result["ability"])
    lines += _encounters(result["encounters"], _("Encounters whose verdict changes once {ability}'s relations are gone").format(ability=result["ability"]))
    lines += _findings(result["findings"])
    lines.append(_counted(_("Designer notes"), len(result["notes"])))
    lines += ["  " + _("line {line}: {text} on {questions}").format(line=note["line"], text=quoted(note["text"]), questions=quoted(note["questions"]))
              for note in result["notes"]]
    return "\n".join(lines)


def render_edit(result: EditImpact, colour: bool = False) -> str:
    from ..editions import field_label
    from ..impact import summary_line
    from .diffs import render_diff

    lines = [f"{result['source']} → {result['edited']}", summary_line(result), ""]
    diff = result["diff"]
    lines.append(_counted(_("Changed"), len(result["changed"])))
    for changed in diff["abilities_changed"]:
        lines.append("  " + labelled(f"{changed['ability']} ({changed['game']})", ", ".join(field_label(f) for f in changed["fields"])))
        if "text_diff" in changed:
            lines.append("    " + render_diff(changed["text_diff"], colour).replace("\n", "\n    "))
    for title, abilities in ((_("added"), diff["abilities_added"]), (_("removed"), diff["abilities_removed"])):
        lines += ["  " + labelled(f"{item['ability']} ({item['game']})", title) for item in abilities]
    for title, edges in ((_("edge added"), diff["edges_added"]), (_("edge removed"), diff["edges_removed"])):
        for edge in edges:
            lines.append("  " + labelled(title, _("{edge} (line {line})").format(
                edge=edge_sentence(edge["subject"], edge["relation"], edge["object"]), line=edge["line"])))
    lines.append("")
    lines += _encounters(result["encounters"], _("Encounter verdicts that differ between the two versions"))
    lines.append("")
    lines += _moves(result["moves"])
    for item in result["abilities"]:
        lines += ["", "— " + labelled(f"{item['ability']} ({item['game']})", item["changed"])]
        lines += _layers(item, item["ability"])
        lines += _findings(item["findings"], _("Findings before the edit"))
        lines += _findings(item["findings_after"], _("Findings after the edit"))
    return "\n".join(lines)


def render_complexity(scored: list[Score], weights: Weights) -> str:
    from ..complexity import breakdown_line, part_label

    rank, ability, game, score = _("rank"), _("ability"), _("game"), _("score")
    rows = [{rank: item["rank"], ability: item["ability"], game: item["game"], score: number(item["score"])} for item in scored]
    lines = [_("weights: {path}").format(path=weights.path),
             "  " + ", ".join(f"{part_label(part)} {number(value)}" for part, value in weights.values.items()), "", format_table(rows), ""]
    for item in scored:
        lines.append(f"{item['rank']}. {item['ability']} ({item['game']}): {number(item['score'])}")
        lines.append(f"   {breakdown_line(item)}")
        for part in item["parts"]:
            if part["items"] and part["weight"]:
                lines.append("   " + labelled(part_label(part["part"]), "; ".join(part["items"])))
    return "\n".join(lines)


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
