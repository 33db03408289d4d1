"""The complexity score: its parts on a small invented glossary, the weights file, the seeds'
ranking, and where it shows (report, atlas)."""

from __future__ import annotations

import json

import pytest

from rulegraph.cli import main
from rulegraph.complexity import PARTS, complexity, condition_clauses, load_weights, scores_by_node
from rulegraph.errors import RulegraphError
from rulegraph.text import tokenize
from rulegraph.views.atlas import atlas_data, render_atlas
from rulegraph.views.networkx_view import to_networkx

from .conftest import DATA
from .test_atlas import needs_chromium, run_chromium, status

GLOSSARY = """## Alpha X
Cette capacité confère Bêta au porteur. Si le porteur est seul, il gagne un bonus de +X. Cette capacité annule Gamma.

## Bêta
Cette capacité nécessite Delta. Lorsque le porteur charge, il relance ses dés.

## Gamma
Le porteur frappe deux fois. Ainsi, il est aussi plus rapide.

## Delta
Le porteur ne peut pas fuir.
"""


def _parts(item):
    return {part["part"]: part for part in item["parts"]}


@pytest.fixture
def invented(build_markdown):
    return {item["ability"]: item for item in complexity(build_markdown(GLOSSARY).graph)}


def test_each_part_counts_what_the_text_says(invented):
    alpha = _parts(invented["Alpha"])
    assert alpha["ability"]["items"] == ["Bêta (grants)", "Delta (requires via Bêta)", "Gamma (cancels)"]
    assert alpha["condition"]["items"] == ["Si le porteur est seul"]
    assert alpha["parameter"]["items"] == ["X"]
    assert alpha["exception"]["items"] == ["Alpha cancels Gamma"]
    assert alpha["words"]["count"] == len(tokenize(GLOSSARY.split("\n")[1]))
    assert invented["Alpha"]["score"] == pytest.approx(sum(p["count"] * p["weight"] for p in alpha.values()), abs=0.01)


def test_an_exception_counts_for_both_ends_and_ainsi_is_no_condition(invented):
    gamma = _parts(invented["Gamma"])
    assert gamma["exception"]["items"] == ["Alpha cancels Gamma"]
    assert gamma["condition"]["count"] == 0


def test_ranking_is_heaviest_first(invented):
    ranked = sorted(invented.values(), key=lambda item: item["rank"])
    assert [item["ability"] for item in ranked] == ["Alpha", "Bêta", "Gamma", "Delta"]


def test_condition_clauses_are_not_counted_twice_when_nested():
    openers = load_weights().openers
    text = "Sauf s'il a un moyen de conserver sa zone lorsqu'il est engagé. Si, pendant son déplacement, il engage un adversaire, il s'arrête."
    assert condition_clauses(text, openers) == ["Sauf s'il a un moyen de conserver sa zone lorsqu'il est engagé",
                                                "Si, pendant son déplacement, il engage un adversaire"]


def test_shipped_weights_name_every_part():
    weights = load_weights()
    assert set(weights.values) == set(PARTS)
    assert weights.openers


def test_a_designers_weights_file_changes_the_score(build_markdown, tmp_path):
    only_words = tmp_path / "weights.toml"
    only_words.write_text("[weights]\n" + "".join(f"{p} = {1 if p == 'words' else 0}\n" for p in PARTS), encoding="utf-8")
    scored = complexity(build_markdown(GLOSSARY).graph, weights=load_weights(only_words))
    assert all(item["score"] == _parts(item)["words"]["count"] for item in scored)


@pytest.mark.parametrize("text, message", [
    ("[weights]\nability = 1\n", "lacks"),
    ("[weights]\n" + "".join(f"{p} = 1\n" for p in PARTS) + "colour = 2\n", "unknown key 'colour'"),
    ("[weights]\n" + "".join(f"{p} = {chr(34)}un{chr(34)}\n" if p == "state" else f"{p} = 1\n" for p in PARTS), "state must be a number"),
])
def test_a_broken_weights_file_names_its_line(tmp_path, text, message):
    path = tmp_path / "weights.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulegraphError, match=message) as caught:
        load_weights(path)
    assert caught.value.path == str(path) and caught.value.line


def test_hell_dorado_top_ten_is_explained(seed_graph):
    top = complexity(seed_graph, game="Hell Dorado")[:10]
    assert [item["ability"] for item in top[:2]] == ["Interception", "Attraction"]
    assert all(a["score"] >= b["score"] for a, b in zip(top, top[1:]))
    interception = _parts(top[0])
    assert {"Fouisseur (negates)", "Insaisissable (negates)", "Intangible (negates)"} <= set(interception["ability"]["items"])
    assert interception["exception"]["count"] == 3
    assert all(clause.startswith(("Si ", "S’il")) for clause in interception["condition"]["items"])
    attraction = _parts(top[1])
    assert {"Arpenteur (grants)", "Insaisissable (grants)"} <= set(attraction["ability"]["items"])


def test_cli_complexity_top_json(capsys):
    assert main(["complexity", "--game", "hell dorado", "--top", "10", "--manifest", str(DATA / "corpus.toml"), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert len(result["abilities"]) == 10 and result["weights"]["exception"] == 1.5
    assert result["abilities"][0]["ability"] == "Interception"


def test_cli_complexity_text_shows_the_breakdown(capsys):
    assert main(["complexity", "--top", "3", "--game", "Hell Dorado", "--manifest", str(DATA / "corpus.toml")]) == 0
    out = capsys.readouterr().out
    assert "1. Interception (Hell Dorado)" in out and "exception 3×1.5 = 4.5" in out


def test_cli_complexity_bad_top_exits_2(capsys):
    assert main(["complexity", "--top", "0"]) == 2


def test_the_report_shows_the_heaviest_abilities(french, seed_graph):
    from rulegraph.render.report import report_pages

    pages = report_pages(seed_graph)
    assert "## Complexité" in pages["report.md"] and "| 1 | Interception |" in pages["report.md"]
    assert 'id="complexite"' in pages["report.html"]


def test_the_atlas_carries_each_abilitys_score(seed_graph):
    view = to_networkx(seed_graph)
    scores = scores_by_node(seed_graph, view)
    data = atlas_data(view, complexity=scores)
    info = {n["label"]: n for n in data["nodeInfo"] if n["game"] == 0 and n["kind"] == "ability"}
    assert info["Interception"]["complexity"] == complexity(seed_graph, game="Hell Dorado")[0]["score"]
    assert "exception 3×1.5" in info["Interception"]["complexityDetail"]
    assert 'name="size" value="complexity"' in render_atlas(seed_graph)


@needs_chromium
def test_chromium_sizes_the_atlas_by_complexity(seed_graph, tmp_path):
    page = tmp_path / "atlas.html"
    page.write_text(render_atlas(seed_graph), encoding="utf-8")
    by_links = status(run_chromium(page, tmp_path / "profile", "--dump-dom", fragment="#kind=all"))
    by_score = status(run_chromium(page, tmp_path / "profile2", "--dump-dom", fragment="#kind=all&size=complexity"))
    assert (by_links["size"], by_score["size"]) == ("links", "complexity")
    scored = complexity(seed_graph)
    heaviest = {item["ability"] for item in scored if item["score"] == scored[0]["score"]}
    assert by_score["largest"] in heaviest
    assert by_links["largest"] not in heaviest or by_links["largest"] == by_score["largest"]
