"""The words of the vocabulary, read from ``ontology/rulegraph.ttl``: the one place a label changes.

Relations and kinds of term have, in French and English, a label (``rdfs:label``), a plural
(``rg:pluralLabel``) and, for relations, the verb phrases that join two names in a sentence
(``rg:phrase``: « A » annule « B »; ``rg:inversePhrase``: « B » est annulée par « A »).

The ontology is read once per process with pyoxigraph's Turtle parser (well under a millisecond;
rdflib takes about 60 ms for the same file), so a command that only prints labels stays fast.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

import pyoxigraph
from rdflib import URIRef

from .namespaces import KIND_CLASSES, RG

#: The kinds of node the views show (NetworkX view, atlas, widgets), in legend order, with the
#: class each stands for.
NODE_KINDS: dict[str, URIRef] = {
    "ability": RG.Ability,
    "undefined": RG.UndefinedAbility,
    "state": RG.State,
    "action": RG.Action,
    "characteristic": RG.Characteristic,
    "concept": RG.Concept,
}
#: The node kind of each class a term is typed with, most specific first: an undefined ability is
#: shown apart, equipment, rule sections and bare terms are concepts.
KIND_OF_CLASS: dict[URIRef, str] = {
    RG.CharacterAbility: "ability",
    RG.WeaponAbility: "ability",
    RG.UndefinedAbility: "undefined",
    RG.State: "state",
    RG.Action: "action",
    RG.Characteristic: "characteristic",
    RG.Concept: "concept",
    RG.Equipment: "concept",
    RG.RuleSection: "concept",
    RG.Term: "concept",
}
#: The lexicon's kind for each node kind (an undefined ability is still an ability by name).
LEXICON_KIND: dict[str, str] = {kind: "ability" if kind == "undefined" else kind for kind in NODE_KINDS}
#: Every kind a label is asked for: the lexicon's and the graph's kinds, the node kinds, and the
#: glossary categories of an ability (character, weapon).
_KIND_CLASSES: dict[str, URIRef] = {
    **KIND_CLASSES,
    **NODE_KINDS,
    "character": RG.CharacterAbility,
    "weapon": RG.WeaponAbility,
}
_WORD_PROPERTIES = {
    "http://www.w3.org/2000/01/rdf-schema#label": "label",
    str(RG.pluralLabel): "plural",
    str(RG.phrase): "phrase",
    str(RG.inversePhrase): "inverse",
}


@cache
def _words() -> dict[tuple[str, str, str], str]:
    """(local name, word property, language) → text, for every language-tagged word of rg: terms."""
    data = resources.files("rulegraph.ontology").joinpath("rulegraph.ttl").read_bytes()
    words: dict[tuple[str, str, str], str] = {}
    for triple in pyoxigraph.parse(data, format=pyoxigraph.RdfFormat.TURTLE):
        subject, word, value = triple.subject, _WORD_PROPERTIES.get(triple.predicate.value), triple.object
        if word and isinstance(subject, pyoxigraph.NamedNode) and subject.value.startswith(str(RG)) \
                and isinstance(value, pyoxigraph.Literal) and value.language:
            words[(subject.value[len(RG):], word, value.language)] = value.value
    return words


def _language(lang: str | None) -> str:
    if lang is not None:
        return lang
    from .i18n import language

    return language()


def _word(name: str, word: str, lang: str | None) -> str:
    key = (name, word, _language(lang))
    try:
        return _words()[key]
    except KeyError:
        raise KeyError(f"ontology/rulegraph.ttl gives rg:{name} no {word} in {key[2]!r}") from None


def relation_label(relation: str, lang: str | None = None) -> str:
    """The name of a relation (``"negates"`` → "annule les effets de"), for legends and lists.
    ``lang`` is "fr" or "en"; without it, the user's language (rulegraph.i18n)."""
    return _word(relation, "label", lang)


def relation_phrase(relation: str, lang: str | None = None, *, inverse: bool = False) -> str:
    """The relation as the words between two names: subject first (« A » annule « B »), or with
    ``inverse`` object first (« B » est annulée par « A »)."""
    return _word(relation, "inverse" if inverse else "phrase", lang)


def edge_sentence(subject: str, relation: str, obj: str) -> str:
    """"Interception annule les effets d’Insaisissable": the relation read in the user's language,
    "de" elided before a vowel."""
    from .text import before_name

    return f"{subject} {before_name(relation_phrase(relation), obj)}"


def kind_label(kind: str, lang: str | None = None, *, plural: bool = False) -> str:
    """The label of a kind of term ("state" → "État", plural "États"). Kinds are the lexicon's
    and the views' names (ability, undefined, state, action, characteristic, concept, equipment,
    rule, term) and an ability's category (character, weapon)."""
    cls = _KIND_CLASSES.get(kind)
    if cls is None:
        raise KeyError(f"no class for the kind {kind!r}")
    return _word(cls[len(RG):], "plural" if plural else "label", lang)
