"""Default paths and output formats, in one place; the CLI reads them without loading rdflib."""

from __future__ import annotations

from pathlib import Path

DEFAULT_MANIFEST = Path("data/corpus.toml")
DEFAULT_OUT = Path("out")
#: Export format → (default file name, what it is for).
EXPORT_FORMATS = {
    "html": ("graph.html", "the offline HTML atlas"),
    "jsonld": ("graph.jsonld", "JSON-LD, for linked-data tools"),
    "graphml": ("graph.graphml", "GraphML, for Gephi and Cytoscape"),
    "csv": ("edges.csv", "one row per edge with its evidence, for a spreadsheet"),
    "ttl": ("graph.ttl", "Turtle, deterministic"),
}
#: Formats of the glossary given back to its designer.
GLOSSARY_FORMATS = ("html", "md", "docx")
