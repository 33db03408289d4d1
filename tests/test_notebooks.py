"""Every notebook runs top to bottom, headless, as a reader would run it from notebooks/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))


def test_there_are_notebooks_to_run():
    assert PATHS, f"no notebook in {NOTEBOOKS}"


def _execute(path: Path):
    """Run a notebook with a fresh kernel. A kernel that never answers (seen once in a while on a
    busy machine, whatever the notebook) gets one more try with a new kernel; an error raised by a
    cell is not retried."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    for attempt in (1, 2):
        notebook = nbformat.read(path, as_version=4)
        client = NotebookClient(notebook, timeout=120, startup_timeout=60, kernel_name="python3",
                                resources={"metadata": {"path": str(NOTEBOOKS)}})
        try:
            client.execute()
            return notebook
        except (CellTimeoutError, DeadKernelError, TimeoutError, RuntimeError):
            if attempt == 2:
                raise


@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
def test_notebook_runs_without_error(path):
    notebook = _execute(path)
    errors = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs if output.output_type == "error"]
    assert not errors, f"{path.name}: {errors[0]['ename']}: {errors[0]['evalue']}"


@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
def test_notebook_is_committed_without_outputs(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    dirty = [i for i, cell in enumerate(cells) if cell["cell_type"] == "code" and (cell["outputs"] or cell["execution_count"] is not None)]
    assert not dirty, f"{path.name}: cells {dirty} have outputs; clear them before committing"
