"""One module per CLI command, each with ``add_parser(subparsers)``; this list is the CLI."""

from . import build, check, diff, evaluate, export, interactions, query, resolve

COMMANDS = [build, check, query, interactions, resolve, export, diff, evaluate]
