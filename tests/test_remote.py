"""``rulegraph publish`` and ``rulegraph query --endpoint`` against real servers started here on
127.0.0.1: the Oxigraph server (pip package ``oxigraph``) and Virtuoso (Debian's
``virtuoso-opensource``); each is skipped, with the reason, where it is not installed."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from rulegraph import queries
from rulegraph.cli import main
from rulegraph.errors import RulegraphError
from rulegraph.remote import PASSWORD_VARIABLE, Endpoint
from rulegraph.remote import run as run_remote

from .test_store import SEED_PARAMETERS

GRAPH_IRI = "https://w3id.org/rulegraph/data/graph/test-seeds"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(url: str, process: subprocess.Popen, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the server stopped at start (exit {process.returncode})")
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.3)
    pytest.fail(f"no answer from {url} after {seconds:.0f} s")


@pytest.fixture(scope="module")
def oxigraph_server(tmp_path_factory):
    binary = shutil.which("oxigraph") or str(Path(sys.executable).with_name("oxigraph"))
    if not Path(binary).exists():
        pytest.skip("the Oxigraph server is not installed (pip install oxigraph)")
    port = free_port()
    process = subprocess.Popen([binary, "serve", "--location", str(tmp_path_factory.mktemp("oxigraph")),
                                "--bind", f"127.0.0.1:{port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(f"http://127.0.0.1:{port}/", process)
        yield {"name": "oxigraph", "store": f"http://127.0.0.1:{port}/store", "query": f"http://127.0.0.1:{port}/query", "user": None}
    finally:
        process.terminate()
        process.wait(timeout=30)


VIRTUOSO_INI = """[Database]
DatabaseFile = {dir}/virtuoso.db
ErrorLogFile = {dir}/virtuoso.log
TransactionFile = {dir}/virtuoso.trx
xa_persistent_file = {dir}/virtuoso.pxa
[TempDatabase]
DatabaseFile = {dir}/virtuoso-temp.db
TransactionFile = {dir}/virtuoso-temp.trx
[Parameters]
ServerPort = 127.0.0.1:{sql_port}
DirsAllowed = ., {dir}, /usr/share/virtuoso-opensource-7/vad
NumberOfBuffers = 10000
MaxDirtyBuffers = 6000
[HTTPServer]
ServerPort = 127.0.0.1:{http_port}
ServerRoot = /var/lib/virtuoso-opensource-7/vsp
[SPARQL]
ResultSetMaxRows = 100000
MaxQueryExecutionTime = 60
DefaultGraph =
"""


@pytest.fixture(scope="module")
def virtuoso_server(tmp_path_factory):
    binary = shutil.which("virtuoso-t")
    if binary is None:
        pytest.skip("Virtuoso is not installed (apt-get install virtuoso-opensource)")
    folder = tmp_path_factory.mktemp("virtuoso")
    http_port, sql_port = free_port(), free_port()
    (folder / "virtuoso.ini").write_text(VIRTUOSO_INI.format(dir=folder, sql_port=sql_port, http_port=http_port))
    process = subprocess.Popen([binary, "+foreground", "+configfile", str(folder / "virtuoso.ini")], cwd=folder,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(f"http://127.0.0.1:{http_port}/sparql?query=ASK%7B%7D", process, seconds=120)
        base = f"http://127.0.0.1:{http_port}"
        yield {"name": "virtuoso", "store": f"{base}/sparql-graph-crud-auth", "query": f"{base}/sparql", "user": "dba", "password": "dba"}
    finally:
        process.terminate()
        process.wait(timeout=60)


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
