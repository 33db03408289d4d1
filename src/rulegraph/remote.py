"""A remote triple store: publish the built graph (SPARQL 1.1 Graph Store HTTP Protocol) and run
the named queries on a SPARQL 1.1 endpoint, with the same rows as locally.

HTTP goes through the standard library's client (urllib); results are read by pyoxigraph's
SPARQL results parser. Parameters are bound by a VALUES block of serialised RDF terms
(:func:`rulegraph.queries.with_values`), never pasted as text. Names are resolved to nodes the
way the CLI resolves them, on the terms the endpoint holds. The password is read from the
environment (``RULEGRAPH_PASSWORD``), never from the command line.
"""

from __future__ import annotations

import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from html.parser import HTMLParser

import pyoxigraph as ox
from rdflib import Graph

from . import queries
from .errors import RulegraphError
from .i18n import _
from .namespaces import DATA
from .store import digest

PASSWORD_VARIABLE = "RULEGRAPH_PASSWORD"
TIMEOUT = 120.0
_TERMS = """PREFIX rg: <https://w3id.org/rulegraph#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
CONSTRUCT { ?node rdfs:label ?label ; a ?type ; rg:game ?game . ?game a rg:Game ; rdfs:label ?game_label }
WHERE { ?node rdfs:label ?label ; a ?type ; rg:game ?game . ?game a rg:Game ; rdfs:label ?game_label }"""


#: Times a PUT is sent again when the server says the failure was passing (a PUT is idempotent).
PUT_RETRIES = 2


class ServerAnswer(RulegraphError):
    """An HTTP error from the server; ``transient`` when sending the same request again may
    work (503, or a transaction the database aborted: SQLSTATE 40001, which Virtuoso answers
    to a large upload now and then, then loads the same upload on the second try)."""

    def __init__(self, message: str, *, transient: bool) -> None:
        super().__init__(message)
        self.transient = transient


def _transient(code: int, detail: str) -> bool:
    return code == 503 or (code >= 500 and ("40001" in detail or "deadlock" in detail.lower()))


@dataclass(frozen=True, slots=True)
class Endpoint:
    """Where to send requests: a URL, and an optional user whose password the environment holds."""

    url: str
    user: str | None = None
    password: str | None = None
    graph_iri: str | None = None

    def open(self, request: urllib.request.Request):
        handlers = []
        if self.user is not None:
            passwords = urllib.request.HTTPPasswordMgrWithPriorAuth()
            passwords.add_password(None, self.url, self.user, self.password or "", is_authenticated=request.data is not None)
            handlers += [urllib.request.HTTPBasicAuthHandler(passwords), urllib.request.HTTPDigestAuthHandler(passwords)]
            if request.data is not None:
                self._authorise_ahead(request, passwords)
        opener = urllib.request.build_opener(*handlers)
        try:
            return opener.open(request, timeout=TIMEOUT)
        except urllib.error.HTTPError as error:
            detail = _readable(error.read().decode("utf-8", "replace"), error.headers.get_content_type())
            raise ServerAnswer(_("{url} answered {code} {reason}").format(url=self.url, code=error.code, reason=error.reason)
                               + (f": {detail[:300]}" if detail else ""), transient=_transient(error.code, detail)) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise RulegraphError(_('cannot reach {url} ({reason})').format(url=self.url, reason=reason)) from None

    def _authorise_ahead(self, request: urllib.request.Request, passwords) -> None:
        """A server asking for Digest answers 401 before reading a large body, and the upload
        breaks; so ask for the challenge with an empty request first, and let urllib's digest
        handler sign the real one (Basic is sent ahead by the password manager)."""
        probe = urllib.request.Request(request.full_url, method="GET")
        try:
            urllib.request.urlopen(probe, timeout=TIMEOUT).close()
            return
        except urllib.error.HTTPError as error:
            challenge = error.headers.get("WWW-Authenticate", "") if error.code == 401 else ""
        except (urllib.error.URLError, OSError):
            return
        scheme, _, parameters = challenge.partition(" ")
        if scheme.lower() != "digest":
            return
        fields = urllib.request.parse_keqv_list([f for f in urllib.request.parse_http_list(parameters) if f])
        signature = urllib.request.HTTPDigestAuthHandler(passwords).get_authorization(request, fields)
        if signature:
            request.add_unredirected_header("Authorization", f"Digest {signature}")


class _PageText(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _readable(body: str, content_type: str) -> str:
    """What a server's error page says, as one line: the text of an HTML page (Virtuoso's
    errors are HTML pages whose first line is the doctype), else the body."""
    if content_type == "text/html" or body.lstrip().lower().startswith(("<!doctype", "<html")):
        page = _PageText()
        page.feed(body)
        body = " ".join(page.parts)
    return " ".join(body.split())


def default_graph_iri(games: list[str], turtle: bytes) -> str:
    """One named graph per game and revision: the games' ids and the first 12 hex digits of the
    Turtle's SHA-256, so publishing the same build again replaces it and a new revision sits
    beside the old one."""
    revision = digest(turtle)[:12]
    return str(DATA[f"graph/{'+'.join(sorted(games))}/{revision}"])


def publish(endpoint: Endpoint, turtle: bytes, graph_iri: str) -> int:
    """PUT the Turtle as the named graph ``graph_iri`` (the protocol's replace: one request)."""
    url = _with_query(endpoint.url, {"graph": graph_iri})
    retries = PUT_RETRIES
    while True:
        request = urllib.request.Request(url, data=turtle, method="PUT",
                                         headers={"Content-Type": "text/turtle; charset=utf-8"})
        try:
            with endpoint.open(request) as response:
                return response.status
        except ServerAnswer as answer:
            if not answer.transient or retries == 0:
                raise
            retries -= 1


def select(endpoint: Endpoint, text: str) -> queries.QueryResult:
    """POST a query (SPARQL 1.1 Protocol, form-encoded); rows as :func:`rulegraph.queries.run` gives them."""
    form = {"query": text}
    if endpoint.graph_iri:
        form["default-graph-uri"] = endpoint.graph_iri
    request = urllib.request.Request(
        endpoint.url, data=urllib.parse.urlencode(form).encode("utf-8"), method="POST",
        headers={"Content-Type": "application/x-www-form-urlencoded",
                 "Accept": "application/sparql-results+json, application/n-triples;q=0.9, text/turtle;q=0.8"})
    with endpoint.open(request) as response:
        kind = response.headers.get_content_type()
        body = response.read()
    if kind in ("application/n-triples", "text/turtle", "text/plain"):
        rdf_format = ox.RdfFormat.TURTLE if kind == "text/turtle" else ox.RdfFormat.N_TRIPLES
        return queries.result_from_oxigraph(ox.parse(body, format=rdf_format))
    try:
        result = ox.parse_query_results(body, format=ox.QueryResultsFormat.JSON)
    except (SyntaxError, ValueError) as error:
        raise RulegraphError(_('{url} did not answer SPARQL JSON results ({kind}): {error}').format(url=endpoint.url, kind=kind, error=error)) from None
    return queries.result_from_oxigraph(result)


def terms_graph(endpoint: Endpoint) -> Graph:
    """The labels, kinds and games of the endpoint's terms, in a small local graph, so that a
    parameter is resolved exactly as on the local graph."""
    from .store import to_rdflib

    form = {"query": _TERMS}
    if endpoint.graph_iri:
        form["default-graph-uri"] = endpoint.graph_iri
    request = urllib.request.Request(
        endpoint.url, data=urllib.parse.urlencode(form).encode("utf-8"), method="POST",
        headers={"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/n-triples"})
    with endpoint.open(request) as response:
        body = response.read()
    graph = Graph()
    for triple in ox.parse(body, format=ox.RdfFormat.N_TRIPLES):
        subject, predicate, obj = to_rdflib(triple.subject), to_rdflib(triple.predicate), to_rdflib(triple.object)
        if subject is not None and predicate is not None and obj is not None:
            graph.add((subject, predicate, obj))
    if len(graph) == 0:
        where = (_("in the graph {iri}").format(iri=endpoint.graph_iri) if endpoint.graph_iri else
                 _("in its default graph (pass --graph-iri, the graph 'rulegraph publish' printed)"))
        raise RulegraphError(_("{url} holds no rulegraph terms {where}").format(url=endpoint.url, where=where))
    return graph


def run(endpoint: Endpoint, query: queries.NamedQuery, values: dict[str, str] | None = None) -> queries.QueryResult:
    """A named query on the endpoint, its parameters resolved and bound as on the local graph."""
    values = values or {}
    if not values and all(p.optional for p in query.parameters):
        bound = {}
    elif not query.parameters:
        bound = queries.bindings(Graph(), query, values)
    else:
        bound = queries.bindings(terms_graph(endpoint), query, values)
    return select(endpoint, queries.with_values(query.text, bound))


def _with_query(url: str, parameters: dict[str, str]) -> str:
    separator = "&" if urllib.parse.urlsplit(url).query else "?"
    return f"{url}{separator}{urllib.parse.urlencode(parameters)}"

