"""One module per CLI command, each with ``add_parser(subparsers)``; this list is the CLI."""

from . import build, diff, export, check

COMMANDS = [build, diff, export, check]
