"""Named SPARQL queries shipped as ``.rq`` files, and a runner that binds parameters safely.

Each ``.rq`` file opens with comment lines: a description, then one line per parameter::

    # What cancels or negates an ability ...
    # param ability (ability): the ability that is cancelled
    # param game (game, optional): only this game

A parameter is bound to the query variable of the same name through rdflib's ``initBindings``
(on the store, by a VALUES block of serialised terms, see :func:`for_the_store`): values are
never pasted into the query text as text, so a name with an apostrophe, quotes or braces cannot
change the query. Parameters of a term kind (ability, state, action, characteristic,
concept) are first resolved to their node URI with :func:`rulegraph.catalogue.find_term`, which
matches names as the extractor does; a ``game`` parameter becomes the game's URI; a ``text``
parameter (and every parameter of an ad-hoc query) is bound as a plain literal, a ``folded`` one
as the literal folded by :func:`rulegraph.text.fold` (to compare with rg:labelKey/rg:sentenceKey).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from types import FrameType
from typing import Any

from rdflib import Graph, Literal, Variable
from rdflib.query import ResultRow
from rdflib.term import Identifier

from ..errors import RulegraphError
from ..i18n import _
from ..namespaces import game_uri
from ..text import editor_lines, fold

TERM_KINDS = ("ability", "state", "action", "characteristic", "concept")
PARAMETER_KINDS = (*TERM_KINDS, "game", "text", "folded")
#: Seconds a query may run before it is stopped (``rulegraph query --timeout``).
DEFAULT_TIMEOUT = 30.0
_PARAM_LINE = re.compile(r"^#\s*param\s+(\w+)\s*\(([^)]*)\)\s*:\s*(.*)$")


@dataclass(frozen=True, slots=True)
class Parameter:
    name: str
    kind: str
    description: str
    optional: bool = False


@dataclass(frozen=True, slots=True)
class NamedQuery:
    """A query with the description and parameters its header comment declares."""

    name: str
    description: str
    parameters: tuple[Parameter, ...]
    text: str
    path: str


@dataclass(frozen=True, slots=True)
class QueryResult:
    columns: list[str]
    rows: list[dict[str, object]]


def parse_query(text: str, *, name: str, path: str) -> NamedQuery:
    """Read the header comment: description lines, then ``# param NAME (KIND[, optional]): text``."""
    description: list[str] = []
    parameters: list[Parameter] = []
    for number, line in enumerate(editor_lines(text), start=1):
        stripped = line.strip()
        if not stripped.startswith("#"):
            break
        match = _PARAM_LINE.match(stripped)
        if match:
            options = [o.strip() for o in match.group(2).split(",")]
            kind = options[0]
            if kind not in PARAMETER_KINDS:
                raise RulegraphError(_('unknown parameter kind {kind!r}; use one of {parameter_kinds}').format(kind=kind, parameter_kinds=', '.join(PARAMETER_KINDS)),
                                     path=path, line=number)
            parameters.append(Parameter(match.group(1), kind, match.group(3).strip(), "optional" in options[1:]))
        elif stripped.lstrip("#").strip().startswith("param"):
            raise RulegraphError(_("parameter line must read '# param NAME (KIND[, optional]): description'"),
                                 path=path, line=number)
        elif not parameters:
            description.append(stripped.lstrip("#").strip())
    return NamedQuery(name, " ".join(d for d in description if d), tuple(parameters), text, path)


def available() -> list[NamedQuery]:
    """The named queries shipped with rulegraph, by name."""
    return list(_shipped_queries().values())


@cache
def _shipped_queries() -> dict[str, NamedQuery]:
    """The shipped .rq files, read once per process (every run on the store asks whether its query
    is one of them)."""
    folder = resources.files(__name__)
    found = [
        parse_query(entry.read_text(encoding="utf-8"), name=entry.name[:-3], path=f"rulegraph/queries/{entry.name}")
        for entry in folder.iterdir() if entry.name.endswith(".rq")
    ]
    return {query.name: query for query in sorted(found, key=lambda q: q.name)}


def load(name: str) -> NamedQuery:
    """A shipped query by name (``cancelled-by``), or an error listing the close names."""
    from ..text import closest

    queries = _shipped_queries()
    if name in queries:
        return queries[name]
    near = closest(name, list(queries))
    hint = _("did you mean {names}?").format(names=", ".join(near)) if near else _("known: {names}").format(names=", ".join(queries))
    raise RulegraphError(_('unknown query {name!r}; {hint} (rulegraph query --list)').format(name=name, hint=hint))


def from_file(path: Path) -> NamedQuery:
    from ..files import read_text

    return parse_query(read_text(path, what="query file"), name=path.stem, path=str(path))


def adhoc(text: str) -> NamedQuery:
    """A query given as text; its parameters are whatever --param names, bound as literals."""
    return NamedQuery("query", "", (), text, "<query>")


def bindings(graph: Graph, query: NamedQuery, values: dict[str, str]) -> dict[str, Identifier]:
    """RDF terms for the parameter values; names are resolved to nodes, text stays a literal."""
    from ..catalogue import find_game, find_term

    declared = {p.name: p for p in query.parameters}
    if not declared:
        return {Variable(k): Literal(v) for k, v in values.items()}
    unknown = sorted(set(values) - set(declared))
    if unknown:
        raise RulegraphError(_('query {name} has no parameter {unknown}; it takes {declared}').format(name=query.name, unknown=', '.join(unknown), declared=', '.join(declared)), path=query.path)
    missing = [p.name for p in query.parameters if not p.optional and p.name not in values]
    if missing:
        raise RulegraphError(_('query {name} needs --param {missing}=… ({description})').format(name=query.name, missing=missing[0], description=_(declared[missing[0]].description)),
                             path=query.path)
    game = values.get("game")
    bound: dict[str, Identifier] = {}
    for name, value in values.items():
        kind = declared[name].kind
        if kind == "text":
            bound[Variable(name)] = Literal(value)
        elif kind == "folded":
            bound[Variable(name)] = Literal(fold(value))
        elif kind == "game":
            bound[Variable(name)] = game_uri(find_game(graph, value))
        else:
            kinds = ("ability", "undefined") if kind == "ability" else (kind,)
            bound[Variable(name)] = find_term(graph, value, game=game, kinds=kinds).uri
    return bound


def run(graph: Graph, query: NamedQuery, values: dict[str, str] | None = None, *,
        timeout: float | None = DEFAULT_TIMEOUT, allow_endpoints: tuple[str, ...] = ()) -> QueryResult:
    """Run a query with its parameters bound as RDF terms; rows are plain Python values.

    Nothing leaves the machine: SERVICE (federated queries) and FROM / FROM NAMED (which make
    rdflib load a URL or a file) are refused, except a SERVICE whose endpoint is in
    ``allow_endpoints``. A query still running after ``timeout`` seconds is stopped."""
    from pyparsing import ParseBaseException

    from ..store import oxigraph_of

    try:
        prepared = _prepared(query.text)
    except ParseBaseException as error:
        raise RulegraphError(_('SPARQL syntax error: {msg} (column {col}): {strip}').format(msg=error.msg, col=error.col, strip=error.line.strip()),
                             path=query.path, line=error.lineno) from None
    except Exception as error:  # rdflib reports unknown prefixes and the like as plain exceptions
        raise RulegraphError(_('invalid SPARQL: {one_line}').format(one_line=_one_line(error)), path=query.path) from None
    # Checked whatever engine runs the query: Oxigraph would follow a SERVICE too.
    refuse_remote_access(prepared.algebra, query, allow_endpoints)
    store = oxigraph_of(graph)
    if store is not None and not _shipped(query):
        # Oxigraph cannot be stopped from Python once a query runs: a query the user wrote runs
        # on an in-memory copy, under the time limit; the shipped queries are known to be fast.
        copy = Graph()
        for triple in graph:
            copy.add(triple)
        graph, store = copy, None
    if store is not None:
        try:
            with TimeLimit(timeout):
                return run_on_store(store, query, bindings(graph, query, values or {}))
        except QueryTimeout:
            raise RulegraphError(_('the query ran longer than {timeout:g} s and was stopped; narrow it or give a longer --timeout').format(timeout=timeout), path=query.path) from None
    initial = bindings(graph, query, values or {})
    try:
        with TimeLimit(timeout):
            result = graph.query(prepared, initBindings=initial)
            if result.type == "ASK":
                return QueryResult(["ask"], [{"ask": bool(result.askAnswer)}])
            if result.type in ("CONSTRUCT", "DESCRIBE"):
                return QueryResult(["subject", "predicate", "object"],
                                   [dict(zip(("subject", "predicate", "object"), map(_plain, t))) for t in result if isinstance(t, tuple)])
            columns = [str(v) for v in result.vars or []]
            return QueryResult(columns, [{c: _plain(row[i]) for i, c in enumerate(columns)} for row in result if isinstance(row, ResultRow)])
    except QueryTimeout:
        raise RulegraphError(_('the query ran longer than {timeout:g} s and was stopped; narrow it (a property path with * over | is the usual cause) or give a longer --timeout').format(timeout=timeout), path=query.path) from None
    except RecursionError:
        raise RulegraphError(_('the query is nested too deeply to run; simplify it'), path=query.path) from None
    except Exception as error:  # evaluation errors (a bad function call) are the query's fault
        raise RulegraphError(_('the query failed: {error}').format(error=_explain(error)), path=query.path) from None


@lru_cache(maxsize=64)
def _prepared(text: str):
    """rdflib's parse of a query, kept: parsing takes tens of milliseconds, more than a named
    query takes to run on the store."""
    from rdflib.plugins.sparql import prepareQuery

    return prepareQuery(text)


def prepare_shipped() -> None:
    """Parse every shipped query once, in a process that forks a child per request (``serve``):
    the children inherit the parses instead of each importing rdflib's SPARQL engine and parsing
    its query again."""
    for query in available():
        _prepared(query.text)


class QueryTimeout(BaseException):
    """Raised inside rdflib's evaluation when the deadline passes; a BaseException so that no
    ``except Exception`` inside rdflib swallows it."""


class TimeLimit:
    """Stop the code inside after ``seconds`` (an interval timer's signal, in the main thread;
    elsewhere signals cannot be delivered and the query runs unbounded)."""

    def __init__(self, seconds: float | None):
        import signal
        import threading

        self.seconds = seconds
        self.active = bool(seconds) and hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
        self.previous: Callable[[int, FrameType | None], Any] | int | None = None
        self.armed = False

    def _expire(self, signum, frame) -> None:
        if self.armed:
            raise QueryTimeout()

    def __enter__(self) -> TimeLimit:
        import signal

        if self.active:
            self.armed = True
            self.previous = signal.signal(signal.SIGALRM, self._expire)
            # Again every quarter second after the deadline: rdflib has bare ``except:`` clauses,
            # and a timeout raised inside one was swallowed, leaving the query to run on (seen on
            # a loaded machine). Outside the block the handler does nothing (``armed``) and
            # __exit__ stops the timer before it gives the previous handler back.
            signal.setitimer(signal.ITIMER_REAL, self.seconds or 0, 0.25)
        return self

    def __exit__(self, *exc: object) -> None:
        import signal

        while self.active:
            # A signal already pending may fire here, before the timer is off: retry until it
            # is, or the timer would go on raising in whatever runs next.
            try:
                self.armed = False
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, signal.SIG_DFL if self.previous is None else self.previous)
                self.active = False
            except QueryTimeout:
                continue


def refuse_remote_access(algebra: object, query: NamedQuery, allow_endpoints: tuple[str, ...] = ()) -> None:
    """SERVICE sends the query and its bindings to another address (or opens a local file), and
    FROM / FROM NAMED load a document: both reach outside the graph, so both are refused unless
    the endpoint was explicitly allowed (FROM never is)."""
    from rdflib import URIRef

    allowed = set(allow_endpoints)
    for node in _algebra_nodes(algebra):
        name = getattr(node, "name", None)
        if name == "ServiceGraphPattern":
            endpoint = dict.get(node, "term")
            if not isinstance(endpoint, URIRef) or str(endpoint) not in allowed:
                shown = f"<{endpoint}>" if isinstance(endpoint, URIRef) else f"?{endpoint}"
                raise RulegraphError(
                    _('SERVICE {shown} would reach outside the graph; rulegraph runs offline. Remove it, or allow this endpoint explicitly with --allow-endpoint URL').format(shown=shown), path=query.path)
        elif name == "Graph":
            # The build is one default graph; a store may also hold its own bookkeeping graph.
            raise RulegraphError(_('GRAPH needs named graphs, and the rulegraph graph is a single default graph; remove the GRAPH clause'), path=query.path)
        elif name == "DatasetClause" or dict.get(node, "datasetClause"):
            raise RulegraphError(_('FROM / FROM NAMED would load another document; rulegraph queries only its own graph: remove the FROM clause'), path=query.path)


def _algebra_nodes(node: object):
    """Every node of a query's algebra tree, iteratively (a deep query must not overflow)."""
    stack = [node]
    seen: set[int] = set()
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, dict):
            yield current
            stack.extend(current.values())
        elif isinstance(current, (list, tuple)):
            stack.extend(current)


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def _explain(error: Exception) -> str:
    """rdflib's evaluation errors, said in terms of the query the user wrote."""
    text = _one_line(error)
    if "requiring a dataset" in text:
        return ("GRAPH needs named graphs, and the rulegraph graph is a single default graph; "
                "remove GRAPH ?g { … } and keep its pattern")
    if isinstance(error, (AttributeError, TypeError)):
        return (f"an operation got a value of the wrong kind ({text}); an aggregate such as SUM or AVG over "
                "IRIs or texts is the usual cause: apply it to numbers, or use COUNT")
    return text


def _plain(value: object) -> object:
    if value is None:
        return None
    if isinstance(value, Literal):
        python = value.toPython()
        return python if isinstance(python, (bool, int, float)) else str(value)
    return str(value)


# --- the Oxigraph store (rulegraph.store) ---------------------------------------------------


def _shipped(query: NamedQuery) -> bool:
    shipped = _shipped_queries().get(query.name)
    return shipped is not None and shipped.text == query.text


def run_on_store(store: Any, query: NamedQuery, bound: dict[str, Identifier]) -> QueryResult:
    """Run a query on an Oxigraph store, parameters bound by :func:`with_values`; rows are the
    same plain values as :func:`run` gives on rdflib."""
    try:
        result = store.query(for_the_store(query, bound))
    except SyntaxError as error:
        raise RulegraphError(_('SPARQL syntax error: {error}').format(error=error), path=query.path) from None
    except (OSError, ValueError, TypeError, RuntimeError) as error:
        raise RulegraphError(_('the query failed: {error}').format(error=error), path=query.path) from None
    return result_from_oxigraph(result)


def result_from_oxigraph(result: Any) -> QueryResult:
    """Oxigraph's answer (a boolean, solutions, or triples from a store or a parsed document) as
    the plain rows :func:`run` gives on rdflib."""
    import pyoxigraph as ox

    if isinstance(result, ox.QueryBoolean):
        return QueryResult(["ask"], [{"ask": bool(result)}])
    if isinstance(result, ox.QuerySolutions):
        columns = [v.value for v in result.variables]
        return QueryResult(columns, [{c: _plain_ox(solution[i]) for i, c in enumerate(columns)} for solution in result])
    columns = ["subject", "predicate", "object"]
    return QueryResult(columns, [dict(zip(columns, map(_plain_ox, (t.subject, t.predicate, t.object)))) for t in result])


_XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
_XSD_INTEGER = "http://www.w3.org/2001/XMLSchema#integer"
_XSD_BOOLEAN = "http://www.w3.org/2001/XMLSchema#boolean"


def _plain_ox(term: object) -> object:
    """What :func:`_plain` gives for the rdflib term, without building it for the usual terms
    (IRIs, strings, integers): a few thousand rows took longer to convert than to find."""
    import pyoxigraph as ox

    from ..store import to_rdflib

    if isinstance(term, ox.NamedNode):
        return term.value
    if isinstance(term, ox.Literal):
        datatype = term.datatype.value
        if term.language or datatype == _XSD_STRING:
            return term.value
        if datatype == _XSD_INTEGER:
            try:
                return int(term.value)
            except ValueError:
                pass
        if datatype == _XSD_BOOLEAN and term.value in ("true", "false"):
            return term.value == "true"
    return _plain(to_rdflib(term))


def for_the_store(query: NamedQuery, bound: dict[str, Identifier]) -> str:
    """The query text Oxigraph runs: parameters bound by :func:`with_values`, except those the
    query uses only inside expressions (``FILTER(CONTAINS(?key, ?word))``), written in as
    constants. Oxigraph's planner orders joins before it places filters, and a VALUES variable
    that no triple pattern shares leaves the filter above every join: evidence-word joined every
    statement before testing one (1 s at 100 copies, 60 ms with the word written in). A term is
    written as rdflib serialises it (``n3()``), so a value still cannot change the query."""
    constants = _expression_only(query, bound)
    text = _with_constants(query.text, {str(name): term for name, term in bound.items() if str(name) in constants})
    text = _with_constants_in_optionals(text, {str(name): term for name, term in bound.items() if str(name) not in constants})
    return with_values(text, {name: term for name, term in bound.items() if str(name) not in constants})


def _with_constants_in_optionals(text: str, bound: dict[str, Identifier]) -> str:
    """Each bound variable written as its value inside the OPTIONAL groups too. Oxigraph
    evaluates an OPTIONAL group on its own before joining it to the rows, so a value bound outside
    it narrows nothing inside: modifies-during's "said in the same sentence" group read every
    appliesTo statement of 100 copies (55 of its 100 ms). The VALUES block still binds the
    variable for the rows, so the rows are the same."""
    if not bound:
        return text
    hidden = _NOT_SYNTAX.sub(lambda match: " " * len(match.group()), text)
    pieces, position = [], 0
    for match in re.finditer(r"\bOPTIONAL\s*\{", hidden, re.IGNORECASE):
        if match.start() < position:
            continue
        depth, end = 0, match.end() - 1
        for end in range(match.end() - 1, len(hidden)):
            depth += {"{": 1, "}": -1}.get(hidden[end], 0)
            if depth == 0:
                break
        pieces += [text[position:match.end()], _with_constants(text[match.end():end], bound)]
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def _expression_only(query: NamedQuery, bound: dict[str, Identifier]) -> set[str]:
    """The bound variables that no triple pattern, BIND, VALUES or projection names, in a query
    without sub-queries: writing such a variable as its value changes no row."""
    from rdflib import Variable as Var

    named: set[Var] = set()
    projections = 0
    for node in _algebra_nodes(_prepared(query.text).algebra):
        name = getattr(node, "name", None)
        if name == "BGP":
            named.update(term for triple in node["triples"] for term in triple if isinstance(term, Var))
        elif name == "Extend":
            named.add(node["var"])
        elif name == "Project":
            projections += 1
            named.update(node["PV"])
        elif name in ("values", "ToMultiSet"):
            return set()
    if projections != 1:
        return set()
    return {str(name) for name in bound if Var(str(name)) not in named}


def _with_constants(text: str, bound: dict[str, Identifier]) -> str:
    """The query with each ``?name`` / ``$name`` of ``bound`` outside comments, IRIs and strings
    replaced by its term."""
    if not bound:
        return text
    variable = re.compile(r"[?$](" + "|".join(re.escape(name) for name in bound) + r")(?!\w)")

    def written(chunk: str) -> str:
        return variable.sub(lambda match: bound[match.group(1)].n3(), chunk)

    pieces, position = [], 0
    for match in _NOT_SYNTAX.finditer(text):
        pieces += [written(text[position:match.start()]), match.group()]
        position = match.end()
    pieces.append(written(text[position:]))
    return "".join(pieces)


#: What may hold a "{" that does not open a group: comments, IRIs, and the four kinds of string.
_NOT_SYNTAX = re.compile(r'#[^\n]*|<[^<>\s]*>|""".*?"""|' r"'''.*?'''|" r'"(?:[^"\\\n]|\\.)*"|' r"'(?:[^'\\\n]|\\.)*'",
                         re.DOTALL)


def with_values(text: str, bound: dict[str, Identifier]) -> str:
    """The query with its parameters bound by a VALUES block opening its outer group:
    ``WHERE { VALUES (?ability) { (<…/ability/fouisseur>) } …``. Each value is an RDF term
    serialised by rdflib (``n3()``: IRIs checked, quotes and backslashes escaped), so a value
    can never change the query; a remote endpoint, which has no initBindings, and the store
    get the same rows as rdflib this way."""
    if not bound:
        return text
    names = " ".join(f"?{name}" for name in bound)
    terms = " ".join(term.n3() for term in bound.values())
    brace = _outer_brace(text)
    return f"{text[:brace + 1]} VALUES ({names}) {{ ({terms}) }}\n{text[brace + 1:]}"


def _outer_brace(text: str) -> int:
    """Where the query's outer group opens: the first ``{`` outside comments, IRIs and strings."""
    position = 0
    for match in _NOT_SYNTAX.finditer(text):
        brace = text.find("{", position, match.start())
        if brace != -1:
            return brace
        position = match.end()
    brace = text.find("{", position)
    if brace == -1:
        raise RulegraphError("the query has no { … } group to bind parameters in")
    return brace


def extract_descriptions(fileobj, keywords, comment_tags, options):  # noqa: ARG001 (Babel's signature)
    """Babel extractor for the ``.rq`` files (``make i18n``, babel.cfg): each query's description
    and its parameters' descriptions go into the message catalogue, so that ``query --list``
    speaks the user's language."""
    text = fileobj.read().decode("utf-8")
    query = parse_query(text, name="", path=getattr(fileobj, "name", ""))
    if query.description:
        yield 1, None, query.description, []
    for parameter in query.parameters:
        yield 1, None, parameter.description, []
