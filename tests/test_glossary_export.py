"""The glossary given back with its links: order and text kept, every cross-reference of the
seeds a working link in HTML (checked in headless Chromium too), Markdown and Word (read back
with python-docx), notes and findings marked and removable, hostile text escaped."""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser

import pytest

from rulegraph.build import build
from rulegraph.cli import main
from rulegraph.glossary_export import (
    LINKED_KINDS,
    LINKED_RELATIONS,
    anchor_for,
    bookmark_name,
    export_glossary,
    glossary,
    link_targets,
    links,
    render_docx,
    render_html,
    render_markdown,
)
from rulegraph.namespaces import RG
from rulegraph.views.networkx_view import to_networkx

from .conftest import DATA, FIXTURES
from .test_atlas import REMOTE, needs_chromium, run_chromium, status

HOSTILE = FIXTURES / "hostile_glossary.md"


@pytest.fixture(scope="module")
def games(seed_graph):
    return glossary(seed_graph)


def _items(games):
    return {item.anchor: item for game in games for section in game.sections for item in section.items}


def _text_links(games) -> set[tuple[str, str]]:
    return {(item.anchor, run.anchor) for item in _items(games).values() for block in item.blocks
            for paragraph in block.paragraphs for run in paragraph if run.anchor}


def cross_references(graph) -> set[tuple[str, str]]:
    """(anchor of the entry whose text states the edge, anchor of the term it names), for every
    edge between an ability and an ability, state or action."""
    view = to_networkx(graph)
    found = set()
    texts = {}
    for node in view.nodes:
        editions = [str(graph.value(t, RG.text) or "") for t in graph.objects(graph.resource(node).identifier, RG.hasEditionText)]
        texts[node] = [view.nodes[node]["text"], *editions]
    for subject, obj, data in view.edges(data=True):
        if data["relation"] not in LINKED_RELATIONS or subject == obj:
            continue
        if view.nodes[subject]["kind"] not in LINKED_KINDS or view.nodes[obj]["kind"] not in LINKED_KINDS:
            continue
        for owner, other in ((subject, obj), (obj, subject)):
            if view.nodes[owner]["kind"] == "ability" and any(data["sentence"] in text for text in texts[owner] if text):
                found.add((_anchor(view, owner), _anchor(view, other)))
    return found


def _anchor(view, node):
    return anchor_for(view.nodes[node]["game"], view.nodes[node]["kind"], view.nodes[node]["label"])


def test_every_cross_reference_of_the_seeds_is_a_link_in_its_entry(seed_graph, games):
    expected = cross_references(seed_graph)
    assert len(expected) > 100
    assert expected - _text_links(games) == set()


def test_the_seeds_gold_facts_are_links(games):
    text_links = _text_links(games)
    assert ("hell-dorado--fouisseur", "hell-dorado--attaque-d-opportunite") in text_links
    for target in ("insaisissable", "fouisseur", "intangible"):
        assert ("hell-dorado--interception", f"hell-dorado--{target}") in text_links
    assert ("hell-dorado--illumine", "hell-dorado--fanatique") in text_links
    assert ("hell-dorado--frappe-rapide", "hell-dorado--riposte-rapide") in text_links


def test_every_link_has_a_target(games):
    targets = link_targets(games)
    assert all(target in targets for _, _, target in links(games))


def test_entries_keep_their_order_and_their_text(seed_graph, games):
    hell_dorado = games[0]
    assert hell_dorado.name == "Hell Dorado"
    entries = [item for section in hell_dorado.sections for item in section.items if item.kind in ("character", "weapon")]
    lines = [int(item.where.rsplit(":", 1)[1]) for item in entries]
    assert lines == sorted(lines) and len(entries) == 87
    fouisseur = _items(games)["hell-dorado--fouisseur"]
    text = "\n".join("".join(run.text for run in paragraph) for paragraph in fouisseur.blocks[0].paragraphs)
    [term] = [n for n in seed_graph.subjects(RG.heading, None) if str(seed_graph.value(n, RG.heading)) == "Fouisseur"]
    assert text == str(seed_graph.value(term, RG.text))
    assert hell_dorado.general_rules[0].startswith("Vous trouverez dans ce chapitre")


def test_cited_by_and_interactions_under_each_entry(games):
    aoo = _items(games)["hell-dorado--attaque-d-opportunite"]
    assert {"Fouisseur", "Insaisissable", "Interception", "Téléportation", "Volant"} <= {label for label, _ in aoo.cited_by}
    rows = {(row["caption"], row["other"]) for row in aoo.interactions}
    assert ("is cancelled by", "Fouisseur") in rows
    fouisseur_row = next(row for row in aoo.interactions if row["other"] == "Fouisseur")
    assert fouisseur_row["where"] == "000_10d76c9141a2b7c0.txt:103"


def test_compendium_entry_comes_back_edition_by_edition(games):
    toxique = _items(games)["confrontation--toxique"]
    assert [block.title for block in toxique.blocks][:3] == ["Rooted", "Confédé", "Confrontation 3.5"]
    assert not toxique.blocks[2].present and toxique.blocks[0].paragraphs


def test_notes_and_findings_are_marked_and_clean_removes_them(french, seed_graph):
    page = export_glossary(seed_graph, "html")
    assert 'class="designer-note">Note du concepteur : « à simplifier ? »' in page
    assert 'class="finding">Constat ouvert : RG004 identical-text' in page
    clean = export_glossary(seed_graph, "html", clean=True)
    assert "designer-note\">" not in clean and "class=\"finding\">" not in clean and "à simplifier" not in clean


def test_the_words_around_the_glossary_are_in_the_users_language(seed_graph):
    page = export_glossary(seed_graph, "md", game="Hell Dorado")
    assert "> **Designer's note**: “à simplifier ?” (line 27), about: “Un combattant" in page
    assert "> **Open finding**: RG004 identical-text (info) (" in page and "have exactly the same text" in page
    assert "**Cited by**: [" in page and "**Interactions**:" in page and "## General rules" in page
    assert "## Character abilities" in page and "_“" in page


def test_html_is_one_offline_escaped_file():
    hostile = build(files=[HOSTILE], game="Piège", format="markdown").graph
    page = render_html(glossary(hostile))
    assert not REMOTE.findall(page) and "<script" not in page.lower().replace("&lt;script", "")
    assert "&lt;script&gt;document.title=&#x27;pwned&#x27;&lt;/script&gt;" in page
    assert "<img" not in page
    assert "default-src 'none'" in page and "@media print" in page


class _Anchors(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.hrefs = set(), []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href", "").startswith("#"):
            self.hrefs.append(attrs["href"][1:])


def test_html_links_resolve(seed_graph, games):
    parser = _Anchors()
    parser.feed(render_html(games))
    assert len(parser.hrefs) >= len(links(games)) and set(parser.hrefs) <= parser.ids


def test_markdown_links_resolve(games):
    page = render_markdown(games)
    targets = set(re.findall(r'<a id="([^"]+)"></a>', page))
    hrefs = re.findall(r"\]\(#([^)]+)\)", page)
    assert len(hrefs) == len(links(games)) and set(hrefs) <= targets
    assert "[attaque d’opportunité](#hell-dorado--attaque-d-opportunite)" in page


def test_docx_read_back_has_headings_bookmarks_and_internal_links(games):
    from docx import Document
    from docx.oxml.ns import qn

    document = Document(io.BytesIO(render_docx(games)))
    headings = [(p.style.name, p.text) for p in document.paragraphs if p.style.name.startswith("Heading")]
    assert ("Heading 1", "Hell Dorado") in headings and ("Heading 3", "Fouisseur") in headings
    assert ("Heading 2", "Character abilities") in headings
    bookmarks = {b.get(qn("w:name")) for b in document.element.body.iter(qn("w:bookmarkStart"))}
    assert all(len(name) <= 40 and re.fullmatch(r"[A-Za-z]\w*", name) for name in bookmarks)
    hyperlinks = [(h.text, h.fragment) for p in document.paragraphs for h in p.hyperlinks]
    assert len(hyperlinks) == len(links(games))
    assert {fragment for _, fragment in hyperlinks} <= bookmarks
    start = next(i for i, p in enumerate(document.paragraphs) if p.text == "Fouisseur" and p.style.name == "Heading 3")
    entry_links = {(h.text, h.fragment) for p in document.paragraphs[start + 1:start + 4] for h in p.hyperlinks}
    assert ("attaque d’opportunité", bookmark_name("hell-dorado--attaque-d-opportunite")) in entry_links


def test_cli_export_glossary_each_format(tmp_path, capsys):
    for fmt in ("html", "md", "docx"):
        out = tmp_path / f"g.{fmt}"
        assert main(["export", "glossary", "--format", fmt, "--game", "epic", "--manifest", str(DATA / "corpus.toml"), "--out", str(out)]) == 0
        assert out.stat().st_size > 1000
    assert "# Epic" in (tmp_path / "g.md").read_text(encoding="utf-8")
    assert "Hell Dorado" not in (tmp_path / "g.md").read_text(encoding="utf-8")


def test_cli_export_glossary_unknown_format_exits_2(tmp_path, capsys):
    assert main(["export", "glossary", "--format", "pdf", "--out", str(tmp_path / "g.pdf")]) == 2
    assert "html, md or docx" in capsys.readouterr().err
    assert not (tmp_path / "g.pdf").exists()


# --- headless Chromium ---------------------------------------------------------------------------

#: A test-only script appended to a copy of the page (whose own policy forbids scripts): it
#: checks that every internal link has its target, then follows one and reads :target.
_HARNESS = """<script>
const links = [...document.querySelectorAll('a[href^="#"]')];
const broken = links.filter(a => !document.getElementById(decodeURIComponent(a.getAttribute("href").slice(1))));
const status = document.createElement("div");
status.id = "status";
status.dataset.links = String(links.length);
status.dataset.broken = String(broken.length);
status.dataset.brokenFirst = broken.slice(0, 5).map(a => a.getAttribute("href")).join(" ");
const probe = links.find(a => a.closest("#hell-dorado--fouisseur") && a.getAttribute("href") === "#hell-dorado--attaque-d-opportunite");
probe.click();
status.dataset.target = (document.querySelector(":target") || {}).id || "";
document.body.append(status);
</script>"""


@needs_chromium
def test_chromium_follows_every_link_of_the_seed_glossary(seed_graph, games, tmp_path):
    page = render_html(games)
    harness = page.replace("default-src 'none'; style-src 'unsafe-inline'", "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'")
    path = tmp_path / "glossary.html"
    path.write_text(harness.replace("</body>", _HARNESS + "</body>"), encoding="utf-8")
    shown = status(run_chromium(path, tmp_path / "profile", "--dump-dom"))
    assert shown["broken"] == "0", shown.get("broken-first")
    assert int(shown["links"]) >= len(links(games))
    assert shown["target"] == "hell-dorado--attaque-d-opportunite"


@needs_chromium
def test_chromium_renders_the_glossary_without_a_network_request(seed_graph, games, tmp_path):
    from .test_atlas import page_requests

    path = tmp_path / "glossary.html"
    path.write_text(render_html(games), encoding="utf-8")
    net_log = tmp_path / "net-log.json"
    dom = run_chromium(path, tmp_path / "profile", f"--log-net-log={net_log}", "--dump-dom")
    assert 'id="hell-dorado--fouisseur"' in dom
    assert [url for url in page_requests(net_log) if not url.startswith(("file:", "data:"))] == []


def test_markdown_escapes_hostile_text():
    hostile = build(files=[HOSTILE], game="Piège", format="markdown").graph
    page = render_markdown(glossary(hostile))
    assert re.findall(r"(?<!\\)<(?!a id=\"|/a>)", page) == []
    assert "\\<script\\>document.title" in page
