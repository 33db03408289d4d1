"""shacl: the structural rules of ontology/shapes.ttl, validated with pySHACL, as findings.

Each validation result becomes a finding on the ability it concerns: the focus node itself, or
the ability a note, edition text or statement hangs off, so structural faults land next to the
content faults in the report.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from rdflib import RDF, Graph, Namespace, URIRef
from rdflib.term import Node

from ..catalogue import game_of, label_of, line_of, source_of
from ..i18n import _
from ..namespaces import RG
from .finding import CheckId, Finding

SHACL_CHECK = CheckId("RG013", "shacl")
SH = Namespace("http://www.w3.org/ns/shacl#")
RGS = Namespace("https://w3id.org/rulegraph/shapes#")
SEVERITY = {SH.Violation: "error", SH.Warning: "warning", SH.Info: "info"}
#: Links from a child node (note, edition text, conflicting definition) up to its ability.
_PARENT_LINKS = (RG.hasNote, RG.hasEditionText, RG.conflictingDefinition)


@lru_cache(maxsize=1)
def shapes_text() -> str:
    return resources.files("rulegraph.ontology").joinpath("shapes.ttl").read_text(encoding="utf-8")


def shapes() -> Graph:
    """The shapes shipped in ontology/shapes.ttl."""
    return Graph().parse(data=shapes_text(), format="turtle")


def check_shacl(graph: Graph, shapes_graph: Graph | None = None) -> list[Finding]:
    """The findings of the shipped shapes (or of ``shapes_graph``) on ``graph``."""
    if shapes_graph is None:
        results = _validate_shipped(graph)
    else:
        results = [_validate(graph, shapes_graph)]
    findings = []
    for report in results:
        findings += _findings(graph, report)
    return findings


def _validate(graph: Graph, shapes_graph: Graph) -> Graph:
    from pyshacl import validate

    _conforms, results, _text = validate(graph, shacl_graph=shapes_graph, inference="none", allow_warnings=True, advanced=False)
    return results


def _validate_shipped(graph: Graph) -> list[Graph]:
    """The shipped shapes, with rgs:InteractionStatement given only the statements that can fail
    it. Its sh:or passes on its first branch for a statement whose relation is not one of the
    interactions its sh:in lists, on its second for one with an rg:confidence and an rg:rule;
    pySHACL checks an sh:or node by node, building each branch's results every time (half of
    the validation). The results are those of one validation."""
    shipped = shapes()
    screened = Graph()
    for triple in shipped.cbd(RGS.InteractionStatement):
        shipped.remove(triple)
        screened.add(triple)
    interactions = {item for listed in screened.objects(None, SH["in"]) for item in screened.items(listed)}
    doubtful = Graph()
    for statement in graph.subjects(RDF.type, RG.Statement):
        if interactions.isdisjoint(graph.objects(statement, RDF.predicate)) or (
                (statement, RG.confidence, None) in graph and (statement, RG.rule, None) in graph):
            continue
        doubtful.add((statement, RDF.type, RG.Statement))
        for link in (RDF.predicate, RG.confidence, RG.rule):
            for value in graph.objects(statement, link):
                doubtful.add((statement, link, value))
    return [_validate(graph, shipped), _validate(doubtful, screened)]


def _findings(graph: Graph, results: Graph) -> list[Finding]:
    findings = []
    for result in results.subjects(RDF.type, SH.ValidationResult):
        focus = results.value(result, SH.focusNode)
        if focus is None:
            continue
        level = results.value(result, SH.resultSeverity)
        severity = SEVERITY.get(level, "error") if isinstance(level, URIRef) else "error"
        message = str(results.value(result, SH.resultMessage) or _("SHACL constraint not met"))
        path = results.value(result, SH.resultPath)
        value = results.value(result, SH.value)
        owner = _owner(graph, focus) if isinstance(focus, URIRef) else None
        subject = label_of(graph, owner) if owner is not None else str(focus)
        game = game_of(graph, owner)[1] if owner is not None else ""
        detail = [_("node {node}").format(node=focus)]
        if isinstance(path, URIRef):
            detail.append(_("property {property}").format(property=_short(path)))
        if value is not None:
            detail.append(_("value {value}").format(value=value))
        source = (source_of(graph, focus) or (source_of(graph, owner) if owner is not None else "")) or None
        line = line_of(graph, focus) or (line_of(graph, owner) if owner is not None else None)
        findings.append(SHACL_CHECK.finding(severity, subject, game, f"{message} ({', '.join(detail)})", source, line))
    return findings


def _owner(graph: Graph, node: URIRef) -> Node:
    """The ability a node belongs to: itself, its parent, or a statement's subject."""
    for link in _PARENT_LINKS:
        parent = graph.value(predicate=link, object=node)
        if parent is not None:
            return parent
    if (node, RDF.type, RG.Statement) in graph:
        return graph.value(node, RDF.subject) or node
    return node


def _short(uri: URIRef) -> str:
    text = str(uri)
    return "rg:" + text.split("#", 1)[1] if text.startswith(str(RG)) else text
