"""Shared fixtures: the seed corpus is built once per session, since every reader and check
test wants it and a build is the slow part."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


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
