"""One module per CLI command, each with ``add_parser(subparsers)``; this list is the CLI."""

from . import build, check, complexity, diff, evaluate, export, impact, interactions, query, resolve

COMMANDS = [build, check, query, interactions, resolve, impact, complexity, export, diff, evaluate]
