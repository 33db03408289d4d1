"""The HTML atlas: self-contained and offline, data escaped, focused views; and, when Debian's
chromium is installed, the page rendered headless with the network off."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from rulegraph.build import build
from rulegraph.cli import main
from rulegraph.errors import RulegraphError
from rulegraph.namespaces import INTERACTIONS, RELATIONS
from rulegraph.views.atlas import HIDDEN_KINDS, KIND_COLOURS, RELATION_COLOURS, atlas_data, match_nodes, neighbourhood, render_atlas
from rulegraph.views.networkx_view import to_networkx
from rulegraph.vocabulary import kind_label, relation_label, relation_phrase

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
HOSTILE = FIXTURES / "hostile_glossary.md"
REMOTE = re.compile(r"""(?:\bsrc|\bhref|\baction|\bposter|\bdata)\s*=\s*["']?\s*(?:https?:)?//|url\(\s*["']?\s*(?:https?:)?//|@import""", re.IGNORECASE)


@pytest.fixture(scope="module")
def seed_page(seed_graph):
    return render_atlas(seed_graph)


@pytest.fixture(scope="module")
def hostile_graph():
    return build(files=[HOSTILE], game="Piège", format="markdown").graph


def test_every_relation_of_the_vocabulary_has_a_colour_and_caption():
    assert set(RELATION_COLOURS) == set(RELATIONS)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_legend_captions_are_the_ontology_labels_in_the_users_language(seed_graph, monkeypatch, lang):
    monkeypatch.setenv("LANGUAGE", lang)
    data = atlas_data(to_networkx(seed_graph))
    assert [(r["name"], r["caption"], r["phrase"]) for r in data["relations"]] == [
        (name, relation_label(name, lang), relation_phrase(name, lang)) for name in RELATION_COLOURS]
    assert [(k["name"], k["caption"]) for k in data["kinds"]] == [(kind, kind_label(kind, lang)) for kind in KIND_COLOURS]
    assert data["weaponCaption"] == kind_label("weapon", lang)


def test_page_loads_no_remote_resource(seed_page):
    assert not REMOTE.findall(seed_page)
    assert "<link" not in seed_page
    assert not re.search(r"<script[^>]*\bsrc\s*=", seed_page)


def test_page_forbids_network_access_in_its_content_security_policy(seed_page):
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', seed_page).group(1)
    assert "default-src 'none'" in policy and "connect-src" not in policy


def test_page_inlines_the_vis_network_script_from_pyvis(seed_page):
    from importlib import resources

    script = resources.files("pyvis").joinpath("templates", "lib", "vis-9.1.2", "vis-network.min.js").read_text(encoding="utf-8")
    assert script[:2000] in seed_page


def drawn_edges(view) -> Counter:
    """The edges the atlas draws, by relation: one per relation, pair and run of editions."""
    keys = {(u, v, d["relation"], d.get("suggested")) if d.get("edition") else (u, v, id(d)) for u, v, d in view.edges(data=True)}
    return Counter(key[2] if len(key) == 4 else view.edges[key[0], key[1], next(
        k for k, d in view.get_edge_data(key[0], key[1]).items() if id(d) == key[2])]["relation"] for key in keys)


def test_page_data_has_every_node_and_edge_of_the_graph(seed_graph):
    view = to_networkx(seed_graph)
    data = atlas_data(view)
    assert len(data["nodes"]) == view.number_of_nodes()
    assert len(data["edges"]) == sum(drawn_edges(view).values())
    assert Counter(e["relation"] for e in data["edgeInfo"]) == drawn_edges(view)


def test_one_edge_stands_for_the_same_relation_in_several_editions(seed_graph):
    data = atlas_data(to_networkx(seed_graph))
    labels = [info["label"] for info in data["nodeInfo"]]
    toxique = labels.index("Toxique")
    construct = [e for e, info in zip(data["edges"], data["edgeInfo"])
                 if {e["from"], e["to"]} == {toxique, labels.index("Construct")} and info["relation"] == "immuneTo"]
    assert len(construct) == 1
    merged = data["edgeInfo"][data["edges"].index(construct[0])]
    assert merged["editions"] == ["Confédé", "Confrontation 3", "Rooted"]


def test_nodes_are_coloured_by_kind_and_shaped_by_game(seed_graph):
    data = atlas_data(to_networkx(seed_graph))
    colour_of_kind = {k["name"]: k["colour"] for k in data["kinds"]}
    shapes_by_game = {}
    for node, info in zip(data["nodes"], data["nodeInfo"]):
        assert node["color"]["background"] == colour_of_kind[info["kind"]]
        shapes_by_game.setdefault(info["game"], set()).add(node["shape"])
    assert all(len(shapes) == 1 for shapes in shapes_by_game.values())
    assert len({next(iter(s)) for s in shapes_by_game.values()}) == len(shapes_by_game)


def test_edges_carry_their_evidence_and_confrontation_edges_their_edition(seed_graph):
    data = atlas_data(to_networkx(seed_graph))
    assert all(e["sentence"] and re.fullmatch(r".+:\d+", e["where"]) for e in data["edgeInfo"])
    assert data["editions"], "the Confrontation compendium's edges should carry editions"
    listed = {e["edition"] for e in data["edgeInfo"] if e["edition"]} | {n for e in data["edgeInfo"] for n in e.get("editions", ())}
    assert listed == set(data["editions"])


def test_editions_are_listed_in_lineage_order(seed_graph, seed_corpus):
    data = atlas_data(to_networkx(seed_graph), edition_ranks={name: i for game in seed_corpus.games.values() for i, name in enumerate(game.lineage)})
    lineage = [name for game in seed_corpus.games.values() for name in game.lineage]
    assert data["editions"] == sorted(data["editions"], key=lineage.index)


def test_hostile_rule_text_is_escaped_in_the_page(hostile_graph):
    page = render_atlas(hostile_graph)
    data_script = page.split("const DATA = ", 1)[1].split("\n", 1)[0]
    assert "<" not in data_script and ">" not in data_script
    assert "\\u003cscript\\u003edocument.title='pwned'\\u003c/script\\u003e" in data_script
    assert "<img src=x" not in page
    assert "<title>rulegraph atlas</title>" in page


def test_title_is_escaped(hostile_graph):
    page = render_atlas(hostile_graph, title="<script>alert(1)</script>")
    assert "<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>" in page


def test_focus_name_matches_whatever_the_case_accents_and_apostrophes(seed_graph):
    view = to_networkx(seed_graph)
    assert match_nodes(view, "ATTAQUE D'OPPORTUNITE") == match_nodes(view, "Attaque d’opportunité")


def test_focus_keeps_the_neighbourhood_within_the_depth(seed_graph):
    view = to_networkx(seed_graph)
    [centre] = match_nodes(view, "Interception")
    one = neighbourhood(view, "interception", 1)
    expected = {centre} | set(view.successors(centre)) | set(view.predecessors(centre))
    assert set(one.nodes) == expected
    two = neighbourhood(view, "interception", 2)
    assert set(one.nodes) < set(two.nodes) < set(view.nodes)


def test_unknown_focus_suggests_close_names(seed_graph):
    with pytest.raises(RulegraphError, match="Interception"):
        render_atlas(seed_graph, focus="Interceptoin")


def test_export_html_with_unknown_focus_exits_with_code_2(tmp_path, capsys):
    code = main(["export", "html", "--manifest", str(ROOT / "data" / "corpus.toml"), "--focus", "Interceptoin", "--out", str(tmp_path / "x.html")])
    assert code == 2
    assert "Interception" in capsys.readouterr().err
    assert not (tmp_path / "x.html").exists()


def test_focused_page_names_its_centre_and_holds_only_the_neighbourhood(seed_graph):
    page = render_atlas(seed_graph, focus="Interception", depth=1)
    view = to_networkx(seed_graph)
    data = atlas_data(neighbourhood(view, "Interception", 1))
    assert "Interception (depth 1)" in page
    assert page.count('"uri": ') == len(data["nodes"])


# --- headless Chromium, network off ------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it: apt-get install -y chromium)")


def run_chromium(page: Path, profile: Path, *extra: str, fragment: str = "") -> str:
    """The DOM after the page had ten seconds of virtual time, with every network access failing."""
    command = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        f"--user-data-dir={profile}", "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
        "--virtual-time-budget=10000", *extra, page.as_uri() + fragment,
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def status(dom: str) -> dict[str, str]:
    tag = re.search(r'<div id="status"[^>]*>', dom)
    assert tag, "the page did not write its status element"
    return {k: html.unescape(v) for k, v in re.findall(r'data-([\w-]+)="([^"]*)"', tag.group())}


@pytest.fixture(scope="module")
def rendered_seed_page(tmp_path_factory):
    out = tmp_path_factory.mktemp("atlas")
    assert main(["build", "--manifest", str(ROOT / "data" / "corpus.toml"), "--out", str(out)]) == 0
    return out / "graph.html"


@needs_chromium
def test_chromium_renders_every_node_of_the_graph(rendered_seed_page, seed_graph, tmp_path):
    view = to_networkx(seed_graph)
    shown = status(run_chromium(rendered_seed_page, tmp_path / "profile", "--dump-dom", fragment="#kind=all"))
    assert shown["stabilised"] == "1"
    assert int(shown["nodes"]) == view.number_of_nodes()
    assert int(shown["nodes-visible"]) == int(shown["nodes-positioned"]) == view.number_of_nodes()
    assert int(shown["edges-visible"]) == sum(drawn_edges(view).values())
    assert int(shown["drawn"]) >= 1


def page_requests(net_log: Path) -> list[str]:
    """URLs the page itself asked for, from Chromium's net log: the browser's own background
    requests (update checks…) have no file:// isolation key and are left out."""
    import json

    log = json.loads(net_log.read_text(encoding="utf-8"))
    start_job = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    return [
        event["params"]["url"] for event in log["events"]
        if event["type"] == start_job and event.get("params", {}).get("network_isolation_key", "").startswith("file://")
    ]


@needs_chromium
def test_chromium_page_makes_no_network_request(rendered_seed_page, tmp_path):
    net_log = tmp_path / "net-log.json"
    run_chromium(rendered_seed_page, tmp_path / "profile", f"--log-net-log={net_log}", "--dump-dom", fragment="#kind=all")
    assert [url for url in page_requests(net_log) if not url.startswith(("file:", "data:"))] == []


@needs_chromium
def test_chromium_net_log_does_see_a_page_request(tmp_path):
    page = tmp_path / "remote.html"
    page.write_text('<!DOCTYPE html><img src="https://example.org/x.png">', encoding="utf-8")
    net_log = tmp_path / "net-log.json"
    run_chromium(page, tmp_path / "profile", f"--log-net-log={net_log}", "--dump-dom")
    assert "https://example.org/x.png" in page_requests(net_log)


@needs_chromium
def test_chromium_relation_filter_hides_the_other_edges(rendered_seed_page, seed_graph, tmp_path):
    view = to_networkx(seed_graph)
    grants = sum(1 for *_, relation in view.edges(data="relation") if relation == "grants")
    shown = status(run_chromium(rendered_seed_page, tmp_path / "profile", "--dump-dom", fragment="#kind=all&relation=grants"))
    assert int(shown["edges-visible"]) == grants < view.number_of_edges()
    assert int(shown["nodes-visible"]) == view.number_of_nodes()


@needs_chromium
def test_chromium_edition_filter_hides_the_other_editions_edges(rendered_seed_page, seed_graph, tmp_path):
    view = to_networkx(seed_graph)
    editions = Counter(edition for *_, edition in view.edges(data="edition") if edition)
    edition, _ = editions.most_common(1)[0]
    expected = view.number_of_edges() - sum(n for name, n in editions.items() if name != edition)
    shown = status(run_chromium(rendered_seed_page, tmp_path / "profile", "--dump-dom", fragment=f"#kind=all&edition={edition}"))
    assert int(shown["edges-visible"]) == expected


@needs_chromium
def test_chromium_category_filter_keeps_the_abilities_of_that_category(rendered_seed_page, seed_graph, tmp_path):
    from urllib.parse import quote

    view = to_networkx(seed_graph)
    groups = Counter(group for _, group in view.nodes(data="glossary_category"))
    expected = view.number_of_nodes() - sum(n for group, n in groups.items() if group and group != "Capacités des armes")
    fragment = "#kind=all&category=" + quote("capacités des armes")
    shown = status(run_chromium(rendered_seed_page, tmp_path / "profile", "--dump-dom", fragment=fragment))
    assert int(shown["nodes-visible"]) == expected < view.number_of_nodes()
    assert groups["Capacités des armes"] == 9


@needs_chromium
def test_chromium_hidden_kinds_start_hidden_and_can_be_shown(rendered_seed_page, seed_graph, tmp_path):
    view = to_networkx(seed_graph)
    concepts = sum(1 for _, kind in view.nodes(data="kind") if kind == "concept")
    shown = status(run_chromium(rendered_seed_page, tmp_path / "profile", "--dump-dom"))
    assert int(shown["nodes-visible"]) == view.number_of_nodes() - concepts


PAGE_WORDS = {
    "en": ('<html lang="en">', ">Show all</button>", 'placeholder="Name of an ability, a state…"', ">Kinds of nodes</h2>",
           "Outgoing relations (", "nodes,", "edges shown"),
    "fr": ('<html lang="fr">', ">Tout afficher</button>", 'placeholder="Nom d\'une capacité, d\'un état…"', ">Types de nœuds</h2>",
           "Relations sortantes (", "nœuds,", "arêtes affichés"),
}


@needs_chromium
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_chromium_shows_the_pages_own_words_in_the_users_language(seed_graph, tmp_path, monkeypatch, lang):
    monkeypatch.setenv("LANGUAGE", lang)
    page = tmp_path / "atlas.html"
    page.write_text(render_atlas(seed_graph), encoding="utf-8")
    dom = re.sub(r"<script>.*?</script>", "", run_chromium(page, tmp_path / "profile", "--dump-dom", fragment="#select=Interception"),
                 flags=re.S)  # what the page shows, not the words its data carries
    for words in PAGE_WORDS[lang]:
        assert words in dom
    other = PAGE_WORDS["fr" if lang == "en" else "en"]
    assert not any(words in dom for words in other[1:])
    legend = dom.split('<div id="relations">', 1)[1].split("</div>", 1)[0]
    assert ("<span>negates</span>" if lang == "en" else f"<span>negates ({relation_label('negates', lang)})</span>") in legend
    assert (">mutuallyCancels (mutually cancels)<" if lang == "en" else ">mutuallyCancels (s'annulent mutuellement)<") in legend


@needs_chromium
def test_chromium_hostile_rule_text_is_shown_and_never_run(hostile_graph, tmp_path):
    page = tmp_path / "hostile.html"
    page.write_text(render_atlas(hostile_graph), encoding="utf-8")
    dom = run_chromium(page, tmp_path / "profile", "--dump-dom", fragment="#select=" + "Piège <blink>gras</blink>".replace(" ", "%20"))
    shown = status(dom)
    assert shown["document-title"] == "rulegraph atlas"
    assert re.search(r"<title>(.*?)</title>", dom).group(1) == "rulegraph atlas"
    details = dom.split('<aside id="details">', 1)[1].split("</aside>", 1)[0]
    assert "&lt;script&gt;document.title='pwned'&lt;/script&gt;" in details
    assert "&lt;img src=x onerror" in details
    assert "<img" not in details and "<blink>" not in details


@needs_chromium
def test_chromium_screenshot_of_the_seed_atlas(rendered_seed_page, tmp_path):
    """The screenshot goes to the test's temporary folder, or where RULEGRAPH_SCREENSHOTS says
    (to look at it): tests write nothing in the work tree."""
    import os

    folder = Path(os.environ["RULEGRAPH_SCREENSHOTS"]) if os.environ.get("RULEGRAPH_SCREENSHOTS") else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "atlas.png"
    run_chromium(rendered_seed_page, tmp_path / "profile", f"--screenshot={target}", "--window-size=1600,1000", fragment="#select=Interception")
    assert target.stat().st_size > 20_000


def test_focus_name_is_matched_as_the_extractor_matches_names(seed_graph):
    from rulegraph.views.atlas import match_nodes
    from rulegraph.views.networkx_view import to_networkx

    view = to_networkx(seed_graph)
    assert match_nodes(view, "Fouisseurs") == match_nodes(view, "fouisseur")


# --- edges to review ("à vérifier") -------------------------------------------------------------


@pytest.fixture(scope="module")
def review_graph():
    """The Forges fixture with typer-like edges: two unsure (one suggested the other way round),
    one surely typed; the rule texts hold markup, which must stay text."""
    from rulegraph.graph import build_graph

    from .test_checks import UNSURE_EDGES, typed_statements

    corpus, statements = typed_statements(UNSURE_EDGES)
    return build_graph(corpus, statements), statements


def test_unsure_edges_carry_the_suggestion_confidence_rule_and_review_id(review_graph):
    from rulegraph.review import review_items

    graph, statements = review_graph
    data = atlas_data(to_networkx(graph))
    drawn = {(data["nodeInfo"][e["from"]]["label"], data["nodeInfo"][e["to"]]["label"]): (e, info)
             for e, info in zip(data["edges"], data["edgeInfo"]) if info["relation"] in INTERACTIONS}
    ids = {item.statement.subject.label: item.id for item in review_items(statements)}
    edge, info = drawn[("Enclume", "Marteau")]
    assert info["unsure"] and info["relation"] == "references" and info["suggested"] == "cancels"
    assert (info["suggestedFrom"], info["suggestedTo"], info["review"]) == ("Enclume", "Marteau", ids["Enclume"])
    assert edge["label"] == "cancels ?" and edge["dashes"] and edge["color"] == RELATION_COLOURS["cancels"]
    assert info["confidence"] == 0.41 and info["rule"] == "typer (cue=cancels, <b>gras</b>)"
    edge, info = drawn[("Tenaille", "Braise")]
    assert (info["suggestedFrom"], info["suggestedTo"], edge["arrows"]) == ("Braise", "Tenaille", "from")
    edge, info = drawn[("Marteau", "Étincelle")]
    assert "unsure" not in info and info["confidence"] == 0.93 and edge["label"] == "grants" and not edge["dashes"]


@needs_chromium
def test_chromium_lists_an_unsure_edge_as_to_review_with_its_confidence_and_rule(review_graph, tmp_path, french):
    page = tmp_path / "review.html"
    page.write_text(render_atlas(review_graph[0]), encoding="utf-8")
    dom = run_chromium(page, tmp_path / "profile", "--dump-dom", fragment="#select=Enclume")
    details = dom.split('<aside id="details">', 1)[1].split("</aside>", 1)[0]
    assert "à vérifier : « Enclume » annule « Marteau » ? (ID de revue " in details
    assert "confiance 0,41 · règle : typer (cue=cancels, &lt;b&gt;gras&lt;/b&gt;)" in details
    assert "<b>" not in details
    controls = dom.split('<aside id="controls">', 1)[1].split("</aside>", 1)[0]
    assert re.search(r"à vérifier \(relation suggérée\)</span><span class=\"count\">2</span>", controls)
    shown = status(dom)
    assert shown["unsure"] == shown["unsure-visible"] == "2"
    edges = int(shown["edges-visible"])
    hidden = status(run_chromium(page, tmp_path / "profile", "--dump-dom", fragment="#unsure=hide"))
    assert (hidden["unsure-visible"], int(hidden["edges-visible"])) == ("0", edges - 2)
    alone = status(run_chromium(page, tmp_path / "profile", "--dump-dom", fragment="#unsure=only"))
    assert (alone["unsure-visible"], alone["edges-visible"]) == ("2", "2")


@needs_chromium
def test_chromium_first_view_has_readable_labels_and_no_node_on_a_foreign_edge(rendered_seed_page, tmp_path):
    import os

    shot = (Path(os.environ["RULEGRAPH_SCREENSHOTS"]) if os.environ.get("RULEGRAPH_SCREENSHOTS") else tmp_path) / "atlas-first-view.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    shown = status(run_chromium(rendered_seed_page, tmp_path / "profile", "--dump-dom", "--window-size=1600,1000"))
    assert shown["stabilised"] == "1"
    assert float(shown["label-px"]) >= 12, "node labels must be readable at the default size"
    assert shown["node-on-edge"] == "0", "no node may sit on an edge it is not part of"
    assert shown["label-overlaps"] == "0", "no node label may be drawn over another"
    run_chromium(rendered_seed_page, tmp_path / "profile2", f"--screenshot={shot}", "--window-size=1600,1000")
    assert shot.stat().st_size > 20_000


@needs_chromium
def test_chromium_showing_every_kind_keeps_nodes_off_foreign_edges(rendered_seed_page, tmp_path):
    shown = status(run_chromium(rendered_seed_page, tmp_path / "profile", "--dump-dom", "--window-size=1600,1000", fragment="#kind=all"))
    assert shown["nodes-visible"] == shown["nodes"]
    assert shown["node-on-edge"] == "0"
    # With every notion shown some labels still touch (the seeds' 30 notions are hubs); few of them.
    assert int(shown["label-overlaps"]) <= 10


def test_a_focused_page_brings_no_node_linked_to_the_focus_only_through_a_hidden_notion(seed_graph):
    view = to_networkx(seed_graph)
    around = neighbourhood(view, "Interception", 2)
    shown = around.subgraph([n for n, kind in around.nodes(data="kind") if kind not in HIDDEN_KINDS])
    assert shown.number_of_nodes() > 5
    assert not [n for n in shown if shown.degree(n) == 0], "every shown node is linked to something shown"


@needs_chromium
def test_chromium_a_name_with_one_typing_slip_still_finds_its_node(rendered_seed_page, tmp_path):
    dom = run_chromium(rendered_seed_page, tmp_path / "profile", "--dump-dom", fragment="#select=Fouiseur")
    details = dom.split('<aside id="details">', 1)[1].split("</aside>", 1)[0]
    assert "<h3>Fouisseur</h3>" in details


def page_data(page: str) -> dict:
    import json

    return json.loads(re.search(r"const DATA = (\{.*?\});\n", page, re.S).group(1))


@pytest.fixture(scope="module")
def overview_page(seed_graph):
    """The seeds as if they were a large catalogue: an overview of their 20 most connected abilities."""
    return render_atlas(seed_graph, overview_nodes=50, overview_abilities=20)


def test_a_large_graph_opens_on_its_most_connected_abilities(seed_graph, overview_page):
    from rulegraph.views.overview import interaction_degree

    view = to_networkx(seed_graph)
    data = page_data(overview_page)
    drawn = {info["uri"] for info in data["nodeInfo"]}
    assert len(drawn) == 20 and {data["nodeInfo"][0]["kind"]} <= {"ability", "undefined"}
    degree = interaction_degree(view)
    weakest_drawn = min(degree[node] for node in drawn)
    left_out = [n for n, kind in view.nodes(data="kind") if kind in ("ability", "undefined") and n not in drawn]
    assert all(degree[node] <= weakest_drawn for node in left_out)
    assert "nodeInfo" in page_data(render_atlas(seed_graph))  # the seeds themselves stay whole
    assert "overview" not in page_data(render_atlas(seed_graph))


def test_the_overview_catalogue_holds_every_ability_and_every_interaction_between_two(seed_graph, overview_page):
    view = to_networkx(seed_graph)
    overview = page_data(overview_page)["overview"]
    abilities = [n for n, kind in view.nodes(data="kind") if kind in ("ability", "undefined")]
    assert len(overview["catalogue"]) == len(abilities) == overview["total"]["abilities"]
    named = {(row[0], RELATIONS[rel], overview["catalogue"][b][0])
             for a, b, rel in overview["links"] for row in [overview["catalogue"][a]]}
    expected = {(view.nodes[s]["label"], r, view.nodes[t]["label"]) for s, t, r in view.edges(data="relation")
                if r in INTERACTIONS and s != t}
    assert named == expected
    assert ("Illuminé", "grants", "Fanatique") in named


@needs_chromium
def test_chromium_overview_loads_a_neighbourhood_on_demand(overview_page, tmp_path):
    page = tmp_path / "overview.html"
    page.write_text(overview_page, encoding="utf-8")
    first = status(run_chromium(page, tmp_path / "profile", "--dump-dom"))
    assert first["overview"] == str(len(page_data(overview_page)["overview"]["catalogue"]))
    assert first["nodes-visible"] == "20" and "loaded" not in first
    dom = run_chromium(page, tmp_path / "profile2", "--dump-dom", fragment="#focus=Illumin%C3%A9")
    loaded = status(dom)
    assert loaded["loaded"] == "1" and int(loaded["nodes-visible"]) > 20
    details = re.search(r'<aside id="details">(.*?)</aside>', dom, re.S).group(1)
    assert "Illuminé" in details and "Fanatique" in details and "--focus" in details
