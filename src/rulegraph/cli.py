"""The ``rulegraph`` command: a thin layer that parses arguments, calls the library, prints the
result and sets the exit code (0 fine, 1 findings at or above --fail-on, 2 bad input)."""

from __future__ import annotations

import argparse
import atexit
import gc
import os
import sys
from collections.abc import Sequence

from .commands import COMMANDS
from .errors import RulegraphError
from .i18n import LANGUAGES


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rulegraph")
    except PackageNotFoundError:
        return "(not installed)"


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rulegraph", description="Rules glossaries → knowledge graph.")
    parser.add_argument("--version", action="version", version=f"rulegraph {_version()}")
    parser.add_argument("--lang", choices=LANGUAGES,
                        help="language of what rulegraph prints (default: French, or English under an English locale)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def _hint(error: RulegraphError) -> str:
    """Outside the project folder the default manifest is missing: say how to name one."""
    from pathlib import Path

    from .commands.common import DEFAULT_MANIFEST

    if error.path and Path(error.path) == DEFAULT_MANIFEST and not DEFAULT_MANIFEST.exists():
        return (f"\nrulegraph: without --manifest, rulegraph reads {DEFAULT_MANIFEST} in the current folder: run it from "
                "the project folder, name a manifest with --manifest PATH, or build files with 'rulegraph build FILE --game NAME'")
    return ""


def main(argv: Sequence[str] | None = None) -> int:
    parser = make_parser()
    args = parser.parse_args(argv)
    from .i18n import set_language

    set_language(args.lang)
    try:
        return int(args.run(args) or 0)
    except RulegraphError as error:
        print(f"rulegraph: {error}{_hint(error)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("rulegraph: interrupted; nothing was half-written", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    finally:
        gc.unfreeze()  # the graph a command froze (commands.common.build_from_args) is collectable again


def run() -> None:
    """The ``rulegraph`` command: :func:`main`, then an exit that skips freeing every object one by
    one (a tenth of a second after a build of the seeds, more on a large graph). The outputs are
    written and closed by then; the exit handlers run, and the standard streams are flushed."""
    code = main()
    try:
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        pass
    os._exit(code)


if __name__ == "__main__":
    run()
