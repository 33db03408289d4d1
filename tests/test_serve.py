"""``rulegraph serve``: the SPARQL endpoint answers on 127.0.0.1 with the local graph's numbers,
negotiates result formats, refuses updates and stops a query at its time limit."""

from __future__ import annotations

import csv
import io
import json
import urllib.error
import urllib.parse
import urllib.request

import pytest

from rulegraph.graph import serialize_turtle
from rulegraph.server import SparqlApp
from rulegraph.store import store_path, write_store_beside

from .servers import wsgi_server

COUNT_ABILITIES = """PREFIX rg: <https://w3id.org/rulegraph#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
SELECT (COUNT(DISTINCT ?ability) AS ?abilities) WHERE { ?ability a/rdfs:subClassOf* rg:Ability }"""


@pytest.fixture(scope="module")
def endpoint(seed_graph, tmp_path_factory):
    out = tmp_path_factory.mktemp("out")
    (out / "graph.ttl").write_text(serialize_turtle(seed_graph), encoding="utf-8")
    (out / "report.md").write_text("# report\n", encoding="utf-8")
    write_store_beside(out / "graph.ttl")
    with wsgi_server(SparqlApp(store_path(out / "graph.ttl"), out=out, timeout=1.0), threads=2) as base:
        yield base


def fetch(url: str, *, data: bytes | None = None, headers: dict[str, str] | None = None):
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers.get_content_type(), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get_content_type(), error.read()


def test_count_of_abilities_over_http_equals_the_local_graph(endpoint, seed_graph):
    local = int(next(iter(seed_graph.query(COUNT_ABILITIES)))[0])
    status, kind, body = fetch(f"{endpoint}/sparql?" + urllib.parse.urlencode({"query": COUNT_ABILITIES}))
    assert (status, kind) == (200, "application/sparql-results+json")
    remote = json.loads(body)["results"]["bindings"][0]["abilities"]["value"]
    assert int(remote) == local > 80


def test_post_and_content_negotiation(endpoint):
    status, kind, body = fetch(f"{endpoint}/sparql", data=COUNT_ABILITIES.encode(),
                               headers={"Content-Type": "application/sparql-query", "Accept": "text/csv"})
    assert (status, kind) == (200, "text/csv")
    assert list(csv.reader(io.StringIO(body.decode())))[0] == ["abilities"]
    form = urllib.parse.urlencode({"query": COUNT_ABILITIES}).encode()
    status, kind, body = fetch(f"{endpoint}/sparql", data=form, headers={"Accept": "application/sparql-results+xml"})
    assert (status, kind) == (200, "application/sparql-results+xml") and b"<sparql" in body


def test_construct_as_turtle_and_json_ld(endpoint):
    construct = ("PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> CONSTRUCT { ?a rdfs:label ?l } "
                 "WHERE { ?a rdfs:label ?l FILTER(STR(?l) = \"Fouisseur\") }")
    status, kind, body = fetch(f"{endpoint}/sparql?" + urllib.parse.urlencode({"query": construct}),
                               headers={"Accept": "application/ld+json"})
    assert (status, kind) == (200, "application/ld+json")
    assert "Fouisseur" in body.decode()
    status, kind, body = fetch(f"{endpoint}/sparql?" + urllib.parse.urlencode({"query": construct}))
    assert (status, kind) == (200, "text/turtle") and "Fouisseur" in body.decode()


def test_updates_are_refused(endpoint, seed_graph):
    form = urllib.parse.urlencode({"update": "DROP ALL"}).encode()
    assert fetch(f"{endpoint}/sparql", data=form)[0] == 403
    assert fetch(f"{endpoint}/sparql", data=b"DROP ALL", headers={"Content-Type": "application/sparql-update"})[0] == 403
    status, _, body = fetch(f"{endpoint}/sparql?" + urllib.parse.urlencode({"query": COUNT_ABILITIES}))
    assert status == 200


def test_a_long_query_is_stopped_at_the_time_limit(endpoint):
    runaway = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
    status, _, body = fetch(f"{endpoint}/sparql?" + urllib.parse.urlencode({"query": runaway}))
    assert status == 503 and b"time limit" in body


def test_a_syntax_error_is_a_400(endpoint):
    status, _, body = fetch(f"{endpoint}/sparql?" + urllib.parse.urlencode({"query": "SELECT ?x WHERE { ?x }"}))
    assert status == 400 and b"syntax" in body


def test_query_page_lists_the_named_queries_and_runs_one(endpoint):
    status, kind, body = fetch(f"{endpoint}/")
    assert (status, kind) == (200, "text/html")
    assert b"cancelled-by" in body and b"grants" in body
    status, kind, body = fetch(f"{endpoint}/queries/cancelled-by?" + urllib.parse.urlencode({"ability": "Fouisseur"}))
    assert (status, kind) == (200, "application/json")
    assert "Interception" in {row["by"] for row in json.loads(body)["rows"]}
    assert fetch(f"{endpoint}/queries/cancelled-by?ability=Zzzyx")[0] == 400


def test_build_pages_are_served(endpoint):
    assert fetch(f"{endpoint}/report.md")[:2] == (200, "text/markdown")
    assert fetch(f"{endpoint}/graph.html")[0] == 404
