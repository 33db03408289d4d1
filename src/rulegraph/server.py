"""A read-only SPARQL 1.1 Protocol endpoint over a built store, as a WSGI application.

werkzeug reads the requests (query string, forms, Accept header) and waitress (``rulegraph
serve``) speaks HTTP: nothing here parses HTTP. Each query runs in a forked child process that
opens the store read-only; the child is killed when the time limit passes, so a runaway query
cannot hold the server. Updates are refused: the store is opened read-only and the protocol's
``update`` operation answers 403.

Routes: ``/sparql`` (GET ``?query=``, POST ``application/sparql-query`` or a form), ``/`` (a
query page listing the named queries), ``/queries/NAME?param=value`` (a named query with its
parameters resolved as the CLI resolves them), and the build's pages (``/graph.html``,
``/report.html``, ``/report.md``).
"""

from __future__ import annotations

import html
import json
import multiprocessing
from pathlib import Path

import pyoxigraph as ox
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Request, Response

from . import queries
from .errors import RulegraphError

SELECT_TYPES = {
    "application/sparql-results+json": ox.QueryResultsFormat.JSON,
    "application/sparql-results+xml": ox.QueryResultsFormat.XML,
    "text/csv": ox.QueryResultsFormat.CSV,
    "text/tab-separated-values": ox.QueryResultsFormat.TSV,
    "application/json": ox.QueryResultsFormat.JSON,
}
GRAPH_TYPES = {
    "text/turtle": ox.RdfFormat.TURTLE,
    "application/ld+json": ox.RdfFormat.JSON_LD,
    "application/n-triples": ox.RdfFormat.N_TRIPLES,
    "application/rdf+xml": ox.RdfFormat.RDF_XML,
}
PAGES = {"/graph.html": "text/html", "/report.html": "text/html", "/report.md": "text/markdown"}


class SparqlApp:
    """The WSGI application: ``SparqlApp(Path("out/graph.oxigraph"), out=Path("out"), timeout=10)``."""

    def __init__(self, store: Path, *, out: Path | None = None, timeout: float = 10.0):
        self.store = Path(store)
        self.out = Path(out) if out is not None else self.store.parent
        self.timeout = timeout
        queries.prepare_shipped()  # each request's forked child inherits the parses

    def __call__(self, environ, start_response):
        request = Request(environ)
        try:
            response = self.dispatch(request)
        except HTTPException as error:
            response = error.get_response(environ)
        return response(environ, start_response)

    def dispatch(self, request: Request) -> Response:
        path = request.path
        if path == "/sparql":
            return self.sparql(request)
        if path == "/":
            return Response(query_page(queries.available()), content_type="text/html; charset=utf-8")
        if path.startswith("/queries/"):
            return self.named(request, path.removeprefix("/queries/"))
        if path in PAGES and (self.out / path[1:]).is_file():
            return Response((self.out / path[1:]).read_bytes(), content_type=f"{PAGES[path]}; charset=utf-8")
        return _text(404, f"no page here; try /, /sparql, {', '.join(PAGES)}")

    def sparql(self, request: Request) -> Response:
        if request.method not in ("GET", "POST"):
            return _text(405, "use GET or POST")
        if request.method == "POST" and request.mimetype == "application/sparql-update" or "update" in request.values:
            return _text(403, "this endpoint is read-only: SPARQL updates are refused")
        if request.method == "POST" and request.mimetype == "application/sparql-query":
            text = request.get_data(as_text=True)
        else:
            text = request.values.get("query") or ""
        if not text:
            return _text(400, "give a query: GET /sparql?query=…, or POST application/sparql-query or a form")
        accept = request.accept_mimetypes
        select_type = accept.best_match(list(SELECT_TYPES), default="application/sparql-results+json")
        graph_type = accept.best_match(list(GRAPH_TYPES), default="text/turtle")
        return self._in_child(_run_sparql, text, select_type, graph_type)

    def named(self, request: Request, name: str) -> Response:
        parameters = {key: value for key, value in request.args.items()}
        return self._in_child(_run_named, name, parameters)

    def _in_child(self, function, *arguments) -> Response:
        """Run ``function(store, *arguments) → (status, content type, bytes)`` in a forked child,
        killed after the time limit."""
        context = multiprocessing.get_context("fork")
        receiver, sender = context.Pipe(duplex=False)
        child = context.Process(target=_child, args=(sender, str(self.store), function, arguments), daemon=True)
        child.start()
        sender.close()
        try:
            if not receiver.poll(self.timeout):
                return _text(503, f"the query ran past the time limit of {self.timeout:g} s; narrow it down")
            status = json.loads(receiver.recv_bytes(64))
            content_type = receiver.recv_bytes().decode("utf-8")
            body = receiver.recv_bytes()
            return Response(body, status=status, content_type=content_type)
        except EOFError:
            return _text(500, "the query process stopped without an answer")
        finally:
            receiver.close()
            if child.is_alive():
                child.kill()
            child.join()


def _child(sender, store_folder: str, function, arguments) -> None:
    try:
        store = ox.Store.read_only(store_folder)
        status, content_type, body = function(store, *arguments)
    except Exception as error:  # whatever the query did, the parent gets an answer
        status, content_type, body = 500, "text/plain; charset=utf-8", f"the query failed: {error}".encode()
    sender.send_bytes(json.dumps(status).encode("ascii"))
    sender.send_bytes(content_type.encode("utf-8"))
    sender.send_bytes(body)
    sender.close()


def _run_sparql(store, text: str, select_type: str, graph_type: str) -> tuple[int, str, bytes]:
    try:
        result = store.query(text)
    except SyntaxError as error:
        return 400, "text/plain; charset=utf-8", f"SPARQL syntax error: {error}".encode()
    if isinstance(result, ox.QueryTriples):
        return 200, f"{graph_type}; charset=utf-8", result.serialize(format=GRAPH_TYPES[graph_type]) or b""
    return 200, f"{select_type}; charset=utf-8", result.serialize(format=SELECT_TYPES[select_type]) or b""


def _run_named(store, name: str, parameters: dict[str, str]) -> tuple[int, str, bytes]:
    from .store import as_rdflib

    try:
        result = queries.run(as_rdflib(store), queries.load(name), parameters)
    except RulegraphError as error:
        return 400, "text/plain; charset=utf-8", str(error).encode("utf-8")
    body = json.dumps({"columns": result.columns, "rows": result.rows}, ensure_ascii=False, indent=1)
    return 200, "application/json; charset=utf-8", body.encode("utf-8")


def _text(status: int, message: str) -> Response:
    return Response(message + "\n", status=status, content_type="text/plain; charset=utf-8")


def query_page(named: list[queries.NamedQuery]) -> str:
    """A small offline page: a query form posting to /sparql, and the named queries with their
    parameters (each one loads into the form, or runs with its parameters through /queries/NAME),
    in the language the server was started in."""
    from .i18n import _, language

    run, optional = html.escape(_("run")), _(", optional")
    items = []
    for query in named:
        parameters = "".join(
            f'<label>{html.escape(p.name)} <input name="{html.escape(p.name)}" placeholder="{html.escape(p.kind)}'
            f'{html.escape(optional) if p.optional else ""}"></label> '
            for p in query.parameters)
        items.append(
            f'<li><h3>{html.escape(query.name)}</h3><p>{html.escape(_(query.description))}</p>'
            f'<form action="/queries/{html.escape(query.name)}" method="get">{parameters}<button>{run}</button></form>'
            f'<details><summary>SPARQL</summary><pre>{html.escape(query.text)}</pre></details></li>')
    title, heading = html.escape(_("rulegraph SPARQL endpoint")), html.escape(_("Named queries"))
    atlas, report = html.escape(_("atlas")), html.escape(_("consistency report"))
    links = _("Read-only; {atlas}, {report}.").format(atlas=f'<a href="/graph.html">{atlas}</a>', report=f'<a href="/report.html">{report}</a>')
    return f"""<!doctype html>
<html lang="{language()}"><head><meta charset="utf-8"><title>rulegraph SPARQL</title>
<style>body{{font-family:sans-serif;max-width:60em;margin:auto}}textarea{{width:100%;height:12em}}li{{margin-bottom:1em}}</style>
</head><body>
<h1>{title}</h1>
<p>{links}</p>
<form action="/sparql" method="post">
<textarea name="query">PREFIX rg: &lt;https://w3id.org/rulegraph#&gt;
PREFIX rdfs: &lt;http://www.w3.org/2000/01/rdf-schema#&gt;
SELECT (COUNT(DISTINCT ?ability) AS ?abilities) WHERE {{ ?ability a/rdfs:subClassOf* rg:Ability }}</textarea>
<button>{run}</button></form>
<h2>{heading}</h2><ul>{''.join(items)}</ul>
</body></html>
"""
