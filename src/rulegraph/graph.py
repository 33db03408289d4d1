"""Corpus records and extracted statements → the rdflib Graph, the single source of truth.

Every interaction is stated twice: the direct triple (``A rg:cancels B``) for easy queries, and
an ``rg:Statement`` node carrying the sentence, file, line, condition and method.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from importlib import resources
from pathlib import Path

from rdflib import RDF, RDFS, Graph, Literal, URIRef
from rdflib.namespace import OWL, XSD
from rdflib.term import Node

from .corpus import Corpus
from .errors import RulegraphError
from .i18n import _
from .model import WEAPON, Entry, Paragraph, Statement, TermRef
from .namespaces import (
    DATA,
    KIND_CLASSES,
    RG,
    child_uri,
    edition_uri,
    game_uri,
    sentence_uri,
    source_uri,
    statement_uri,
    term_uri,
)
from .text import fold, slug

FR = "fr"


def vocabulary() -> Graph:
    """The OWL vocabulary shipped in ontology/rulegraph.ttl."""
    text = resources.files("rulegraph.ontology").joinpath("rulegraph.ttl").read_text(encoding="utf-8")
    return Graph().parse(data=text, format="turtle")


def vocabulary_triples() -> list[tuple[Node, Node, Node]]:
    """The vocabulary's triples, parsed once per installed package and then read back from the
    cache folder: parsing its Turtle was a twentieth of a second of every build."""
    from .stored import PickleCache
    from .text import cache_folder

    cache = PickleCache(cache_folder() / "vocabulary")
    key = PickleCache.key("rulegraph.ttl")
    kept = cache.get(key)
    if isinstance(kept, list):
        return kept
    triples = list(vocabulary())
    cache.put(key, triples)
    return triples


def new_graph() -> Graph:
    """An empty graph holding the vocabulary, so rdfs:subClassOf* works in every query."""
    graph = Graph()
    graph.bind("rg", RG)
    graph.bind("rgd", DATA)
    graph.bind("owl", OWL)
    for triple in vocabulary_triples():
        graph.add(triple)
    return graph


def ability_uri(entry_or_ref: Entry | TermRef) -> URIRef:
    game = entry_or_ref.game
    label = entry_or_ref.name if isinstance(entry_or_ref, Entry) else entry_or_ref.label
    return term_uri(game, "ability", label)


def build_graph(corpus: Corpus, statements: Iterable[Statement]) -> Graph:
    """Put the corpus and its statements into one graph."""
    graph = new_graph()
    add = graph.add
    for game in corpus.games.values():
        node = game_uri(game.id)
        add((node, RDF.type, RG.Game))
        add((node, RDFS.label, Literal(game.name)))
        previous = None
        for order, edition in enumerate(game.lineage, start=1):
            enode = edition_uri(game.id, edition)
            add((enode, RDF.type, RG.Edition))
            add((enode, RDFS.label, Literal(edition, lang=FR)))
            add((enode, RG.game, node))
            add((enode, RG.order, Literal(order)))
            if previous is not None:
                add((enode, RG.follows, previous))
            previous = enode
    for spec in corpus.sources:
        node = source_uri(spec.name)
        add((node, RDF.type, RG.Source))
        add((node, RG.path, Literal(spec.name)))
        add((node, RG.game, game_uri(spec.game)))
        add((node, RG.language, Literal(spec.language)))
        if spec.format:
            add((node, RG["format"], Literal(spec.format)))
    for document in corpus.documents:
        general = document.general_rules
        if general:
            game_node = game_uri(document.game)
            rules = "\n".join(p.text for p in general)
            add((game_node, RG.generalRules, Literal(rules, lang=FR)))
            for paragraph in general:
                rule = child_uri(game_node, "rule", f"{slug(document.source)}-{paragraph.line}")
                add((game_node, RG.hasGeneralRule, rule))
                add((rule, RDF.type, RG.GeneralRule))
                add((rule, RG.text, Literal(paragraph.text, lang=FR)))
                add((rule, RG.source, source_uri(document.source)))
                add((rule, RG.line, Literal(paragraph.line)))
        for entry in document.entries:
            _add_entry(graph, entry)
    defined = {(e.game, fold(e.name)) for e in corpus.entries()}
    for statement in statements:
        _add_statement(graph, statement, defined)
    add_search_keys(graph)
    return graph


def add_search_keys(graph: Graph) -> Graph:
    """rg:labelKey on each data node's label, and an rg:Sentence node with its rg:sentenceKey for
    each distinct statement sentence: text folded once here (:func:`rulegraph.text.fold`: case,
    accents, apostrophes, hyphens), so that queries match names and words by plain string
    comparison instead of a chain of REPLACE calls per row, which every SPARQL engine runs slowly
    and Virtuoso gets wrong on accented text. A sentence often states several edges (at 100
    copies of the chapter, 21,900 statements cite 1,993 sentences): a word search over sentence
    nodes reads a tenth of the keys it read over statements."""
    data = str(DATA)
    add = graph.add
    for labelled, label in list(graph.subject_objects(RDFS.label)):
        if str(labelled).startswith(data):
            add((labelled, RG.labelKey, Literal(fold(label))))
    sentences: dict[Node, URIRef] = {}
    for statement, sentence in list(graph.subject_objects(RG.sentence)):
        cited = sentences.get(sentence)
        if cited is None:
            cited = sentences[sentence] = sentence_uri(str(sentence))
            add((cited, RDF.type, RG.Sentence))
            add((cited, RG.text, sentence))
            add((cited, RG.sentenceKey, Literal(fold(sentence))))
        add((statement, RG.evidence, cited))
    return graph


def _add_entry(graph: Graph, entry: Entry) -> None:
    add = graph.add
    node = ability_uri(entry)
    add((node, RDF.type, RG.WeaponAbility if entry.category == WEAPON else RG.CharacterAbility))
    add((node, RDFS.label, Literal(entry.name, lang=FR)))
    add((node, RG.heading, Literal(entry.heading, lang=FR)))
    add((node, RG.game, game_uri(entry.game)))
    add((node, RG.source, source_uri(entry.source)))
    add((node, RG.line, Literal(entry.line)))
    if entry.page is not None:
        add((node, RG.page, Literal(entry.page)))
    add((node, RG.text, Literal(entry.text, lang=FR)))
    add((node, RG.occurrences, Literal(entry.occurrences)))
    if entry.glossary_category:
        add((node, RG.category, _category_node(graph, entry.game, entry.glossary_category)))
    for key, value in entry.attributes:
        attribute = child_uri(node, "attribute", key)
        add((node, RG.hasAttribute, attribute))
        add((attribute, RDF.type, RG.Attribute))
        add((attribute, RG.key, Literal(key)))
        add((attribute, RG.value, Literal(value)))
    if not entry.editions:
        _add_text_lines(graph, node, entry.paragraphs, entry.source)
    for line in entry.duplicate_lines:
        add((node, RG.duplicateLine, Literal(line)))
    for parameter in entry.parameters:
        add((node, RG.parameter, Literal(parameter)))
    for slot in entry.slots:
        add((node, RG.keywordSlot, Literal(slot, lang=FR)))
    for tag in entry.tags:
        add((node, RG.tag, Literal(tag, lang=FR)))
    for index, note in enumerate(entry.notes, start=1):
        note_node = child_uri(node, "note", str(index))
        add((node, RG.hasNote, note_node))
        add((note_node, RDF.type, RG.DesignerNote))
        add((note_node, RG.text, Literal(note.text, lang=FR)))
        add((note_node, RG.questions, Literal(note.questioned, lang=FR)))
        add((note_node, RG.source, source_uri(entry.source)))
        add((note_node, RG.line, Literal(note.line)))
    for index, variant in enumerate(entry.variants, start=1):
        definition = child_uri(node, "definition", str(index))
        add((node, RG.conflictingDefinition, definition))
        add((definition, RDF.type, RG.Definition))
        add((definition, RG.text, Literal(variant.text, lang=FR)))
        add((definition, RG.source, source_uri(variant.source)))
        add((definition, RG.line, Literal(variant.line)))
    for edition in entry.editions:
        text_node = child_uri(node, "edition", edition.edition)
        add((node, RG.hasEditionText, text_node))
        add((text_node, RDF.type, RG.EditionText))
        add((text_node, RG.edition, edition_uri(entry.game, edition.edition)))
        add((text_node, RG.present, Literal(edition.present)))
        add((text_node, RG.source, source_uri(entry.source)))
        add((text_node, RG.line, Literal(edition.line)))
        if edition.present:
            add((text_node, RG.text, Literal(edition.text, lang=FR)))
            _add_text_lines(graph, text_node, edition.paragraphs, entry.source)
        enode = edition_uri(entry.game, edition.edition)
        if (enode, RDF.type, RG.Edition) not in graph:
            add((enode, RDF.type, RG.Edition))
            add((enode, RDFS.label, Literal(edition.edition, lang=FR)))
            add((enode, RG.game, game_uri(entry.game)))


def _category_node(graph: Graph, game: str, label: str) -> URIRef:
    """The glossary's own category (section heading, JSON key, CSV column), one node per game."""
    node = term_uri(game, "category", label)
    if (node, RDF.type, RG.Category) not in graph:
        graph.add((node, RDF.type, RG.Category))
        graph.add((node, RDFS.label, Literal(label, lang=FR)))
        graph.add((node, RG.game, game_uri(game)))
    return node


def _add_text_lines(graph: Graph, owner: URIRef, paragraphs: tuple[Paragraph, ...], source: str) -> None:
    """The rule text line by line as the source file holds it, so a check can point at the
    exact line of a word (a paragraph written over several lines is cut at its line breaks)."""
    index = 0
    for paragraph in paragraphs:
        starts = (0, *paragraph.breaks)
        for start, end in zip(starts, (*paragraph.breaks, len(paragraph.text))):
            index += 1
            line_node = child_uri(owner, "line", str(index))
            graph.add((owner, RG.hasLine, line_node))
            graph.add((line_node, RDF.type, RG.TextLine))
            graph.add((line_node, RG.text, Literal(paragraph.text[start:end].strip(), lang=FR)))
            graph.add((line_node, RG.source, source_uri(source)))
            graph.add((line_node, RG.line, Literal(paragraph.line_at(start))))
            if paragraph.page is not None:
                graph.add((line_node, RG.page, Literal(paragraph.page_at(start))))


def _term_node(graph: Graph, ref: TermRef, defined: set[tuple[str, str]]) -> URIRef:
    node = term_uri(ref.game, ref.kind, ref.label)
    if (node, RDFS.label, None) in graph:
        return node
    if ref.kind == "ability":
        if (ref.game, fold(ref.label)) in defined:
            return node
        graph.add((node, RDF.type, RG.UndefinedAbility))
    else:
        graph.add((node, RDF.type, KIND_CLASSES[ref.kind]))
    graph.add((node, RDFS.label, Literal(ref.label, lang=FR)))
    graph.add((node, RG.game, game_uri(ref.game)))
    return node


def _add_statement(graph: Graph, statement: Statement, defined: set[tuple[str, str]]) -> None:
    add = graph.add
    subject = _term_node(graph, statement.subject, defined)
    obj = _term_node(graph, statement.object, defined)
    predicate = RG[statement.relation]
    add((subject, predicate, obj))
    node = statement_uri(
        statement.subject.game, subject, predicate, obj, statement.source, statement.line,
        statement.edition, statement.method, statement.amount, statement.sentence,
    )
    add((node, RDF.type, RG.Statement))
    add((node, RDF.subject, subject))
    add((node, RDF.predicate, predicate))
    add((node, RDF.object, obj))
    add((node, RG.sentence, Literal(statement.sentence, lang=FR)))
    add((node, RG.source, source_uri(statement.source)))
    add((node, RG.line, Literal(statement.line)))
    add((node, RG.method, Literal(statement.method)))
    optional = {
        RG.condition: statement.condition,
        RG.scope: statement.scope,
        RG.cue: statement.cue,
        RG.amount: statement.amount,
        RG.recipient: statement.recipient,
        RG.reason: statement.reason,
    }
    for prop, value in optional.items():
        if value:
            add((node, prop, Literal(value, lang=FR) if prop in (RG.condition, RG.scope, RG.reason) else Literal(value)))
    if statement.confidence is not None:
        add((node, RG.confidence, Literal(f"{statement.confidence:.3f}", datatype=XSD.decimal)))
    if statement.rule:
        add((node, RG.rule, Literal(statement.rule)))
    if statement.suggested:
        add((node, RG.suggested, RG[statement.suggested]))
    if statement.edition:
        add((node, RG.edition, edition_uri(statement.subject.game, statement.edition)))


#: Properties whose values the commands read as whole numbers.
_WHOLE_NUMBERS = ("line", "order", "occurrences", "duplicateLine")


def load_graph(path: str | Path, *, max_mb: float | None = None) -> Graph:
    """A Turtle file written by ``rulegraph build``; unreadable or invalid Turtle names the file
    and, when the parser says it, the line. A value of the wrong type (``rg:line "abc"``, an
    ``xsd:integer`` that is not a number) is refused here, not met later by a command."""
    import logging

    from .files import MAX_FILE_MB, read_bytes

    path = Path(path)
    raw = read_bytes(path, what="Turtle graph", max_mb=max_mb or MAX_FILE_MB)
    try:
        data = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RulegraphError(_("not UTF-8 text; pass a Turtle file written by 'rulegraph build'"), path=path) from None
    graph = Graph()
    quiet = logging.getLogger("rdflib.term")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)  # rdflib logs a traceback for each ill-typed literal
    try:
        graph.parse(data=data, format="turtle")
    except SyntaxError as error:
        lines = getattr(error, "lines", None)
        reason = re.search(r"Bad syntax \((.*?)\) at", str(error))
        message = reason.group(1) if reason else str(error).splitlines()[0]
        raise RulegraphError(_('invalid Turtle: {message}').format(message=message), path=path,
                             line=lines + 1 if isinstance(lines, int) else None) from None
    except RecursionError:
        raise RulegraphError(_('invalid Turtle: nested too deeply'), path=path) from None
    except Exception as error:  # rdflib raises several types for malformed input
        raise RulegraphError(_('invalid Turtle: {split}').format(split=' '.join(str(error).split())), path=path) from None
    finally:
        quiet.setLevel(level)
    if (None, RDF.type, RG.Game) not in graph:
        raise RulegraphError(_("no rg:Game in this graph; pass a graph.ttl written by 'rulegraph build'"), path=path)
    _check_literals(graph, data, path)
    return graph


def _check_literals(graph: Graph, data: str, path: Path) -> None:
    """Every typed literal is valid for its type, and the numbers the commands read are numbers."""
    from .text import line_at

    whole = {RG[name] for name in _WHOLE_NUMBERS}
    for _subject, predicate, value in graph:
        if not isinstance(value, Literal):
            continue
        bad = getattr(value, "ill_typed", False)
        if predicate in whole and not bad:
            bad = not isinstance(value.toPython(), int) or isinstance(value.toPython(), bool)
        if bad:
            offset = data.find(f'"{value}')
            line = line_at(data, offset) if offset >= 0 else None
            name = str(predicate)
            kind = f"rg:{name.removeprefix(str(RG))}" if name.startswith(str(RG)) else f"<{name}>"
            expected = "a whole number" if predicate in whole else f"a valid {value.datatype}"
            raise RulegraphError(_("{kind} is {value!r}, not {expected}; rebuild the graph with 'rulegraph build'").format(kind=kind, value=str(value), expected=expected),
                                 path=path, line=line)


#: Prefixes written at the top of graph.ttl (IRIs under them are abbreviated where Turtle allows).
TURTLE_PREFIXES = {
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "rg": "https://w3id.org/rulegraph#",
}



def serialize_turtle(graph: Graph) -> str:
    """Deterministic, readable Turtle: two builds of the same inputs give the same bytes."""
    return turtle_bytes(graph).decode("utf-8")



def turtle_bytes(graph: Graph) -> bytes:
    """:func:`serialize_turtle` as UTF-8 bytes, the way the build writes it.

    rdflib writes N-Triples (no prefix search, which made its Turtle writer superlinear), the
    lines are sorted, and Oxigraph's Turtle writer groups them by subject with fixed prefixes.
    The lines are sorted as UTF-8 bytes (the order of their characters) and each intermediate
    copy is dropped as soon as the next exists: at 350,000 triples each copy is about 80 MB."""
    import pyoxigraph as ox

    lines = graph.serialize(format="nt", encoding="utf-8").splitlines()
    lines = sorted(set(lines) - {b""})
    data = b"\n".join(lines) + b"\n"
    del lines
    # With no output file given, Oxigraph returns the bytes.
    return ox.serialize(ox.parse(data, format=ox.RdfFormat.N_TRIPLES), format=ox.RdfFormat.TURTLE,
                        prefixes=TURTLE_PREFIXES) or b""
