"""``rulegraph publish --endpoint URL [--graph-iri IRI] [--user U] [--graph out/graph.ttl]``: load
the built graph into a triple store through the SPARQL 1.1 Graph Store HTTP Protocol."""

from __future__ import annotations

import os
from pathlib import Path

from ..i18n import _
from .common import DEFAULT_OUT

PASSWORD_VARIABLE = "RULEGRAPH_PASSWORD"  # rulegraph.remote.PASSWORD_VARIABLE, without importing rdflib here


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "publish", help="load the built graph into a triple store (SPARQL Graph Store HTTP Protocol)",
        description="Replace one named graph of the store with out/graph.ttl, in one PUT request. "
                    f"The password of --user is read from ${PASSWORD_VARIABLE}, never from the command line.")
    parser.add_argument("--endpoint", required=True,
                        help="the store's Graph Store Protocol URL (Oxigraph: http://host:7878/store; "
                             "Virtuoso: http://host:8890/sparql-graph-crud-auth)")
    parser.add_argument("--graph-iri", help="the named graph to replace (default: one per game and revision, printed)")
    parser.add_argument("--user", help=f"user name; the password comes from ${PASSWORD_VARIABLE}")
    parser.add_argument("--graph", type=Path, default=DEFAULT_OUT / "graph.ttl", help="the graph to publish (default: out/graph.ttl)")
    parser.set_defaults(run=run)


def run(args) -> int:
    from ..catalogue import games as games_of
    from ..errors import RulegraphError
    from ..graph import load_graph
    from ..remote import Endpoint, default_graph_iri, publish
    from ..store import as_rdflib, open_store

    try:
        turtle = args.graph.read_bytes()
    except OSError as error:
        raise RulegraphError(_("cannot read the graph: {strerror}; run 'rulegraph build' first").format(strerror=error.strerror or error),
                             path=args.graph) from None
    if args.user is not None and PASSWORD_VARIABLE not in os.environ:
        raise RulegraphError(_('--user {user} needs its password in the environment variable {password_variable}').format(user=args.user, password_variable=PASSWORD_VARIABLE))
    store = open_store(args.graph)
    graph = as_rdflib(store) if store is not None else load_graph(args.graph)
    games = list(games_of(graph))
    graph_iri = args.graph_iri or default_graph_iri(games, turtle)
    endpoint = Endpoint(args.endpoint, args.user, os.environ.get(PASSWORD_VARIABLE))
    status = publish(endpoint, turtle, graph_iri)
    print(f"published {args.graph} as <{graph_iri}> to {args.endpoint} (HTTP {status})")
    print(f"query it with: rulegraph query NAME --endpoint SPARQL_URL --graph-iri {graph_iri}")
    return 0
