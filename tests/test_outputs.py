"""The build's outputs are one unit: fault injection at every rename, a full disk, an unwritable
file, kill -9 and two builds at once each leave out/ exactly as it was or fully new."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rulegraph import outputs
from rulegraph.cli import main
from rulegraph.errors import RulegraphError
from rulegraph.outputs import OutputLock, publish

NAMES = ("graph.html", "graph.ttl", "report.html", "report.md")
#: Faults injected across this module; reported by the last test so the count is visible.
FAULTS: list[str] = []


class Killed(BaseException):
    """Stands for kill -9: nothing after it runs, not even ``except Exception`` blocks."""


def contents(tag: str) -> dict[str, bytes]:
    return {name: f"{tag} {name}\n".encode() * 200 for name in NAMES}


def shown(folder: Path) -> dict[str, bytes | None]:
    return {name: (folder / name).read_bytes() if (folder / name).is_file() else None for name in NAMES}


def assert_whole(folder: Path, *allowed: dict[str, bytes | None]) -> None:
    state = shown(folder)
    assert state in allowed, {name: (value or b"")[:12] for name, value in state.items()}


def old_layout(folder: Path) -> dict[str, bytes]:
    """Plain files, as builds before this module wrote them."""
    folder.mkdir()
    old = contents("old")
    for name, data in old.items():
        (folder / name).write_bytes(data)
    (folder / "edges.csv").write_bytes(b"an export, not a build output\n")
    return old


def managed_layout(folder: Path) -> dict[str, bytes]:
    publish(folder, contents("old"))
    (folder / "edges.csv").write_bytes(b"an export, not a build output\n")
    return contents("old")


def fail_on_call(monkeypatch, name: str, number: int, error: BaseException) -> list[int]:
    """Make ``os.<name>`` (as rulegraph.outputs calls it) raise on its ``number``-th call."""
    original = getattr(os, name)
    calls = [0]

    def faulty(*args, **kwargs):
        calls[0] += 1
        if calls[0] == number:
            raise error
        return original(*args, **kwargs)

    monkeypatch.setattr(outputs.os, name, faulty)
    return calls


@pytest.mark.parametrize("layout", [old_layout, managed_layout])
@pytest.mark.parametrize("step", ["replace", "symlink", "link", "fsync"])
def test_a_kill_at_every_step_leaves_out_as_it_was_or_fully_new(tmp_path, monkeypatch, layout, step):
    number = 1
    while True:
        folder = tmp_path / f"out-{number}"
        old = layout(folder)
        with monkeypatch.context() as patch:
            calls = fail_on_call(patch, step, number, Killed())
            try:
                publish(folder, contents("new"))
                finished = True
            except Killed:
                finished = False
                FAULTS.append(f"kill at {step} #{number}")
        assert_whole(folder, old, contents("new"))
        assert (folder / "edges.csv").read_bytes() == b"an export, not a build output\n"
        publish(folder, contents("next"))
        assert_whole(folder, contents("next"))
        assert len(list((folder / outputs.BUILDS).iterdir())) == 1, "leftovers of the killed build are removed"
        if finished:
            assert number > 1 or step == "link", f"os.{step} was never called"
            break
        assert calls[0] == number
        number += 1


@pytest.mark.parametrize("layout", [old_layout, managed_layout])
@pytest.mark.parametrize("error_number", [errno.ENOSPC, errno.EDQUOT, errno.EACCES])
def test_a_full_disk_or_refused_write_is_one_clear_error_and_out_is_unchanged(tmp_path, monkeypatch, layout, error_number):
    for number in (1, 2, 5):
        folder = tmp_path / f"out-{number}"
        old = layout(folder)
        with monkeypatch.context() as patch:
            fail_on_call(patch, "fsync", number, OSError(error_number, os.strerror(error_number)))
            with pytest.raises(RulegraphError) as raised:
                publish(folder, contents("new"))
        FAULTS.append(f"{errno.errorcode[error_number]} at fsync #{number}")
        assert "out/ was left as it was" in str(raised.value) and "\n" not in str(raised.value)
        assert_whole(folder, old)
        current = folder / ".current"
        shown_build = {os.path.basename(os.readlink(current))} if current.is_symlink() else set()
        assert {p.name for p in (folder / outputs.BUILDS).iterdir()} <= shown_build, "the failed build is removed"


def test_an_output_that_is_a_folder_refuses_before_anything_changes(tmp_path):
    folder = tmp_path / "out"
    old = managed_layout(folder)
    (folder / "report.md").unlink()
    (folder / "report.md").mkdir()
    before = sorted(p.name for p in folder.iterdir())
    with pytest.raises(RulegraphError, match="is a folder where the build writes a file"):
        publish(folder, contents("new"))
    FAULTS.append("report.md is a folder")
    assert sorted(p.name for p in folder.iterdir()) == before
    assert shown(folder)["graph.ttl"] == old["graph.ttl"]


def test_the_cli_build_with_an_unwritable_output_exits_2_and_keeps_the_previous_build(tmp_path, capsys):
    glossary = tmp_path / "g.md"
    glossary.write_text("### Garde\n\nElle protège.\n\n### Fouisseur\n\nIl creuse.\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["build", str(glossary), "--game", "Jeu", "--out", str(out)]) == 0
    first = shown(out)
    assert all(first.values())
    glossary.write_text("### Garde\n\nElle protège.\n", encoding="utf-8")
    (out / "report.md").unlink()
    (out / "report.md").mkdir()
    capsys.readouterr()
    assert main(["build", str(glossary), "--game", "Jeu", "--out", str(out)]) == 2
    FAULTS.append("cli: report.md is a folder")
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "report.md: is a folder" in error
    assert shown(out)["graph.ttl"] == first["graph.ttl"]


def test_a_second_build_waits_for_the_lock_then_refuses_clearly(tmp_path):
    folder = tmp_path / "out"
    old = managed_layout(folder)
    with OutputLock(folder):
        with pytest.raises(RulegraphError, match="another rulegraph build"):
            publish(folder, contents("new"), lock_wait=0.2)
    FAULTS.append("lock held by another build")
    assert_whole(folder, old)
    publish(folder, contents("new"))
    assert_whole(folder, contents("new"))


_WRITER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from rulegraph.outputs import publish
    names = ("graph.html", "graph.ttl", "report.html", "report.md")
    tag, rounds = sys.argv[2], int(sys.argv[3])
    for round in range(rounds):
        publish(Path(sys.argv[1]), {n: (f"{tag}{round} {n}\\n" * 50000).encode() for n in names})
""")


def _tag(folder: Path) -> set[str]:
    return {(folder / name).read_bytes().split(b" ", 1)[0].decode() for name in NAMES if (folder / name).is_file()}


def test_two_builds_at_once_never_mix_their_files(tmp_path):
    folder = tmp_path / "out"
    runs = [subprocess.Popen([sys.executable, "-c", _WRITER, str(folder), tag, "6"]) for tag in ("A", "B")]
    assert [run.wait(timeout=120) for run in runs] == [0, 0]
    assert _tag(folder) in ({"A5"}, {"B5"})


def test_two_cli_builds_at_once_both_finish_and_out_holds_one_of_them(tmp_path):
    first, second = tmp_path / "a.md", tmp_path / "b.md"
    first.write_text("### Garde\n\nElle protège.\n", encoding="utf-8")
    second.write_text("### Fouisseur\n\nIl creuse.\n\n### Garde\n\nElle protège.\n", encoding="utf-8")
    out = tmp_path / "out"
    runs = [subprocess.Popen([sys.executable, "-m", "rulegraph", "build", str(path), "--game", "Jeu", "--out", str(out)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for path in (first, second)]
    assert [run.wait(timeout=300) for run in runs] == [0, 0], [run.stderr.read() for run in runs]
    graph, report = (out / "graph.ttl").read_text(encoding="utf-8"), (out / "report.md").read_text(encoding="utf-8")
    from_second = "Fouisseur" in graph
    assert all(("Fouisseur" in (out / name).read_text(encoding="utf-8")) == from_second for name in ("graph.ttl", "graph.html"))
    assert report
    from rulegraph.store import open_store

    assert open_store(out / "graph.ttl") is not None, "the store left in out/ is not the one of graph.ttl"
    assert not list(out.glob(".graph.oxigraph.*")), "a staging or retired store was left behind"


def test_kill_9_during_a_build_leaves_a_whole_build(tmp_path):
    import random
    import time

    folder = tmp_path / "out"
    subprocess.run([sys.executable, "-c", _WRITER, str(folder), "old", "1"], check=True)
    randomness = random.Random(13)
    for attempt in range(6):
        before = _tag(folder)
        run = subprocess.Popen([sys.executable, "-c", _WRITER, str(folder), f"k{attempt}-", "3"])
        time.sleep(randomness.uniform(0.15, 0.6))
        run.kill()
        run.wait()
        FAULTS.append(f"kill -9 #{attempt}")
        after = _tag(folder)
        assert len(after) == 1, after
        assert after == before or next(iter(after)).startswith(f"k{attempt}-")


def test_zz_report_the_number_of_faults_injected(capsys):
    with capsys.disabled():
        print(f"\n[test_outputs] faults injected: {len(FAULTS)}")
    assert len(FAULTS) > 40
