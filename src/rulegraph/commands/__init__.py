"""One module per CLI command, each with ``add_parser(subparsers)``; this list is the CLI."""

from . import build, check, complexity, diff, evaluate, export, impact, interactions, lexicon, publish, query, resolve, review, serve

COMMANDS = [build, check, review, query, interactions, resolve, impact, complexity, export, diff, evaluate, lexicon, serve, publish]
