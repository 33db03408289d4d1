"""to-review: the edges the relation typer was unsure of ("à vérifier").

Such an edge stays rg:references and its statement carries rg:suggested, the relation the typer
finds likely. The finding quotes the sentence, the suggested edge, the confidence and what decided
it, and the review ID that ``rulegraph review --accept/--retype/--remove`` takes, so the report
leads straight to the answer. Severity info: the glossary is not at fault, the tool is unsure.
"""

from __future__ import annotations

from rdflib import RDF, Graph, Literal, URIRef

from ..catalogue import abilities, game_of, label_of, line_of, source_of, text_of
from ..namespaces import RG
from ..review import review_id, suggested_ends
from ..vocabulary import relation_phrase
from .finding import CheckId, Finding, sort_key
from .records import TextLocator, place
from .relations import LANGUAGE

TO_REVIEW = CheckId("RG014", "to-review")


def check_to_review(graph: Graph) -> list[Finding]:
    locator = TextLocator(abilities(graph))
    findings = []
    for node, suggested in graph.subject_objects(RG.suggested):
        if (node, RDF.type, RG.Statement) not in graph:
            continue
        subject, obj = graph.value(node, RDF.subject), graph.value(node, RDF.object)
        if subject is None or obj is None or not isinstance(node, URIRef):
            continue
        game_id, game = game_of(graph, subject)
        a, b = label_of(graph, subject), label_of(graph, obj)
        sentence, source, line = text_of(graph, node, RG.sentence), source_of(graph, node), line_of(graph, node) or 0
        relation = str(suggested).rsplit("#", 1)[-1]
        first, second = suggested_ends(a, b, text_of(graph, node, RG.reason))
        edge_id = review_id(game_id, a, b, source, line, sentence)
        author = locator.ability_at(source, line)
        message = (
            f"à vérifier : « {first} » {relation_phrase(relation, LANGUAGE)} « {second} » ? "
            f"Le typeur n’en est pas sûr ({_certainty(graph, node)}) et laisse « {a} » {relation_phrase('references', LANGUAGE)} « {b} ». "
            f"Phrase : « {sentence} » ({place(source, line)}). "
            f"ID de revue {edge_id} : rulegraph review --accept {edge_id} (ou --retype {edge_id} RELATION, "
            f"--remove {edge_id} --reason …)."
        )
        findings.append(TO_REVIEW.finding(
            "info", author.label if author is not None else a, game, message, source or None, line or None))
    return sorted(findings, key=sort_key)


def _certainty(graph: Graph, node: URIRef) -> str:
    """« confiance 0,49 ; règle : typer (…) », the parts the statement has."""
    parts = []
    confidence = graph.value(node, RG.confidence)
    if isinstance(confidence, Literal):
        parts.append(f"confiance {float(confidence.toPython()):.2f}".replace(".", ","))
    rule = text_of(graph, node, RG.rule)
    if rule:
        parts.append(f"règle : {rule}")
    return " ; ".join(parts) or "confiance inconnue"
