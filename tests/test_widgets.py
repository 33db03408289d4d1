"""Notebook widgets: completion over ability names, filters, the ability panel (escaped, with
mentions highlighted), the neighbourhood view, and the explorer that ties them together."""

from __future__ import annotations

import html
import subprocess
import sys
from pathlib import Path

import pytest

from rulegraph.build import build
from rulegraph.views.networkx_view import to_networkx
from rulegraph.views.widgets import (
    ability_html,
    ability_labels,
    explorer,
    game_filter,
    highlight_mentions,
    neighbourhood_view,
    relation_filter,
    search_box,
)

HOSTILE = Path(__file__).resolve().parent / "fixtures" / "hostile_glossary.md"


@pytest.fixture(scope="module")
def seed_view(seed_graph):
    return to_networkx(seed_graph)


@pytest.fixture(scope="module")
def hostile_graph():
    return build(files=[HOSTILE], game="Piège", format="markdown").graph


def test_importing_rulegraph_pulls_in_neither_ipywidgets_nor_pyvis():
    code = (
        "import sys, rulegraph, rulegraph.build, rulegraph.cli, rulegraph.exports, rulegraph.views.networkx_view, rulegraph.views.atlas\n"
        "print(sorted(m for m in ('ipywidgets', 'pyvis', 'IPython') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_search_box_completes_ability_names_only(seed_view):
    box = search_box(seed_view)
    abilities = {d["label"] for _, d in seed_view.nodes(data=True) if d["kind"] in ("ability", "undefined")}
    states = {d["label"] for _, d in seed_view.nodes(data=True) if d["kind"] == "state"} - abilities
    assert set(box.options) == abilities
    assert not states & set(box.options)


def test_ability_labels_of_one_game(seed_view):
    epic = ability_labels(seed_view, ["Epic"])
    assert epic and all(any(d["label"] == label and d["game"] == "Epic" for _, d in seed_view.nodes(data=True)) for label in epic)


def test_filters_offer_the_games_and_relations_present(seed_view):
    assert set(game_filter(seed_view).options) == {g for _, g in seed_view.nodes(data="game")}
    relations = relation_filter(seed_view)
    assert set(relations.options) == {r for *_, r in seed_view.edges(data="relation")}
    assert relations.value == relations.options


def test_mentions_are_highlighted_whatever_their_form():
    text = "Annule l’attaque d'opportunité et les effets d’insaisissables."
    marked = highlight_mentions(text, ["Attaque d’opportunité", "Insaisissable"])
    assert "<mark title=\"Attaque d’opportunité\">attaque d&#x27;opportunité</mark>" in marked
    assert ">insaisissables</mark>" in marked


def test_ability_panel_shows_text_edges_evidence_and_notes(seed_view):
    panel = ability_html(seed_view, "interception")
    assert "<h3" in panel and "Interception" in panel
    assert "000_10d76c9141a2b7c0.txt:158" in panel
    assert "<mark" in panel
    assert "Relations sortantes" in panel and "Relations entrantes" in panel


def test_ability_panel_shows_designer_notes(seed_view):
    noted = next(d for _, d in seed_view.nodes(data=True) if d["notes"])
    panel = ability_html(seed_view, noted["label"])
    assert html.escape(noted["notes"][0]) in panel


def test_ability_panel_relation_filter_drops_other_edges(seed_view):
    only = ability_html(seed_view, "Interception", relations=["negates"])
    assert "neutralise" in only and "mentionne" not in only


def test_ability_panel_escapes_hostile_text(hostile_graph):
    panel = ability_html(hostile_graph, "Piège <b>gras</b>")
    assert "<script>" not in panel and "<img" not in panel and "<b>gras" not in panel
    assert "&lt;script&gt;document.title=&#x27;pwned&#x27;&lt;/script&gt;" in panel
    assert "&lt;script&gt;document.title=&#x27;pwned-note&#x27;" in panel
    assert ">Fouisseur</mark>" in panel


def test_neighbourhood_view_is_an_escaped_sandboxed_atlas(hostile_graph):
    value = neighbourhood_view(hostile_graph, "Fouisseur", depth=1).value
    assert value.startswith('<iframe sandbox="allow-scripts" srcdoc="')
    srcdoc = value.split('srcdoc="', 1)[1].split('" style=', 1)[0]
    assert "<" not in srcdoc and '"' not in srcdoc
    page = html.unescape(srcdoc)
    assert page.startswith("<!DOCTYPE html>") and "const DATA = " in page


def test_explorer_follows_the_search_box_and_reports_unknown_names(seed_graph):
    box = explorer(seed_graph, "Fouisseur")
    search = box.children[0].children[0]
    message, panel, picture = box.children[2:5]
    assert "Fouisseur" in panel.value and "<iframe" in picture.value
    search.value = "Interception"
    assert ">Interception</h3>" in panel.value
    search.value = "Interceptoin"
    assert "Interception" in message.value and ">Interception</h3>" in panel.value


def test_explorer_game_filter_restricts_completion(seed_graph):
    box = explorer(seed_graph, "Fouisseur")
    search = box.children[0].children[0]
    games = box.children[1].children[0]
    games.value = ("Epic",)
    assert "Fouisseur" not in search.options and search.options


def test_html_table_escapes_cells_and_cuts_long_ones():
    from rulegraph.views.tables import html_table

    page = html_table([{"texte": "<script>x</script>", "long": "a" * 300}], limit=10)
    assert "&lt;script&gt;" in page and "<script>" not in page
    assert "aaaaaaaaaa…" in page and "a" * 11 not in page
    assert html_table([]) == "<p><em>(no results)</em></p>"


def test_category_filter_keeps_the_abilities_of_a_glossary_category(seed_graph):
    from rulegraph.views.widgets import category_filter, filtered_view

    chooser = category_filter(seed_graph)
    assert {"Capacités des Personnages", "Capacités des armes"} <= set(chooser.options)
    weapons = filtered_view(seed_graph, categories=["capacités des armes"])
    labels = {d["label"] for _, d in weapons.nodes(data=True) if d["kind"] == "ability" and d["game"] == "Hell Dorado"}
    assert "Lourde" in labels and "Fouisseur" not in labels
    box = explorer(seed_graph, "Lourde")
    search, categories = box.children[0].children[0], box.children[1].children[1]
    categories.value = ("Capacités des armes",)
    assert "Lourde" in search.options and "Fouisseur" not in search.options
