"""Every rulegraph command the README shows runs as written, from a fresh folder holding the
project's data: a new user copy-pasting them meets no error."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    commands = []
    for block in blocks:
        for line in block.splitlines():
            line = line.split("  #", 1)[0].strip()
            if line.startswith("rulegraph "):
                commands.append(line)
    return commands


def test_the_readme_shows_the_main_uses():
    shown = {shlex.split(c)[1] for c in readme_commands()}
    assert {"build", "review", "interactions", "resolve", "check", "query", "impact", "complexity", "export", "diff",
            "lexicon"} <= shown


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    folder = tmp_path_factory.mktemp("newuser")
    shutil.copytree(ROOT / "data", folder / "data")
    shutil.copytree(ROOT / "tests" / "gold" / "cendres", folder / "tests" / "gold" / "cendres")
    built = subprocess.run([sys.executable, "-m", "rulegraph", "build"], cwd=folder, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    # "rulegraph diff --graph old/graph.ttl --graph out/graph.ttl" compares with an earlier build.
    (folder / "old").mkdir()
    shutil.copy(folder / "out" / "graph.ttl", folder / "old" / "graph.ttl")
    return folder


@pytest.mark.parametrize("command", readme_commands())
def test_a_readme_command_runs_as_written(workspace, command):
    argv = [sys.executable, "-m", "rulegraph", *shlex.split(command)[1:]]
    done = subprocess.run(argv, cwd=workspace, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{command}\n{done.stderr}"
    assert "Traceback" not in done.stderr
