"""The documentation follows the code: every console example is the output of a real run (cog,
`make docs`), every shell example runs as written on the seeds, every Python example runs and
prints what the page shows (doctest), every command, check and named query is documented, and the
site builds with no warning. Examples run in a temporary copy of the project's data."""

from __future__ import annotations

import doctest
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scripts import docgen

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
#: Pages (or parts of them) written by cog, where a name's presence proves nothing.
GENERATED = {"cli.md"}

#: Shell examples that need a server, and the tests that run them against one instead.
NEEDS_A_SERVER = {
    "rulegraph serve": "tests/test_serve.py serves the seeds' build and queries it over HTTP",
    "RULEGRAPH_PASSWORD=… rulegraph publish --endpoint http://store:8890/sparql-graph-crud-auth --user dba":
        "tests/test_remote.py publishes to an Oxigraph server and to Virtuoso",
    "rulegraph query cancelled-by --param ability=Fouisseur --endpoint http://store:8890/sparql --graph-iri IRI":
        "tests/test_remote.py queries the named graph it published",
}
#: Shell examples whose exit code is not 0 by design.
EXPECTED_EXIT = {"rulegraph check --fail-on warning": 1}


def cog_command(*options: str) -> list[str]:
    """cog as `make docs` runs it (COG_DOCS in the Makefile)."""
    return [sys.executable, "-m", "cogapp", "-I", ".", "-p", "import scripts.docgen as docgen", *options,
            *[str(p.relative_to(ROOT)) for p in PAGES]]


def test_the_makefile_runs_cog_as_the_test_does():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "COG_DOCS := -I . -p 'import scripts.docgen as docgen'" in makefile
    assert "$(BIN)/cog $(COG_DOCS) -r docs/*.md" in makefile


def test_the_generated_pages_and_examples_are_current():
    """Re-runs every console example on a fresh copy of the seeds and compares with the pages."""
    done = subprocess.run(cog_command("--check", "--diff"), capture_output=True, text=True, cwd=ROOT, timeout=1800)
    assert done.returncode == 0, f"run 'make docs' to regenerate: {done.stdout}{done.stderr}"


def fenced_blocks(language: str) -> list[tuple[str, int, str]]:
    """(page, line, body) of every block fenced as ``language`` in the pages."""
    blocks = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in re.finditer(rf"^```{language}\n(.*?)^```", text, re.S | re.M):
            blocks.append((page.name, text.count("\n", 0, match.start()) + 2, match.group(1)))
    return blocks


def shell_examples() -> list[str]:
    """Every line of a ```sh block whose command is rulegraph (after environment assignments)."""
    lines = []
    for _page, _line, body in fenced_blocks("sh"):
        for line in body.splitlines():
            words = [w for w in shlex.split(line, comments=True) if not re.match(r"^[A-Z_]+=", w)]
            if words and (words[0] == "rulegraph" or words[0].endswith("/rulegraph")):
                lines.append(line.split(" #", 1)[0].strip())
    return lines


def console_examples() -> list[str]:
    return [body.split("\n", 1)[0] for _page, _line, body in fenced_blocks("console")]


def test_the_pages_hold_examples():
    assert len(shell_examples()) >= 30
    assert len(console_examples()) >= 12
    assert all(first.startswith("$ rulegraph ") for first in console_examples())


def test_every_example_needing_a_server_is_still_shown():
    assert set(NEEDS_A_SERVER) <= set(shell_examples())


@pytest.fixture(scope="module")
def examples_folder(tmp_path_factory):
    """The seeds as `make docs` prepares them, plus the designer's own Word and PDF files that
    docs/corpus.md builds (written by the same helpers as the reader tests)."""
    from .documents import hell_dorado_docx, hell_dorado_pdf

    folder = docgen.prepare_workspace(tmp_path_factory.mktemp("examples"))
    (folder / "capacites.docx").write_bytes(hell_dorado_docx())
    (folder / "livre.pdf").write_bytes(hell_dorado_pdf())
    return folder


@pytest.mark.parametrize("command", [c for c in shell_examples() if c not in NEEDS_A_SERVER])
def test_a_shell_example_runs_as_written(examples_folder, tmp_path, command):
    folder = tmp_path / "copy"
    shutil.copytree(examples_folder, folder, symlinks=True)
    words = shlex.split(command)
    if words[0].endswith("/rulegraph"):
        command = shlex.join(["rulegraph", *words[1:]])
    code, output = docgen.run_example(command, folder)
    assert code == EXPECTED_EXIT.get(command, 0), f"{command}\n{output}"
    assert "Traceback" not in output


def test_python_examples_print_what_the_pages_show(examples_folder, tmp_path, monkeypatch):
    """Every ```pycon block runs as a doctest, the blocks of a page in one namespace, in a copy
    of the seeds' folder (so an example that writes, writes there)."""
    folder = tmp_path / "copy"
    shutil.copytree(examples_folder, folder, symlinks=True)
    monkeypatch.chdir(folder)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    namespaces: dict[str, dict] = {}
    examples = 0
    for page, line, body in fenced_blocks("pycon"):
        test = parser.get_doctest(body, {}, page, str(DOCS / page), line - 1)
        test.globs = namespaces.setdefault(page, {})  # get_doctest copies the namespace it is given
        examples += len(test.examples)
        runner.run(test, clear_globs=False)
    failed, attempted = runner.summarize(verbose=False)
    assert attempted == examples >= 10
    assert failed == 0, "a Python example of the documentation does not print what the page shows (see above)"


def test_the_figures_in_prose_are_those_of_the_generated_run():
    """The README's and the evaluation page's leave-one-out figures are the ones the generated
    `rulegraph evaluate --cross-validate` block printed, and the threshold the shipped model's
    (after retraining: `make docs`, then update the prose)."""
    page = (DOCS / "evaluation.md").read_text(encoding="utf-8")
    sets, links, precision, recall, typed = re.search(
        r"^leave-one-glossary-out: sets=(\d+) links=(\d+) precision=(\S+) recall=(\S+) typed=(\S+)$", page, re.M).groups()
    from rulegraph.extract.typer import shipped_model

    threshold = f"{shipped_model().threshold:.3f}"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"| leave one glossary out, {sets} sets, {links} links (not blind) | {precision} | {recall} | {typed} |" in readme
    text = prose(DOCS / "evaluation.md")
    assert f"{links} links" in text
    assert f"right {typed} of the time" in text and f"clears {threshold}" in text and f"only above {threshold}" in text


def test_the_readme_stays_short():
    """Issue 14: at most 12 KB; the rest belongs on the pages of docs/."""
    assert len((ROOT / "README.md").read_bytes()) <= 12 * 1024


def test_the_manifest_example_loads_beside_the_seeds(tmp_path):
    """docs/corpus.md's manifest, saved in a copy of data/, is a manifest rulegraph reads."""
    from rulegraph.corpus import load_corpus

    [(_page, _line, manifest)] = [block for block in fenced_blocks("toml") if block[0] == "corpus.md"]
    shutil.copytree(ROOT / "data", tmp_path / "data")
    (tmp_path / "data" / "example.toml").write_text(manifest, encoding="utf-8")
    corpus = load_corpus(tmp_path / "data" / "example.toml")
    assert [game.name for game in corpus.games.values()] == ["Hell Dorado"]
    assert {source.path.name for source in corpus.sources} == {docgen.HELL_DORADO}


def prose(page: Path) -> str:
    """A page without its cog-generated parts."""
    text = page.read_text(encoding="utf-8")
    return re.sub(r"\[\[\[cog.*?\[\[\[end\]\]\]", "", text, flags=re.S)


def test_every_command_is_in_the_cli_reference_and_explained_on_a_page():
    from rulegraph.commands import COMMANDS

    reference = (DOCS / "cli.md").read_text(encoding="utf-8")
    explained = "".join(prose(p) for p in PAGES if p.name not in GENERATED)
    for command in COMMANDS:
        name = command.__name__.rsplit(".", 1)[-1]
        assert f"## rulegraph {name}" in reference
        assert f"rulegraph {name}" in explained, f"no page but the CLI reference explains 'rulegraph {name}'"


def test_every_check_is_in_the_checks_table():
    from rulegraph.checks.registry import CHECKS

    rows = {line.split("|")[1].strip(): line for line in (DOCS / "checks.md").read_text(encoding="utf-8").splitlines()
            if line.startswith("| RG")}
    for check in CHECKS:
        assert check.code in rows, f"{check.code} is not in docs/checks.md"
        assert f"| {check.name} |" in rows[check.code]
        assert f"| {check.severity} |" in rows[check.code]
    assert set(rows) == {check.code for check in CHECKS}, "docs/checks.md lists a check that no longer exists"


def test_every_named_query_is_in_the_queries_table():
    from rulegraph.queries import available

    page = (DOCS / "queries.md").read_text(encoding="utf-8")
    table = page.split("| name | parameters | what it returns |", 1)[1].split("\n\n", 1)[0]
    rows = {re.match(r"\| `([a-z-]+)` \|", line).group(1): line for line in table.splitlines() if line.startswith("| `")}
    assert set(rows) == {query.name for query in available()}
    for query in available():
        row = rows[query.name]
        for parameter in query.parameters:
            assert f"`{parameter.name}`" in row, f"{query.name}: parameter {parameter.name} is not in its row"


def test_the_layout_names_every_module_of_the_package():
    layout = (DOCS / "project.md").read_text(encoding="utf-8").split("```\nsrc/rulegraph/\n", 1)[1].split("```", 1)[0]
    listed = set(re.findall(r"^  ([a-z_0-9]+(?:\.py|/))", layout, re.M))
    package = ROOT / "src" / "rulegraph"
    present = {p.name + "/" if p.is_dir() else p.name for p in package.iterdir()
               if (p.suffix == ".py" or p.is_dir()) and not p.name.startswith("__") and not p.name.endswith(".egg-info")}
    assert present - listed == set(), "add a line for each to the layout in docs/project.md"
    assert listed - present == set(), "the layout in docs/project.md names modules that are gone"


def test_every_relation_and_class_is_in_the_vocabulary_page():
    from rulegraph.namespaces import INTERACTIONS, KIND_CLASSES

    page = (DOCS / "vocabulary.md").read_text(encoding="utf-8")
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
    assert "WARNING" not in done.stderr
