"""The documentation follows the code: the generated pages are current, every command and every
check is documented, and the site builds with no warning."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_generated_pages_are_current():
    done = subprocess.run([sys.executable, "-m", "cogapp", "-I", ".", "--check", "docs/cli.md", "docs/vocabulary.md"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, f"run 'make docs' to regenerate: {done.stdout}{done.stderr}"


def test_every_command_is_in_the_cli_reference():
    from rulegraph.commands import COMMANDS

    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for command in COMMANDS:
        name = command.__name__.rsplit(".", 1)[-1]
        assert f"## rulegraph {name}" in page


def test_every_relation_and_class_is_in_the_vocabulary_page():
    from rulegraph.namespaces import INTERACTIONS, KIND_CLASSES

    page = (ROOT / "docs" / "vocabulary.md").read_text(encoding="utf-8")
    for relation in INTERACTIONS:
        assert f"`rg:{relation}`" in page
    for cls in KIND_CLASSES.values():
        assert f"`rg:{str(cls).rsplit('#', 1)[-1]}`" in page


@pytest.mark.skipif(shutil.which("mkdocs") is None and not (Path(sys.executable).parent / "mkdocs").exists(),
                    reason="mkdocs is not installed (the test extra installs it)")
def test_the_site_builds_with_no_warning(tmp_path):
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / "index.html").exists()
