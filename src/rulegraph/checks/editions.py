"""edition-gap: an ability present in some editions of its game and absent from others.

Absences are read against the game's lineage (rg:order): before the first edition that has the
ability it simply did not exist yet, after the last one it was dropped, and in between it is a gap,
the case most worth a look (a text lost, or a skill removed then brought back).
"""

from __future__ import annotations

from rdflib import Graph, Literal

from ..catalogue import Ability, abilities, label_of, line_of, node_value
from ..i18n import _
from ..namespaces import RG
from .finding import CheckId, Finding

EDITION_GAP = CheckId("RG011", "edition-gap")


def check_edition_gaps(graph: Graph) -> list[Finding]:
    findings = []
    for ability in abilities(graph):
        texts = []
        for node in graph.objects(ability.node, RG.hasEditionText):
            edition = node_value(graph, node, RG.edition)
            order = graph.value(edition, RG.order) if edition is not None else None
            present = graph.value(node, RG.present)
            texts.append((
                int(order.toPython()) if isinstance(order, Literal) else None,
                label_of(graph, edition) if edition is not None else "?",
                isinstance(present, Literal) and present.toPython() is True,
                line_of(graph, node),
            ))
        if not texts or all(t[2] for t in texts) or not any(t[2] for t in texts):
            continue
        findings.append(_gap_finding(ability, texts))
    return findings


def _gap_finding(ability: Ability, texts: list[tuple[int | None, str, bool, int | None]]) -> Finding:
    ordered = sorted(texts, key=lambda t: (t[0] is None, t[0] or 0, t[1]))
    known = [t for t in ordered if t[0] is not None]
    present_positions = [i for i, t in enumerate(known) if t[2]]
    before, inside, after = [], [], []
    for i, (_order, edition, present, line) in enumerate(known):
        if present:
            continue
        if present_positions and i < present_positions[0]:
            before.append((edition, line))
        elif present_positions and i > present_positions[-1]:
            after.append((edition, line))
        else:
            inside.append((edition, line))
    outside_lineage = [(t[1], t[3]) for t in ordered if t[0] is None and not t[2]]
    have = ", ".join(t[1] for t in ordered if t[2])
    parts = [_("“{name}” exists in {editions}").format(name=ability.label, editions=have)]
    if inside:
        parts.append(_("but is missing between two editions that have it: {editions}").format(editions=_names(inside)))
    if before:
        parts.append(_("does not exist yet in {editions}").format(editions=_names(before)))
    if after:
        parts.append(_("has disappeared from {editions}").format(editions=_names(after)))
    if outside_lineage:
        parts.append(_("is absent from {editions}").format(editions=_names(outside_lineage)))
    message = parts[0] + (", " + _("; ").join(parts[1:]) if len(parts) > 1 else "") + "."
    if inside:
        message += " " + _("A lost text, or an ability removed then put back: to check.")
    first = (inside or outside_lineage or after or before)[0]
    return EDITION_GAP.finding(
        "warning" if inside else "info", ability.label, ability.game, message, ability.source, first[1])


def _names(items: list[tuple[str, int | None]]) -> str:
    return ", ".join(_("{edition} (line {line})").format(edition=edition, line=line) if line else edition
                     for edition, line in items)
