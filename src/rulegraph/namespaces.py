"""The RDF namespaces and the URI scheme of every node, in one place."""

from __future__ import annotations

import hashlib

from rdflib import Namespace, URIRef

from .text import slug

RG = Namespace("https://w3id.org/rulegraph#")
DATA = Namespace("https://w3id.org/rulegraph/data/")

#: Relations between two abilities, as the vocabulary names them.
INTERACTIONS = ("cancels", "negates", "mutuallyCancels", "grants", "requires", "excludes", "immuneTo", "references")
SYMMETRIC = frozenset({"mutuallyCancels", "excludes"})
#: Relations from an ability to another kind of term, and the kind each points at.
TERM_RELATIONS = {"modifies": "characteristic", "appliesTo": "action", "involvesState": "state", "mentionsConcept": "concept"}
RELATIONS = INTERACTIONS + tuple(TERM_RELATIONS)

KIND_CLASSES = {
    "ability": RG.Ability,
    "state": RG.State,
    "action": RG.Action,
    "characteristic": RG.Characteristic,
    "concept": RG.Concept,
    "equipment": RG.Equipment,
    "rule": RG.RuleSection,
    "term": RG.Term,
}


def game_uri(game: str) -> URIRef:
    return DATA[f"game/{game}"]


def term_uri(game: str, kind: str, label: str) -> URIRef:
    return DATA[f"{game}/{kind}/{slug(label)}"]


def edition_uri(game: str, edition: str) -> URIRef:
    return DATA[f"{game}/edition/{slug(edition)}"]


def source_uri(path: str) -> URIRef:
    return DATA[f"source/{slug(path)}"]


def child_uri(parent: URIRef, kind: str, key: str) -> URIRef:
    return URIRef(f"{parent}/{kind}/{slug(key)}")


def statement_uri(game: str, *parts: object) -> URIRef:
    return DATA[f"{game}/statement/{_digest(*parts)}"]


def sentence_uri(sentence: str) -> URIRef:
    """One node per sentence text, shared by every game that quotes it word for word."""
    return DATA[f"sentence/{_digest(sentence)}"]


def _digest(*parts: object) -> str:
    return hashlib.sha1("\x1f".join(map(str, parts)).encode("utf-8")).hexdigest()[:16]
