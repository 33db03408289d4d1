"""``rulegraph publish`` and ``rulegraph query --endpoint`` against real servers started here on
127.0.0.1: the Oxigraph server (pip package ``oxigraph``) and Virtuoso (Debian's
``virtuoso-opensource``); each is skipped, with the reason, where it is not installed."""

from __future__ import annotations

import json

import pytest

from rulegraph import queries
from rulegraph.cli import main
from rulegraph.errors import RulegraphError
from rulegraph.remote import PASSWORD_VARIABLE, Endpoint
from rulegraph.remote import publish as publish_turtle
from rulegraph.remote import run as run_remote

from . import servers
from .servers import ServerMissing, free_port
from .test_store import SEED_PARAMETERS

GRAPH_IRI = "https://w3id.org/rulegraph/data/graph/test-seeds"


def _started(server, folder):
    """The server as a module fixture: skipped with the reason where it is not installed."""
    try:
        with server(folder) as found:
            yield found
    except ServerMissing as missing:
        pytest.skip(str(missing))


@pytest.fixture(scope="module")
def oxigraph_server(tmp_path_factory):
    yield from _started(servers.oxigraph_server, tmp_path_factory.mktemp("oxigraph"))


@pytest.fixture(scope="module")
def virtuoso_server(tmp_path_factory):
    yield from _started(servers.virtuoso_server, tmp_path_factory.mktemp("virtuoso"))


@pytest.fixture(params=["oxigraph", "virtuoso"])
def server(request, monkeypatch):
    found = request.getfixturevalue(f"{request.param}_server")
    if found.get("password"):
        monkeypatch.setenv(PASSWORD_VARIABLE, found["password"])
    return found


def publish(server, built) -> None:
    arguments = ["publish", "--endpoint", server["store"], "--graph-iri", GRAPH_IRI, "--graph", str(built)]
    if server["user"]:
        arguments += ["--user", server["user"]]
    assert main(arguments) == 0


def test_publish_then_count_abilities_on_the_server(server, built, seed_graph, capsys):
    publish(server, built)
    publish(server, built)  # a second publish replaces the graph: the count stays the same
    assert f"<{GRAPH_IRI}>" in capsys.readouterr().out
    count = ("PREFIX rg: <https://w3id.org/rulegraph#> SELECT (COUNT(DISTINCT ?a) AS ?n) "
             "WHERE { ?a a ?class VALUES ?class { rg:CharacterAbility rg:WeaponAbility } }")
    endpoint = Endpoint(server["query"], graph_iri=GRAPH_IRI)
    remote = run_remote(endpoint, queries.adhoc(count)).rows[0]["n"]
    local = queries.run(seed_graph, queries.adhoc(count)).rows[0]["n"]
    assert int(remote) == local > 80


@pytest.mark.parametrize("name,values", [(n, v) for n, cases in SEED_PARAMETERS.items() for v in cases])
def test_named_query_on_the_server_gives_the_local_rows(server, built, seed_graph, name, values):
    publish(server, built)
    query = queries.load(name)
    remote = run_remote(Endpoint(server["query"], graph_iri=GRAPH_IRI), query, values)
    local = queries.run(seed_graph, query, values)
    assert remote.rows == local.rows and local.rows


def test_query_command_with_endpoint(oxigraph_server, built, capsys):
    publish(oxigraph_server, built)
    capsys.readouterr()
    assert main(["query", "grants", "--param", "ability=Illuminé", "--endpoint", oxigraph_server["query"],
                 "--graph-iri", GRAPH_IRI, "--json"]) == 0
    assert "Fanatique" in {row["granted"] for row in json.loads(capsys.readouterr().out)}


def test_user_without_password_in_the_environment_is_refused(built, monkeypatch, capsys):
    monkeypatch.delenv(PASSWORD_VARIABLE, raising=False)
    assert main(["publish", "--endpoint", "http://127.0.0.1:9/store", "--user", "dba", "--graph", str(built)]) == 2
    assert PASSWORD_VARIABLE in capsys.readouterr().err


def test_unreachable_endpoint_is_one_line(built):
    with pytest.raises(RulegraphError, match="cannot reach"):
        run_remote(Endpoint(f"http://127.0.0.1:{free_port()}/query"), queries.load("homonyms"))


class _DeadlocksOnce:
    """A Graph Store that answers the first n PUTs as Virtuoso answers a deadlocked load (a
    500 whose HTML page names SQLSTATE 40001), then stores the body; or a 400 when told."""

    PAGE = ("<!DOCTYPE HTML PUBLIC \"-//IETF//DTD HTML 2.0//EN\">\n<html><head><title>Error 500</title></head>"
            "<body><h3>SPARQL Graph Protocol request failed</h3><pre>Error 40001 SR172: Transaction deadlocked</pre>"
            "</body></html>")

    def __init__(self, failures: int, status: str = "500 Request Failed") -> None:
        self.failures, self.status, self.bodies = failures, status, []

    def __call__(self, environ, start_response):
        body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        if self.failures:
            self.failures -= 1
            start_response(self.status, [("Content-Type", "text/html")])
            return [self.PAGE.encode()]
        self.bodies.append(body)
        start_response("201 Created", [("Content-Type", "text/plain")])
        return [b""]


@pytest.fixture
def flaky_store():
    from contextlib import ExitStack

    with ExitStack() as servers_started:
        yield lambda app: servers_started.enter_context(servers.wsgi_server(app, threads=1)) + "/store"


def test_publish_sends_a_put_again_after_a_deadlocked_transaction(flaky_store):
    store = _DeadlocksOnce(failures=1)
    assert publish_turtle(Endpoint(flaky_store(store)), b"<urn:a> <urn:b> <urn:c> .", GRAPH_IRI) == 201
    assert store.bodies == [b"<urn:a> <urn:b> <urn:c> ."]


def test_publish_gives_up_with_the_servers_own_words(flaky_store):
    store = _DeadlocksOnce(failures=5)
    with pytest.raises(RulegraphError, match=r"answered 500 Request Failed: Error 500 SPARQL Graph Protocol request failed Error 40001 SR172: Transaction deadlocked$"):
        publish_turtle(Endpoint(flaky_store(store)), b"<urn:a> <urn:b> <urn:c> .", GRAPH_IRI)
    assert store.failures == 2  # the first PUT and two more


def test_publish_does_not_repeat_a_refused_upload(flaky_store):
    store = _DeadlocksOnce(failures=1, status="400 Bad Request")
    with pytest.raises(RulegraphError, match="400 Bad Request"):
        publish_turtle(Endpoint(flaky_store(store)), b"<urn:a> <urn:b> <urn:c> .", GRAPH_IRI)
    assert store.failures == 0 and store.bodies == []
