"""to-review: the edges the relation typer was unsure of ("à vérifier").

Such an edge stays rg:references and its statement carries rg:suggested, the relation the typer
finds likely. The finding quotes the sentence, the suggested edge, the confidence and what decided
it, and the review ID that ``rulegraph review --accept/--retype/--remove`` takes, so the report
leads straight to the answer. Severity info: the glossary is not at fault, the tool is unsure.
"""

from __future__ import annotations

from rdflib import RDF, Graph, Literal, URIRef

from ..catalogue import abilities, game_of, label_of, line_of, source_of, text_of
from ..i18n import _, decimal
from ..namespaces import RG
from ..review import review_id, suggested_ends
from ..vocabulary import relation_phrase
from .finding import CheckId, Finding, sort_key
from .records import TextLocator, place

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
        message = _(
            "to review: “{first}” {relation} “{second}”? The typer is not sure of it ({certainty}) and leaves "
            "“{a}” {references} “{b}”. Sentence: “{sentence}” ({place}). Review ID {id}: rulegraph review "
            "--accept {id} (or --retype {id} RELATION, --remove {id} --reason …)."
        ).format(first=first, relation=relation_phrase(relation), second=second, certainty=_certainty(graph, node),
                 a=a, references=relation_phrase("references"), b=b, sentence=sentence, place=place(source, line),
                 id=edge_id)
        findings.append(TO_REVIEW.finding(
            "info", author.label if author is not None else a, game, message, source or None, line or None))
    return sorted(findings, key=sort_key)


def _certainty(graph: Graph, node: URIRef) -> str:
    """« confiance 0,49 ; règle : typer (…) », the parts the statement has."""
    parts = []
    confidence = graph.value(node, RG.confidence)
    if isinstance(confidence, Literal):
        parts.append(_("confidence {value}").format(value=decimal(float(confidence.toPython()))))
    rule = text_of(graph, node, RG.rule)
    if rule:
        parts.append(_("rule: {rule}").format(rule=rule))
    return _("; ").join(parts) or _("unknown confidence")
