"""``rulegraph query NAME|FILE.rq|"SELECT …" [--param key=value]… [--json|--csv]``, and ``--list``."""

from __future__ import annotations

import re
from pathlib import Path

from ..i18n import _
from ..render.tables import format_table, render_csv, render_query_list
from .common import add_graph_arguments, add_output_arguments, load_graph, print_json

_QUERY_TEXT = re.compile(r"\b(SELECT|ASK|CONSTRUCT|DESCRIBE|PREFIX|BASE)\b", re.IGNORECASE)


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "query", help="run a named SPARQL query, a .rq file or a query text",
        description="Run a named query (rulegraph query --list), a .rq file, or a SPARQL text. "
                    "Parameters are bound as RDF terms, never pasted into the query.")
    parser.add_argument("query", nargs="?", help="a query name, a FILE.rq, or a SPARQL text")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE", help="a query parameter (repeatable)")
    parser.add_argument("--list", action="store_true", help="list the named queries and their parameters")
    parser.add_argument("--timeout", type=float, default=30.0, metavar="SECONDS",
                        help="stop a query that runs longer than this (default: 30)")
    parser.add_argument("--allow-endpoint", action="append", default=[], metavar="URL",
                        help="let SERVICE <URL> reach this SPARQL endpoint (repeatable); every other SERVICE is refused")
    add_graph_arguments(parser)
    add_endpoint_arguments(parser)
    add_output_arguments(parser, csv_output=True)
    parser.set_defaults(run=run)


def run(args) -> int:
    from .. import queries
    from ..errors import RulegraphError

    if args.list:
        print(render_query_list(queries.available()))
        return 0
    if not args.query:
        raise RulegraphError(_('give a query name, a FILE.rq or a SPARQL text (rulegraph query --list shows the names)'))
    if args.timeout <= 0:
        raise RulegraphError(_('--timeout must be a positive number of seconds'))
    query = pick_query(args.query)
    values = parse_params(args.param)
    result = run_remote(args, query, values) if args.endpoint else queries.run(
        load_graph(args), query, values, timeout=args.timeout, allow_endpoints=tuple(args.allow_endpoint))
    if args.json:
        print_json(result.rows)
    elif args.csv:
        print(render_csv(result.columns, result.rows), end="")
    else:
        print(format_table(result.rows, result.columns))
    return 0


def pick_query(argument: str):
    """A .rq path, a SPARQL text, or a shipped query's name."""
    from .. import queries

    if argument.endswith(".rq"):
        return queries.from_file(Path(argument))
    if _QUERY_TEXT.search(argument) and ("{" in argument or "\n" in argument):
        return queries.adhoc(argument)
    return queries.load(argument)


def parse_params(pairs: list[str]) -> dict[str, str]:
    from ..errors import RulegraphError

    values: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise RulegraphError(_('--param {pair!r}: write it as KEY=VALUE, e.g. --param ability=Fouisseur').format(pair=pair))
        values[key.strip()] = value.strip()
    return values


def add_endpoint_arguments(parser) -> None:
    parser.add_argument("--endpoint", metavar="URL",
                        help="run on a remote SPARQL endpoint instead (Oxigraph: http://host:7878/query)")
    parser.add_argument("--graph-iri", help="with --endpoint: the named graph to query (the one 'rulegraph publish' printed)")
    parser.add_argument("--user", help="with --endpoint: user name; the password comes from $RULEGRAPH_PASSWORD")


def run_remote(args, query, values):
    import os

    from .. import remote
    from ..errors import RulegraphError

    if args.graph is not None or args.manifest is not None:
        raise RulegraphError(_('--endpoint queries the remote store; leave out --graph and --manifest'))
    endpoint = remote.Endpoint(args.endpoint, args.user, os.environ.get(remote.PASSWORD_VARIABLE), args.graph_iri)
    return remote.run(endpoint, query, values)
