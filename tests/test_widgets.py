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
from rulegraph.vocabulary import relation_label, relation_phrase

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
    assert set(relations.value) == {r for *_, r in seed_view.edges(data="relation")}
    assert [label for label, _ in relations.options] == [relation_label(r, "en") for r in relations.value]


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
    assert "Outgoing relations" in panel and "Incoming relations" in panel


def test_ability_panel_shows_designer_notes(seed_view):
    noted = next(d for _, d in seed_view.nodes(data=True) if d["notes"])
    panel = ability_html(seed_view, noted["label"])
    assert html.escape(noted["notes"][0]) in panel


def test_ability_panel_relation_filter_drops_other_edges(seed_view):
    only = ability_html(seed_view, "Interception", relations=["negates"])
    assert relation_phrase("negates", "en") in only and relation_phrase("references", "en") not in only


def test_ability_panel_escapes_hostile_text(hostile_graph):
    panel = ability_html(hostile_graph, "Piège <blink>gras</blink>")
    assert "<script>" not in panel and "<img" not in panel and "<blink>gras" not in panel
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
    from rulegraph.render.tables import html_table

    page = html_table([{"texte": "<script>x</script>", "long": "a" * 300}], limit=10)
    assert "&lt;script&gt;" in page and "<script>" not in page
    assert "aaaaaaaaaa…" in page and "a" * 11 not in page
    assert html_table([]) == "<p><em>Aucune ligne.</em></p>"
    assert html_table([], empty="Rien n'est accordé.") == "<p><em>Rien n&#x27;est accordé.</em></p>"


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


# --- the review panel: answers appended to the curation file ------------------------------------

EXISTING_CURATION = """# Curation des Forges: une entrée écrite à la main, qui doit rester telle quelle.

[[add]]
game = "forges"
subject = "Soufflet"
relation = "references"
object = "Enclume"
reason = "le soufflet sert l’enclume"
sentence = "Le porteur attise le feu de la forge."
"""


@pytest.fixture
def forges_panel(tmp_path):
    """A review panel over the Forges fixture's typer-like edges (two unsure, one sure), with a
    curation file that already holds an entry."""
    from rulegraph.build import BuildResult
    from rulegraph.graph import build_graph
    from rulegraph.views.review_panel import ReviewPanel

    from .test_checks import UNSURE_EDGES, typed_statements

    corpus, statements = typed_statements(UNSURE_EDGES)
    (tmp_path / "curation.toml").write_text(EXISTING_CURATION, encoding="utf-8")
    return ReviewPanel(tmp_path / "corpus.toml", BuildResult(corpus, statements, build_graph(corpus, statements)))


def appended(path: Path) -> list[dict]:
    """The entries after the existing ones, which must be byte-identical."""
    import tomllib

    data = path.read_bytes()
    assert data.startswith(EXISTING_CURATION.encode("utf-8"))
    added = tomllib.loads(data[len(EXISTING_CURATION.encode("utf-8")):].decode("utf-8"))
    return [dict(entry, action=action) for action, entries in added.items() for entry in entries]


def test_review_panel_lists_the_unsure_edges_escaped_least_sure_first(french, forges_panel):
    assert [label for label, _ in forges_panel.choice.options] == [
        f"{forges_panel.pending[0].id} · 0,28 · Braise nécessite Tenaille ?",
        f"{forges_panel.pending[1].id} · 0,41 · Enclume annule Marteau ?",
    ]
    detail = forges_panel.detail.value
    assert "« Le porteur nécessite la présence de Braise" in detail and "relations.md:" in detail
    assert "typer (cue=requires, &lt;b&gt;gras&lt;/b&gt;)" in detail and "<b>gras" not in detail
    assert forges_panel.relation.value == "requires"
    assert ("negates (annule les effets de)", "negates") in forges_panel.relation.options


@pytest.mark.parametrize(("press", "expected"), [
    ("accept", {"action": "retype", "subject": "Braise", "was": "references", "relation": "requires", "object": "Tenaille"}),
    ("retype", {"action": "retype", "subject": "Tenaille", "was": "references", "relation": "excludes", "object": "Braise",
                "reason": "incompatibles, pas requis"}),
    ("remove", {"action": "remove", "subject": "Tenaille", "relation": "references", "object": "Braise", "reason": "simple mention"}),
])
def test_each_button_appends_exactly_one_entry_and_keeps_the_existing_ones(french, forges_panel, tmp_path, press, expected):
    curation = tmp_path / "curation.toml"
    if press == "retype":
        forges_panel.relation.value = "excludes"
    if "reason" in expected:
        forges_panel.reason.value = expected["reason"]
    getattr(forges_panel, press).click()
    (entry,) = appended(curation)
    assert {key: entry[key] for key in expected} == expected and entry["game"] == "forges"
    assert "Ajouté à" in forges_panel.message.value
    assert [item.statement.subject.label for item in forges_panel.pending] == ["Enclume"]
    assert forges_panel.reason.value == ""


def test_remove_without_a_reason_writes_nothing(french, forges_panel, tmp_path):
    forges_panel.remove.click()
    assert (tmp_path / "curation.toml").read_text(encoding="utf-8") == EXISTING_CURATION
    assert "Raison" in forges_panel.message.value and len(forges_panel.pending) == 2


def test_answering_every_edge_empties_the_list_and_disables_the_buttons(french, forges_panel, tmp_path):
    forges_panel.accept.click()
    forges_panel.accept.click()
    assert len(appended(tmp_path / "curation.toml")) == 2
    assert forges_panel.pending == [] and forges_panel.accept.disabled and forges_panel.remove.disabled
    assert "Rien à vérifier" in forges_panel.detail.value


def test_an_answer_in_the_panel_is_applied_by_the_next_build(tmp_path):
    import shutil

    from rulegraph.views.review_panel import review_panel

    manifest = shutil.copytree(Path(__file__).resolve().parent / "gold" / "tranchees", tmp_path / "tranchees") / "corpus.toml"
    panel = review_panel(manifest, below=1.0)
    item = panel.current
    panel.relation.value = "references"
    panel.reason.value = "une simple mention"
    panel.retype.click()
    ends = {item.statement.subject.label, item.statement.object.label}
    rebuilt = build(manifest)
    curated = [s for s in rebuilt.statements if s.method == "curated"]
    assert [({s.subject.label, s.object.label}, s.relation, s.reason) for s in curated] == [(ends, "references", "une simple mention")]
    assert item.id not in {other.id for other in review_panel(manifest, result=rebuilt, below=1.0).pending}


def test_a_condition_is_shown_as_written_without_a_doubled_si(french):
    from rulegraph.views.widgets import _condition_text

    assert _condition_text("Si un lémure est au contact") == "Si un lémure est au contact"
    assert _condition_text("le porteur est blessé") == "si le porteur est blessé"


def test_the_explorer_says_a_filter_hides_the_chosen_ability(french, seed_graph):
    from rulegraph.views.widgets import explorer

    box = explorer(seed_graph, "Interception")
    games = box.children[1].children[0]
    games.value = ("Epic",)
    message = box.children[2].value
    assert "masquée par les filtres" in message and "Interception" in message
    assert "did you mean" not in message


def test_widgets_built_in_english_show_english_labels(forges_panel, seed_graph):
    from rulegraph.views.widgets import explorer

    first = forges_panel.pending[0]
    assert (forges_panel.accept.description, forges_panel.retype.description, forges_panel.remove.description) == (
        "Accept", "Retype", "Remove")
    assert forges_panel.reason.description == "Reason" and "required to Remove" in forges_panel.reason.placeholder
    assert ("negates", "negates") in forges_panel.relation.options and forges_panel.relation.description == "Relation"
    assert forges_panel.heading.value.startswith("<b>To review: 2 edges</b> (least sure first)")
    assert forges_panel.choice.options[0][0] == f"{first.id} · 0.28 · Braise {relation_phrase('requires', 'en')} Tenaille?"
    assert "confidence 0.28" in forges_panel.detail.value and f"review ID {first.id}" in forges_panel.detail.value
    forges_panel.remove.click()
    assert "Nothing was written:" in forges_panel.message.value and "“Reason”" in forges_panel.message.value
    box = explorer(seed_graph, "Interception")
    search, depth = box.children[0].children
    assert (search.description, search.placeholder, depth.description) == ("Ability", "Ability…", "Depth")
    assert [w.description for w in box.children[1].children] == ["Games", "Categories", "Relations"]
    assert "Outgoing relations (" in box.children[3].value and "Incoming relations (" in box.children[3].value
    box.children[1].children[0].value = ("Epic",)
    assert "is hidden by the filters (game, category)" in box.children[2].value
