"""Generators for the documentation pages that must follow the code: the CLI reference (from
argparse) and the vocabulary (from the ontology). Run through cog by ``make docs``."""

from __future__ import annotations

import argparse

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
