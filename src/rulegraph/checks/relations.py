"""Checks on the interaction edges: one-sided-relation, contradiction, grant-cycle, self-reference.

They read the rg:Statement evidence, so every finding quotes the sentence and line behind it.
Which ability's text states an edge is decided by position (the ability whose entry holds the
statement's line), not by the edge's direction: "Frappe rapide and Riposte rapide cancel each
other" may be written in either text, or in both.
"""

from __future__ import annotations

from collections import defaultdict

import networkx as nx
from rdflib import Graph, URIRef

from ..catalogue import Evidence, RuleGraph, abilities, game_of, is_defined, label_of, statements
from ..i18n import _
from ..namespaces import SYMMETRIC
from ..resolve import ATTACKS, MUTUAL
from ..text import of_name
from ..vocabulary import relation_phrase
from .finding import CheckId, Finding
from .records import TextLocator, place

ONE_SIDED_RELATION = CheckId("RG007", "one-sided-relation")
CONTRADICTION = CheckId("RG008", "contradiction")
GRANT_CYCLE = CheckId("RG009", "grant-cycle")
SELF_REFERENCE = CheckId("RG010", "self-reference")

#: Edge kinds that say "switch off", opposed to a grant of the same pair.
SWITCH_OFF = ATTACKS + (MUTUAL,)
#: Relations whose self-loop is only a text naming its own ability: not worth a finding.
HARMLESS_SELF = ("references",)


def check_one_sided_relations(graph: Graph) -> list[Finding]:
    defined = abilities(graph)
    locator = TextLocator(defined)
    stated: dict[tuple[str, frozenset[URIRef]], dict[URIRef, Evidence]] = defaultdict(dict)
    mentions: dict[tuple[URIRef, URIRef], Evidence] = {}
    for item in statements(graph):
        owner = locator.ability_at(item.source, item.line)
        if owner is not None and item.subject != item.object and owner.node in (item.subject, item.object):
            other_end = item.object if owner.node == item.subject else item.subject
            mentions.setdefault((owner.node, other_end), item)
        if item.relation not in SYMMETRIC or item.subject == item.object:
            continue
        if not (is_defined(graph, item.subject) and is_defined(graph, item.object)):
            continue
        writer = locator.ability_at(item.source, item.line)
        if writer is not None and writer.node in (item.subject, item.object):
            stated[(item.relation, frozenset((item.subject, item.object)))].setdefault(writer.node, item)
    by_node = {a.node: a for a in defined}
    findings = []
    for (relation, pair), authors in stated.items():
        if len(authors) != 1:
            continue
        (author, proof), = authors.items()
        silent = next(node for node in pair if node != author)
        other = by_node[silent]
        author_label = label_of(graph, author)
        mention = mentions.get((silent, author))
        if mention is None:
            silence = _("but the text {of_name} says nothing of it").format(of_name=of_name(other.label))
        else:
            silence = _("but the text {of_name}, which mentions it (“{sentence}”, {place}), does not say so").format(
                of_name=of_name(other.label), sentence=mention.sentence, place=place(mention.source, mention.line))
        findings.append(ONE_SIDED_RELATION.finding(
            "warning", other.label, other.game,
            _("The text {of_name} says that it {relation} “{other}” (“{sentence}”, {place}) {silence}: "
              "write it on both sides, or check that it is meant.").format(
                of_name=of_name(author_label), relation=relation_phrase(relation), other=other.label,
                sentence=proof.sentence, place=place(proof.source, proof.line), silence=silence),
            other.source, other.line))
    return findings


def check_contradictions(graph: Graph) -> list[Finding]:
    """The same pair both granted and switched off, or both required and excluded."""
    edges: dict[tuple[URIRef, URIRef], dict[str, Evidence]] = defaultdict(dict)
    for item in statements(graph):
        edges[(item.subject, item.object)].setdefault(item.relation, item)
        if item.relation in SYMMETRIC:
            edges[(item.object, item.subject)].setdefault(item.relation, item)
    clashes = []
    for (subject, obj), relations in edges.items():
        if subject == obj:
            continue
        for positive, negatives in (("grants", SWITCH_OFF), ("requires", ("excludes",))):
            if positive not in relations:
                continue
            for negative in negatives:
                if negative in relations:
                    clashes.append((subject, obj, relations[positive], relations[negative]))
    # Sorted once found: sorting every pair of the graph first cost seconds at a studio's scale.
    clashes.sort(key=lambda clash: (clash[0], clash[1]))
    return [_contradiction(graph, *clash) for clash in clashes]


def _contradiction(graph: Graph, subject: URIRef, obj: URIRef, yes: Evidence, no: Evidence) -> Finding:
    game = game_of(graph, subject)[1]
    a, b = label_of(graph, subject), label_of(graph, obj)
    return CONTRADICTION.finding(
        "error", a, game,
        _("“{name}” {relation} “{other}” (“{sentence}”, {place}) and yet {other_relation} “{other}” "
          "(“{other_sentence}”, {other_place}): both cannot be true at once.").format(
            name=a, relation=relation_phrase(yes.relation), other=b, sentence=yes.sentence,
            place=place(yes.source, yes.line), other_relation=relation_phrase(no.relation),
            other_sentence=no.sentence, other_place=place(no.source, no.line)),
        yes.source, yes.line)


def check_grant_cycles(graph: Graph) -> list[Finding]:
    view = RuleGraph(graph).networkx()
    grants = nx.DiGraph()
    evidence_of: dict[tuple[str, str], dict] = {}
    for u, v, data in view.edges(data=True):
        if data["relation"] == "grants" and u != v:
            grants.add_edge(u, v)
            evidence_of.setdefault((u, v), data)
    findings = []
    for cycle in nx.simple_cycles(grants):
        start = min(range(len(cycle)), key=lambda i: view.nodes[cycle[i]]["label"])
        cycle = cycle[start:] + cycle[:start]
        steps = list(zip(cycle, cycle[1:] + cycle[:1]))
        labels = [view.nodes[n]["label"] for n in cycle]
        chain = " → ".join([*labels, labels[0]])
        proofs = "; ".join(
            f"{view.nodes[u]['label']} → {view.nodes[v]['label']} ({place(evidence_of[(u, v)]['source'], evidence_of[(u, v)]['line'])})"
            for u, v in steps)
        first = evidence_of[steps[0]]
        findings.append(GRANT_CYCLE.finding(
            "warning", labels[0], view.nodes[cycle[0]]["game"] or "",
            _("Grant loop: {chain}. Each ability grants another that ends up granting the first again "
              "({proofs}); check that it is not a circular definition.").format(chain=chain, proofs=proofs),
            first["source"] or None, first["line"] or None))
    return findings


def check_self_references(graph: Graph) -> list[Finding]:
    findings = []
    for item in statements(graph):
        if item.subject != item.object or item.relation in HARMLESS_SELF:
            continue
        name = label_of(graph, item.subject)
        game = game_of(graph, item.subject)[1]
        findings.append(SELF_REFERENCE.finding(
            "info", name, game,
            _("“{name}” {relation} itself (“{sentence}”): often meant (two bearers of the same ability), "
              "sometimes an ill-chosen name; to read again.").format(
                name=name, relation=relation_phrase(item.relation), sentence=item.sentence),
            item.source, item.line))
    return findings
