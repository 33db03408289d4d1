"""The vocabulary and the language data: labels come from the ontology, French from lang/fr/.

- every relation and kind the code names has its French and English labels and phrases in
  ontology/rulegraph.ttl, and the atlas, the checks and the glossary export show those;
- no French word list is left in the code: the word lists and patterns are in lang/fr/, packaged.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from rdflib import RDFS, Graph, Literal

from rulegraph.glossary_export import glossary
from rulegraph.lang import data_file, words
from rulegraph.namespaces import INTERACTIONS, RELATIONS, RG
from rulegraph.vocabulary import KIND_OF_CLASS, NODE_KINDS, kind_label, relation_label, relation_phrase

SOURCE = Path(__file__).resolve().parents[1] / "src" / "rulegraph"
ONTOLOGY = Path(__file__).resolve().parents[1] / "ontology" / "rulegraph.ttl"


@pytest.fixture(scope="module")
def ontology() -> Graph:
    return Graph().parse(ONTOLOGY, format="turtle")


@pytest.mark.parametrize("relation", RELATIONS)
def test_every_relation_has_french_and_english_labels_in_the_ontology(ontology, relation):
    labels = {label.language: str(label) for label in ontology.objects(RG[relation], RDFS.label)}
    assert set(labels) >= {"fr", "en"}
    for lang in ("fr", "en"):
        assert relation_label(relation, lang) == labels[lang]
        assert relation_phrase(relation, lang) and relation_phrase(relation, lang, inverse=True)


def test_every_interaction_has_french_and_english_labels(ontology):
    for relation in INTERACTIONS:
        assert Literal(relation_label(relation, "fr"), lang="fr") in set(ontology.objects(RG[relation], RDFS.label))
        assert Literal(relation_label(relation, "en"), lang="en") in set(ontology.objects(RG[relation], RDFS.label))


@pytest.mark.parametrize("kind", [*NODE_KINDS, "character", "weapon", "equipment", "rule", "term"])
def test_every_kind_has_a_label_and_a_plural_in_both_languages(ontology, kind):
    for lang in ("fr", "en"):
        assert kind_label(kind, lang) and kind_label(kind, lang, plural=True)
    assert kind_label("state", "fr") == "État" and kind_label("state", "fr", plural=True) == "États"


def test_every_class_of_the_view_is_a_class_of_the_ontology(ontology):
    from rdflib import OWL, RDF

    classes = set(ontology.subjects(RDF.type, OWL.Class))
    assert set(KIND_OF_CLASS) <= classes and set(NODE_KINDS.values()) <= classes


def test_the_label_follows_the_user_language_when_none_is_given(monkeypatch):
    from rulegraph import i18n

    monkeypatch.setattr(i18n, "_chosen", "en")
    assert relation_label("negates") == "negates"
    monkeypatch.setattr(i18n, "_chosen", "fr")
    assert relation_label("negates") == relation_label("negates", "fr")


def test_an_unknown_relation_or_kind_names_the_ontology():
    with pytest.raises(KeyError, match="rulegraph.ttl"):
        relation_label("befriends", "fr")
    with pytest.raises(KeyError):
        kind_label("spaceship", "fr")


ONE_SIDED = """# Jeu

### Frappe rapide
Cette capacité est incompatible avec Riposte rapide.

### Riposte rapide
Le personnage riposte avant son adversaire.
"""


def test_relation_checks_quote_the_ontology_phrase(french, build_markdown):
    from rulegraph.checks.relations import check_one_sided_relations

    findings = check_one_sided_relations(build_markdown(ONE_SIDED).graph)
    assert findings
    assert all(any(f" {relation_phrase(r, 'fr')} « " in f.message for r in INTERACTIONS) for f in findings)


def test_the_glossary_export_titles_and_captions_are_the_ontology_words(french, seed_graph):
    games = glossary(seed_graph)
    titles = {section.title for game in games for section in game.sections}
    assert kind_label("character", "fr", plural=True) in titles
    assert titles <= {kind_label(k, "fr", plural=True) for k in ("character", "weapon", "undefined", "state", "action")}
    captions = {(row["relation"], row["caption"]) for game in games for section in game.sections for item in section.items
                for row in item.interactions}
    assert captions
    assert all(caption in (relation_phrase(r, "fr"), relation_phrase(r, "fr", inverse=True)) for r, caption in captions)


def test_the_language_files_are_package_data():
    for name in ("cues.toml", "analysis.toml", "words.toml"):
        assert data_file(name).is_file()
    assert words("names")["discovery"] and words("notes")["stop_words"]


# --- no French word list in the code ------------------------------------------------------

#: French function words: two of them in one literal list, or as alternatives of one pattern,
#: make a French word list.
FUNCTION_WORDS = {
    "a", "à", "au", "aux", "avec", "ce", "ces", "cet", "cette", "cf", "d'", "dans", "de", "des", "du", "en", "et",
    "l'", "la", "le", "les", "mais", "n'", "ne", "ni", "ou", "par", "pas", "plus", "pour", "qu'", "s'", "sans", "si",
    "sur", "un", "une", "voir",
}
_ESCAPES = re.compile(r"\\[a-zA-Z]|\[[^\]]*\]|\{[\d,]*\}")
_ALTERNATION = re.compile(r"[|()?:*+]")


def _word(text: str) -> str:
    return text.strip(" \t.").replace("’", "'").lower()


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def french_word_lists(source: str) -> list[tuple[int, str]]:
    """Literal collections and regular expressions that list French function words."""
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            items = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            if sum(_word(item) in FUNCTION_WORDS for item in items) >= 2:
                found.append((node.lineno, repr(items)[:80]))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            pieces = _ALTERNATION.split(_ESCAPES.sub(" ", node.value))
            if sum(_word(piece) in FUNCTION_WORDS for piece in pieces) >= 2:
                found.append((node.lineno, node.value[:80]))
    return found


def test_the_scanner_finds_word_lists_and_patterns_but_not_messages():
    assert french_word_lists('STOP = {"la", "le", "de"}')
    assert french_word_lists(r'P = re.compile(r"\b(?:cette|ces) (?:capacite)")')
    assert french_word_lists(r'''P = r"\s*(?:,|\bou\b|\bet\b)\s*"''')
    assert not french_word_lists('message = f"« {a} » est défini deux fois (lignes {b} et {c}) : une seule copie suffit."')
    assert not french_word_lists('"""Docstring: les capacités (la, le, de) et cetera."""')


def test_no_french_word_list_is_left_in_the_code():
    found = [f"{path.relative_to(SOURCE)}:{line}: {text}" for path in sorted(SOURCE.rglob("*.py"))
             for line, text in french_word_lists(path.read_text(encoding="utf-8"))]
    assert found == [], "move these to src/rulegraph/lang/fr/: " + "; ".join(found)
