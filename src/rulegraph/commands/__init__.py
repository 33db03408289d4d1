"""One module per CLI command, each with ``add_parser(subparsers)``; this list is the CLI."""

from . import build, diff, export, check, query, interactions, resolve

COMMANDS = [build, diff, export, check, query, interactions, resolve]
