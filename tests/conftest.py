"""Shared fixtures: the seed corpus is built once per session, since every reader and check
test wants it and a build is the slow part."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Tests read messages in the language the code is written in (English), in this process and in
# the commands they run; a test of what a French designer reads asks for the ``french`` fixture,
# and tests/test_i18n.py runs the command without any language variable (French by default).
os.environ["LANGUAGE"] = "en"

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def french(monkeypatch):
    """Messages in French, as a designer reads them by default."""
    monkeypatch.setenv("LANGUAGE", "fr")


@pytest.fixture(autouse=True)
def language_from_the_environment():
    """A test that runs ``main(["--lang", …])`` in this process leaves its choice behind: the
    next test reads the language from the environment again."""
    yield
    from rulegraph.i18n import set_language

    set_language(None)


@pytest.fixture(scope="session")
def seed_build():
    from rulegraph.build import build

    return build(DATA / "corpus.toml")


@pytest.fixture(scope="session")
def seed_graph(seed_build):
    return seed_build.graph


@pytest.fixture(scope="session")
def seed_corpus(seed_build):
    return seed_build.corpus


@pytest.fixture
def build_glossary(tmp_path):
    """Build a graph from a small glossary file written on the fly, its format read off its name:
    ``build_glossary(text, "capacites.json", game="G")``."""
    from rulegraph.build import build

    def run(text: str, name: str = "glossaire.md", game: str = "Jeu"):
        glossary = tmp_path / name
        glossary.write_text(text, encoding="utf-8")
        return build(files=[glossary], game=game)

    return run


@pytest.fixture
def build_markdown(build_glossary):
    """Build a graph from a small Markdown glossary written on the fly: ``build_markdown(text)``."""
    return lambda text, game="Jeu": build_glossary(text, "glossaire.md", game)


@pytest.fixture(scope="session")
def built(seed_graph, tmp_path_factory):
    """The seeds' graph.ttl and its store, as `rulegraph build` writes them."""
    from rulegraph.graph import serialize_turtle
    from rulegraph.store import write_store_beside

    folder = tmp_path_factory.mktemp("out")
    turtle = folder / "graph.ttl"
    turtle.write_text(serialize_turtle(seed_graph), encoding="utf-8")
    write_store_beside(turtle)
    return turtle
