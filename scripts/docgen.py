"""Generators for the documentation pages that must follow the code: the CLI reference (from
argparse), the vocabulary (from the ontology) and every console example (from a real run on the
seeds). Run through cog by ``make docs``; tests/test_docs.py checks the pages are current."""

from __future__ import annotations

import argparse
import atexit
import functools
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from rdflib import OWL, RDF, RDFS, Graph

from rulegraph.cli import make_parser
from rulegraph.namespaces import RG


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse keeps its subcommands here, and nowhere public
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def cli_markdown() -> str:
    parser = make_parser()
    parts = []
    for name, sub in _subparsers(parser).items():
        parts.append(f"\n## rulegraph {name}\n\n```text\n{_help(sub)}```\n")
        for inner, child in _subparsers(sub).items():
            parts.append(f"\n### rulegraph {name} {inner}\n\n```text\n{_help(child)}```\n")
    return "".join(parts)


def _help(parser: argparse.ArgumentParser) -> str:
    parser.formatter_class = lambda prog: argparse.HelpFormatter(prog, width=100)
    return parser.format_help()


def vocabulary_markdown() -> str:
    from importlib import resources

    graph = Graph()
    graph.parse(data=resources.files("rulegraph.ontology").joinpath("rulegraph.ttl").read_text("utf-8"), format="turtle")
    rows = []
    for kind, title in ((OWL.Class, "Classes"), (OWL.ObjectProperty, "Relations and links"), (OWL.DatatypeProperty, "Values")):
        rows.append(f"\n## {title}\n\n| term | English | French | meaning |\n|---|---|---|---|\n")
        for term in sorted(set(graph.subjects(RDF.type, kind)), key=str):
            if not str(term).startswith(str(RG)):
                continue
            labels = {label.language: str(label) for label in graph.objects(term, RDFS.label)}
            comment = " ".join(str(graph.value(term, RDFS.comment) or "").split()).replace("|", "\\|")
            rows.append(f"| `rg:{str(term)[len(str(RG)):]}` | {labels.get('en', '')} | {labels.get('fr', '')} | {comment} |\n")
    rows.append(_relation_phrases_markdown())
    return "".join(rows)


def _relation_phrases_markdown() -> str:
    """How messages and views write each relation between two names (rg:phrase, rg:inversePhrase)."""
    from rulegraph.namespaces import RELATIONS
    from rulegraph.vocabulary import relation_phrase

    rows = ["\n## Relations in sentences\n\n« A » *phrase* « B », and « B » *inverse phrase* « A »:\n\n"
            "| relation | phrase (fr) | inverse phrase (fr) | phrase (en) | inverse phrase (en) |\n|---|---|---|---|---|\n"]
    for relation in RELATIONS:
        words = [relation_phrase(relation, lang, inverse=inverse) for lang in ("fr", "en") for inverse in (False, True)]
        rows.append(f"| `rg:{relation}` | " + " | ".join(words) + " |\n")
    return "".join(rows)


# --- Examples run on the seeds -------------------------------------------------------------------
#
# Every console block of the pages is written by ``console(...)`` from a real run, in a temporary
# copy of the project's data built once: `make docs` regenerates the blocks, and tests/test_docs.py
# runs `cog --check`, so a page never shows an output the code no longer gives.

ROOT = Path(__file__).resolve().parents[1]
HELL_DORADO = "000_10d76c9141a2b7c0.txt"
#: The sentence the revision examples delete from Insaisissable in a copy of the Hell Dorado chapter.
DELETED_SENTENCE = " Cette capacité annule l’attaque d’opportunité."
#: Folders the examples name besides data/: the example glossary and a few evaluation glossaries.
#: Copied beside the seeds: the example glossaries, and every gold set (what `rulegraph evaluate`
#: scores, from the folder it runs in).
EXAMPLE_FOLDERS = ("examples", "tests/gold")


def example_environment() -> dict[str, str]:
    """A run as a user in a French terminal-less shell sees it: French messages, no colour,
    stdout and stderr in the order they are written."""
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LANG", "LC_ALL", "LC_MESSAGES")}
    env.update(LC_ALL="C.UTF-8", NO_COLOR="1", COLUMNS="100", PYTHONUNBUFFERED="1")
    return env


def run_example(command: str, folder: Path) -> tuple[int, str]:
    """Run one ``rulegraph …`` command line as a shell would split it; its exit code and output."""
    argv = shlex.split(command)
    if argv[0] != "rulegraph":
        raise ValueError(f"not a rulegraph command: {command}")
    done = subprocess.run([sys.executable, "-m", "rulegraph", *argv[1:]], cwd=folder, env=example_environment(),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=1200)
    return done.returncode, done.stdout


def prepare_workspace(folder: Path) -> Path:
    """The folder the examples run in: data/, the example glossaries, out/ built from the seeds,
    old/graph.ttl (a copy of it), hell-dorado-edited.txt (the chapter without one sentence of
    Insaisissable) and new/graph.ttl (the build of that edited chapter)."""
    shutil.copytree(ROOT / "data", folder / "data")
    for name in EXAMPLE_FOLDERS:
        shutil.copytree(ROOT / name, folder / name)
    chapter = (ROOT / "data" / HELL_DORADO).read_text(encoding="utf-8")
    edited = chapter.replace(DELETED_SENTENCE + "\n", "\n", 1)
    if edited == chapter:
        raise RuntimeError(f"the sentence the examples delete is no longer in {HELL_DORADO}")
    (folder / "hell-dorado-edited.txt").write_text(edited, encoding="utf-8")
    shutil.copytree(ROOT / "data", folder / "edited")
    (folder / "edited" / HELL_DORADO).write_text(edited, encoding="utf-8")
    for command in ("rulegraph build", "rulegraph build --manifest edited/corpus.toml --out new"):
        code, output = run_example(command, folder)
        if code != 0:
            raise RuntimeError(f"{command} failed in the examples' folder:\n{output}")
    (folder / "old").mkdir()
    shutil.copy(folder / "out" / "graph.ttl", folder / "old" / "graph.ttl")
    return folder


@functools.cache
def workspace() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="rulegraph-docs-"))
    atexit.register(shutil.rmtree, folder, True)
    return prepare_workspace(folder)


#: A part of an excerpt: (a regular expression a line matches, how many lines the part keeps from
#: it, None for the rest, and optionally how many lines before it the part starts). Patterns name
#: the data (ability names, editions, "→"), not the messages, which change with the language.
Part = tuple[str, int | None] | tuple[str, int | None, int]


def excerpt(output: str, *parts: Part) -> str:
    """The lines of ``output`` that ``parts`` keep, in order, "…" where lines are left out."""
    lines = output.rstrip("\n").split("\n")
    kept: list[str] = []
    position = 0
    for part in parts:
        pattern, count, before = (*part, 0) if len(part) == 2 else part
        match = next((i for i in range(position + before, len(lines)) if re.search(pattern, lines[i])), None)
        if match is None:
            raise ValueError(f"no line after line {position + 1} matches {pattern!r} in:\n{output}")
        start = max(match - before, position)
        stop = len(lines) if count is None else min(start + count, len(lines))
        if start > position:
            kept.append("…")
        kept.extend(lines[start:stop])
        position = stop
    if position < len(lines):
        kept.append("…")
    return "\n".join(kept) + "\n"


def console(command: str, *, exit_code: int = 0, keep: tuple[Part, ...] = ()) -> str:
    """A console block: the command as typed, then what it prints on the seeds (an excerpt when
    ``keep`` is given). A run whose exit code is not the one expected stops the generation. The
    examples share one folder, so a command shown here must leave it as it found it."""
    folder = workspace()
    code, output = run_example(command, folder)
    if code != exit_code:
        raise RuntimeError(f"{command}: exit code {code}, expected {exit_code}:\n{output}")
    if str(folder) in output:
        raise RuntimeError(f"{command}: the output names the temporary folder:\n{output}")
    if keep:
        output = excerpt(output, *keep)
    return f"```console\n$ {command}\n{output.rstrip()}\n```\n"


def script(path: str) -> str:
    """A console block: one of the repository's scripts run from its root, and what it prints."""
    done = subprocess.run([sys.executable, path], cwd=ROOT, env=example_environment(), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"{path}: exit code {done.returncode}:\n{done.stdout}")
    return f"```text\n$ .venv/bin/python {path}\n{done.stdout.rstrip()}\n```\n"


#: The review examples answer the seeds' least sure edges: the typer asserts every one of them,
#: so they are listed with ``--below``.
REVIEW_BELOW = "0.6"


def review_ids() -> list[str]:
    """The IDs `rulegraph review --below` gives the seeds' least sure edges, least sure first."""
    code, output = run_example(f"rulegraph review --json --below {REVIEW_BELOW}", workspace())
    if code != 0:
        raise RuntimeError(f"rulegraph review --json failed:\n{output}")
    return [item["id"] for item in json.loads(output)]


def review_answers() -> str:
    """The three answers `rulegraph review` takes, on the first edges it lists (each example runs
    in its own copy of the seeds, so two answers may name the same edge)."""
    ids = review_ids()
    if not ids:
        raise RuntimeError(f"the examples answer review items; the seeds have no edge below {REVIEW_BELOW}")
    pick = [ids[min(i, len(ids) - 1)] for i in range(3)]
    return ("```sh\n"
            f"rulegraph review --accept {pick[0]}     # keep the relation shown\n"
            f"rulegraph review --retype {pick[1]} negates\n"
            f"rulegraph review --remove {pick[2]} --reason \"la phrase ne relie pas ces deux capacités\"\n"
            "```\n")
