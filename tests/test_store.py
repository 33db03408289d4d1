"""The Oxigraph store written beside graph.ttl: every named query gives the same rows on rdflib
and on the store over the seeds; --graph opens the store only when it holds that very file."""

from __future__ import annotations

import pytest

from rulegraph import queries
from rulegraph.cli import main
from rulegraph.errors import RulegraphError
from rulegraph.graph import serialize_turtle
from rulegraph.interactions import interactions
from rulegraph.resolve import resolve
from rulegraph.store import as_rdflib, open_store, store_path

#: Parameters for each named query, chosen from facts the seeds' gold guarantees.
SEED_PARAMETERS = {
    "cancelled-by": [{"ability": "Attaque d'opportunité"}, {"ability": "Fouisseur"}, {"ability": "Riposte rapide"}],
    "grants": [{"ability": "Illuminé"}],
    "reads-state": [{"state": "Blessé"}],
    "modifies-during": [{"characteristic": "CBT", "action": "Charge", "game": "Hell Dorado"}],
    "undefined-names": [{}],
    "designer-notes": [{}, {"game": "Hell Dorado"}],
    "evidence-word": [{"word": "annule"}, {"word": "EFFETS d'insaisissable"}],
    "homonyms": [{}, {"game": "Hell Dorado"}],
}


@pytest.fixture(scope="module")
def store_graph(built):
    store = open_store(built)
    assert store is not None
    return as_rdflib(store)


def test_every_named_query_has_seed_parameters():
    assert set(SEED_PARAMETERS) == {q.name for q in queries.available()}


@pytest.mark.parametrize("name,values", [(n, v) for n, cases in SEED_PARAMETERS.items() for v in cases])
def test_named_query_gives_the_same_rows_on_rdflib_and_on_the_store(seed_graph, store_graph, name, values):
    query = queries.load(name)
    on_rdflib = queries.run(seed_graph, query, values)
    on_store = queries.run(store_graph, query, values)
    assert on_store.columns == on_rdflib.columns
    assert on_store.rows == on_rdflib.rows
    assert on_rdflib.rows, f"{name} {values} finds nothing on the seeds; choose parameters that do"


def test_seed_facts_are_read_off_the_store(store_graph):
    cancelled = queries.run(store_graph, queries.load("cancelled-by"), {"ability": "Fouisseur"}).rows
    assert ("Interception", "negates") in {(r["by"], r["relation"]) for r in cancelled}
    granted = queries.run(store_graph, queries.load("grants"), {"ability": "Illuminé"}).rows
    assert "Fanatique" in {r["granted"] for r in granted}


def test_interactions_and_resolve_are_the_same_on_the_store(seed_graph, store_graph):
    assert interactions(store_graph, "Fouisseur", "Attaque d'opportunité") == interactions(seed_graph, "Fouisseur", "Attaque d'opportunité")
    sides = ["Frappe rapide", "Riposte rapide"]
    assert resolve(store_graph, sides) == resolve(seed_graph, sides)


def test_a_value_with_quotes_and_braces_stays_a_value(seed_graph, store_graph):
    query = queries.load("evidence-word")
    for word in ['"} } SELECT * WHERE { ?s ?p ?o', "l'état\\"]:
        assert queries.run(store_graph, query, {"word": word}).rows == queries.run(seed_graph, query, {"word": word}).rows == []


def test_a_stale_store_is_not_opened(built, tmp_path):
    copy = tmp_path / "graph.ttl"
    copy.write_bytes(built.read_bytes() + b"\n# edited by hand\n")
    store_path(built).rename(store_path(copy))
    try:
        assert open_store(copy) is None
    finally:
        store_path(copy).rename(store_path(built))
    assert open_store(built) is not None


def test_cli_query_on_a_built_graph_reads_the_store(built, capsys):
    assert main(["query", "cancelled-by", "--param", "ability=Fouisseur", "--graph", str(built), "--json"]) == 0
    assert '"by": "Interception"' in capsys.readouterr().out


def test_a_syntax_error_on_the_store_names_the_query(store_graph, tmp_path):
    bad = tmp_path / "bad.rq"
    bad.write_text("SELECT ?x WHERE { ?x ?y }\n", encoding="utf-8")
    with pytest.raises(RulegraphError, match="bad.rq"):
        queries.run(store_graph, queries.from_file(bad), {})


def test_graph_ttl_reads_back_as_the_same_triples(seed_graph, built):
    from rdflib import Graph

    assert set(Graph().parse(built, format="turtle")) == set(seed_graph)
    assert serialize_turtle(seed_graph) == built.read_text(encoding="utf-8")


def test_the_networkx_view_read_off_the_store_is_the_rdflib_view(seed_graph, store_graph):
    from rulegraph.views.networkx_view import to_networkx

    def comparable(view):
        nodes = {n: {**d, "notes": sorted(d["notes"])} for n, d in view.nodes(data=True)}
        return nodes, sorted((u, v, k, sorted(d.items())) for u, v, k, d in view.edges(keys=True, data=True))

    on_store = to_networkx(store_graph)
    assert comparable(on_store) == comparable(to_networkx(seed_graph))
    assert to_networkx(store_graph) is on_store


def test_the_networkx_view_read_off_the_store_is_the_one_read_off_rdflib(seed_graph, store_graph):
    from rulegraph.store import oxigraph_of
    from rulegraph.views.networkx_view import _from_graph, _from_store

    on_store, on_rdflib = _from_store(oxigraph_of(store_graph)), _from_graph(seed_graph)
    assert dict(on_store.nodes(data=True)) == dict(on_rdflib.nodes(data=True))
    edges = sorted(on_store.edges(keys=True, data=True), key=lambda edge: edge[2])
    assert edges == sorted(on_rdflib.edges(keys=True, data=True), key=lambda edge: edge[2]) and edges


def test_the_view_kept_in_the_store_is_the_one_read_off_it(store_graph):
    from rulegraph.store import kept_view, oxigraph_of
    from rulegraph.views.networkx_view import _from_store, view_from_json

    store = oxigraph_of(store_graph)
    kept, read = view_from_json(kept_view(store)), _from_store(store)
    assert list(kept.nodes(data=True)) == list(read.nodes(data=True)) and kept.number_of_nodes()
    assert list(kept.edges(keys=True, data=True)) == list(read.edges(keys=True, data=True))
    assert all(list(kept.pred[node]) == list(read.pred[node]) for node in read)


def test_an_undefined_name_no_sentence_uses_is_listed_once_on_both_engines(seed_graph):
    """undefined-names keeps a name whose every use was removed (its UNION branch for unused
    names), with empty use columns, the same on rdflib and on Oxigraph."""
    import pyoxigraph as ox
    from rdflib import RDF, RDFS, Graph

    from rulegraph.namespaces import RG

    graph = Graph()
    for triple in seed_graph:
        graph.add(triple)
    undefined = sorted(graph.subjects(RDF.type, RG.UndefinedAbility))[0]
    name = str(graph.value(undefined, RDFS.label))
    for statement in {*graph.subjects(RDF.subject, undefined), *graph.subjects(RDF.object, undefined)}:
        graph.remove((statement, None, None))
    store = ox.Store()
    store.load(graph.serialize(format="nt", encoding="utf-8"), format=ox.RdfFormat.N_TRIPLES)
    query = queries.load("undefined-names")
    on_rdflib = queries.run(graph, query).rows
    assert queries.run(as_rdflib(store), query).rows == on_rdflib
    unused = [row for row in on_rdflib if row["name"] == name]
    assert len(unused) == 1 and unused[0]["used_by"] is None and unused[0]["evidence"] is None


def test_rows_off_the_store_are_the_values_rdflib_gives(store_graph, seed_graph):
    """The store's rows are converted without rdflib terms for IRIs, strings and integers; every
    kind of value still comes out as on rdflib (numbers as numbers, dates and decimals as text)."""
    text = """PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
    SELECT ?v WHERE { VALUES ?v { <urn:x> "texte" "mot"@fr 7 "+3"^^xsd:integer "x"^^xsd:integer 1.5e0 true
                                  "2026-12-01"^^xsd:date "5"^^xsd:nonNegativeInteger } }"""
    from rulegraph.store import oxigraph_of

    on_store = queries.result_from_oxigraph(oxigraph_of(store_graph).query(text))
    assert on_store.rows == queries.run(seed_graph, queries.adhoc(text)).rows
    assert [row["v"] for row in on_store.rows][3:6] == [7, 3, "x"]


def test_a_parameter_used_only_in_a_filter_is_written_in_for_the_store():
    """Oxigraph places a filter only once every join is done when its parameter comes from
    VALUES; evidence-word's word is written into the filter instead, still as a serialised term."""
    from rdflib import Literal, Variable

    query = queries.load("evidence-word")
    text = queries.for_the_store(query, {Variable("word"): Literal('l\'"état')})
    assert 'CONTAINS(?key, "l\'\\"état")' in text and "VALUES" not in text
    grants = queries.load("grants")
    assert "VALUES (?ability)" in queries.for_the_store(grants, {Variable("ability"): Literal("x")})


def test_a_parameter_is_also_written_in_inside_an_optional_group_for_the_store():
    """Oxigraph evaluates an OPTIONAL group before joining it: the parameter is written in there
    too (not in strings or comments), and the VALUES block still binds it for the rows."""
    from rdflib import URIRef, Variable

    query = queries.adhoc('PREFIX rg: <https://w3id.org/rulegraph#>\n'
                          'SELECT ?a ?b WHERE { ?a rg:appliesTo ?action .\n'
                          '  OPTIONAL { ?b rg:appliesTo ?action ; rg:sentence "?action" # ?action\n'
                          '    OPTIONAL { ?b rg:line ?action } } }')
    text = queries.for_the_store(query, {Variable("action"): URIRef("urn:charge")})
    assert "VALUES (?action) { (<urn:charge>) }" in text
    assert "?a rg:appliesTo ?action ." in text
    assert '?b rg:appliesTo <urn:charge> ; rg:sentence "?action" # ?action' in text
    assert "?b rg:line <urn:charge> }" in text
