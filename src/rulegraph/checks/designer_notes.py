"""designer-note: every ``=> …`` question the author left in the text, with the sentence it is about."""

from __future__ import annotations

from rdflib import RDF, Graph

from ..catalogue import game_of, label_of, line_of, source_of, text_of
from ..i18n import _
from ..namespaces import RG
from .finding import CheckId, Finding

DESIGNER_NOTE = CheckId("RG001", "designer-note")


def check_designer_notes(graph: Graph) -> list[Finding]:
    findings = []
    for note in graph.subjects(RDF.type, RG.DesignerNote):
        owners = list(graph.subjects(RG.hasNote, note))
        owner = owners[0] if owners else None
        subject = label_of(graph, owner) if owner is not None else "?"
        game = game_of(graph, owner)[1] if owner is not None else ""
        question = text_of(graph, note, RG.text)
        questioned = text_of(graph, note, RG.questions)
        if questioned:
            message = _("Question left by the author: “{question}” — it is about: “{questioned}”").format(
                question=question, questioned=questioned)
        else:
            message = _("Question left by the author: “{question}”").format(question=question)
        findings.append(DESIGNER_NOTE.finding(
            "warning", subject, game, message, source_of(graph, note) or None, line_of(graph, note)))
    return findings
