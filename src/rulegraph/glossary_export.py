"""The glossary given back to its designer, with its links: HTML, Markdown or Word.

Each game's glossary comes back in its own order (source file, then line) and with its own text
(the general rules first, each entry under its own heading; a compendium's entry edition by
edition). Added to it: every mention of another ability, state or action that the graph holds
an edge for is a link to that term's entry (mentions are found in the sentence the edge was read
from, the way the extractor finds names); under each entry, "Cité par" (the abilities whose text
names it) and "Interactions" (its typed edges, each with its sentence and file:line); and,
marked so that ``clean=True`` leaves them out, the designer's notes and the open findings of the
consistency checks. States, actions and undefined abilities get entries of their own at the end,
so every link has a target.

The HTML is one offline file (no script, a Content-Security-Policy that forbids every fetch, a
print stylesheet) with every text escaped; the Word file is written by python-docx with heading
styles, a bookmark per entry and internal hyperlinks to them.
"""

from __future__ import annotations

import io
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

import networkx as nx
from rdflib import RDF, RDFS, Graph, URIRef
from rdflib.term import Node

from .catalogue import RuleGraph, find_game, line_of, local_name, source_of
from .checks.finding import severity_label
from .defaults import DEFAULT_OUT, GLOSSARY_FORMATS
from .errors import RulegraphError
from .extract.lexicon import Lexicon
from .i18n import N_, _, labelled, language, quoted
from .namespaces import INTERACTIONS, RG
from .text import fold, slug
from .vocabulary import kind_label, relation_phrase

FORMATS = GLOSSARY_FORMATS
#: Kinds of term a mention links to; characteristics and notions are too common to link.
LINKED_KINDS = ("ability", "undefined", "state", "action")
#: Relations whose sentence names the other term (characteristics and notions are left out).
LINKED_RELATIONS = (*INTERACTIONS, "involvesState", "appliesTo")
TYPED = tuple(r for r in INTERACTIONS if r != "references")
#: Findings the entry already shows in another form: the designer notes themselves.
NOTE_CHECKS = frozenset({"designer-note"})
#: Words around the glossary's own text (section titles, "Cité par"…) are in the user's language;
#: section titles and the interactions' phrases are the ontology's (rulegraph.vocabulary).
DESIGNER_NOTE = N_("Designer's note")
OPEN_FINDING = N_("Open finding")
CITED_BY = N_("Cited by")
INTERACTIONS_TITLE = N_("Interactions")
GENERAL_RULES = N_("General rules")


@dataclass(frozen=True, slots=True)
class Run:
    """A piece of a paragraph: plain text, or a link to an entry's anchor."""

    text: str
    anchor: str | None = None


@dataclass(slots=True)
class Block:
    """The rule text of an entry, or of one edition of it, as paragraphs of runs."""

    title: str | None
    paragraphs: list[list[Run]]
    present: bool = True


@dataclass(slots=True)
class Item:
    """One entry of the given-back glossary."""

    anchor: str
    label: str
    heading: str
    kind: str
    where: str
    blocks: list[Block] = field(default_factory=list)
    cited_by: list[tuple[str, str]] = field(default_factory=list)
    interactions: list[dict[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Section:
    title: str
    items: list[Item]


@dataclass(slots=True)
class GameGlossary:
    name: str
    anchor: str
    general_rules: list[str]
    sections: list[Section]


def anchor_for(game: str, kind: str, label: str) -> str:
    """An entry's id: letters, digits and dashes only (a Word bookmark name is built from it)."""
    prefix = "" if kind in ("ability", "undefined") else f"{kind}--"
    return f"{slug(game)}--{prefix}{slug(label)}"


# --- reading the graph -----------------------------------------------------------------------


def glossary(graph: Graph, *, game: str | None = None, clean: bool = False, findings: Iterable | None = None) -> list[GameGlossary]:
    """The glossaries of the graph (or of one game) as entries with links, ready to render."""

    view = RuleGraph(graph).networkx()
    game_id = find_game(graph, game) if game else None
    if findings is None and not clean:
        from .checks import run_checks

        findings = run_checks(graph, games=[game_id] if game_id else None)
    by_subject: dict[tuple[str, str], list[str]] = defaultdict(list)
    for finding in findings or []:
        if finding.check in NOTE_CHECKS:
            continue
        where = f" ({finding.source}:{finding.line})" if finding.source and finding.line else ""
        by_subject[(finding.game, fold(finding.subject))].append(labelled(f"{finding.code} {finding.check} ({severity_label(finding.severity)}){where}", finding.message))
    anchors = {node: anchor_for(data["game"] or "", data["kind"], data["label"]) for node, data in view.nodes(data=True)}
    result = []
    for game_node in _games_in_source_order(graph):
        current = local_name(game_node)
        if game_id is not None and current != game_id:
            continue
        name = str(graph.value(game_node, RDFS.label) or current)
        rules = sorted(graph.objects(game_node, RG.hasGeneralRule), key=lambda r: (str(graph.value(graph.value(r, RG.source), RG.path)), line_of(graph, r) or 0))
        sections: list[Section] = []
        game_terms = _game_lexicon(view, name)
        for node, category in _entries_in_order(graph, game_node):
            item = _entry_item(graph, view, str(node), anchors, category, game_terms)
            if not clean:
                item.notes = [_note_text(graph, note) for note in sorted(graph.objects(node, RG.hasNote), key=lambda n: line_of(graph, n) or 0)]
                item.findings = by_subject.get((name, fold(item.label)), [])
            title = kind_label(category, plural=True)
            if not sections or sections[-1].title != title:
                sections.append(Section(title, []))
            sections[-1].items.append(item)
        for kind in ("undefined", "state", "action"):
            terms = sorted((n for n, d in view.nodes(data=True) if d["kind"] == kind and d["game"] == name and view.degree(n)),
                           key=lambda n: fold(view.nodes[n]["label"]))
            if terms:
                sections.append(Section(kind_label(kind, plural=True), [_term_item(view, node, anchors) for node in terms]))
        result.append(GameGlossary(name, f"{slug(name)}--glossaire", [str(graph.value(r, RG.text) or "") for r in rules], sections))
    if not result:
        if game:
            raise RulegraphError(_("no glossary to export: the graph holds no game named {game!r}").format(game=game))
        raise RulegraphError(_("no glossary to export: the graph holds no game"))
    return result


def _games_in_source_order(graph: Graph) -> list[URIRef]:
    order: dict[Node | None, int] = {}
    for source in sorted(graph.subjects(RDF.type, RG.Source), key=lambda s: str(graph.value(s, RG.path))):
        order.setdefault(graph.value(source, RG.game), len(order))
    games = [game for game in graph.subjects(RDF.type, RG.Game) if isinstance(game, URIRef)]
    return sorted(games, key=lambda g: (order.get(g, len(order)), str(graph.value(g, RDFS.label))))


def _entries_in_order(graph: Graph, game_node: URIRef) -> list[tuple[URIRef, str]]:
    entries = []
    for rdf_type, category in ((RG.CharacterAbility, "character"), (RG.WeaponAbility, "weapon")):
        for node in graph.subjects(RDF.type, rdf_type):
            if isinstance(node, URIRef) and graph.value(node, RG.game) == game_node:
                entries.append((source_of(graph, node), line_of(graph, node) or 0, node, category))
    return [(node, category) for _, _, node, category in sorted(entries, key=lambda e: (e[0], e[1], str(e[2])))]


def _note_text(graph: Graph, note: Node) -> str:
    text, questioned = str(graph.value(note, RG.text) or ""), str(graph.value(note, RG.questions) or "")
    return _("“{text}” (line {line}), about: “{questioned}”").format(text=text, line=graph.value(note, RG.line), questioned=questioned)


def _edges_of(view: nx.MultiDiGraph, node: str) -> list[tuple[str, str, str, dict]]:
    """(subject, object, other end, data) for every edge touching the node."""
    found = [(node, other, other, data) for _, other, data in view.out_edges(node, data=True)]
    found += [(other, node, other, data) for other, _, data in view.in_edges(node, data=True) if other != node]
    return found


def _entry_item(graph: Graph, view: nx.MultiDiGraph, node: str, anchors: dict[str, str], category: str,
                game_terms: tuple[Lexicon, dict[tuple[str, str], str]]) -> Item:
    data = view.nodes[node]
    uri = URIRef(node)
    source = str(graph.value(graph.value(uri, RG.source), RG.path) or "")
    item = Item(anchors[node], data["label"], str(graph.value(uri, RG.heading) or data["label"]), category,
                 f"{source}:{graph.value(uri, RG.line)}")
    links = [(other, edge) for _, _, other, edge in _edges_of(view, node)
             if other != node and edge["relation"] in LINKED_RELATIONS and view.nodes[other]["kind"] in LINKED_KINDS]
    editions = sorted(graph.objects(uri, RG.hasEditionText), key=lambda e: line_of(graph, e) or 0)
    if editions:
        for text_node in editions:
            edition = str(graph.value(graph.value(text_node, RG.edition), RDFS.label) or "")
            present = str(graph.value(text_node, RG.present)).lower() == "true"
            text = str(graph.value(text_node, RG.text) or "")
            mine = [(other, edge) for other, edge in links if edge["edition"] in (None, edition)]
            item.blocks.append(Block(edition, _linked_paragraphs(view, text, mine, anchors, game_terms) if present else [], present))
    else:
        item.blocks.append(Block(None, _linked_paragraphs(view, data["text"], links, anchors, game_terms)))
    citing: dict[str, str] = {}
    for subject, obj, _other, edge in _edges_of(view, node):
        if obj == node and subject != node and edge["relation"] in INTERACTIONS and view.nodes[subject]["kind"] in ("ability",):
            citing.setdefault(view.nodes[subject]["label"], anchors[subject])
    item.cited_by = sorted(citing.items(), key=lambda c: fold(c[0]))
    item.interactions = _interactions(view, node, anchors)
    return item


def _term_item(view: nx.MultiDiGraph, node: str, anchors: dict[str, str]) -> Item:
    data = view.nodes[node]
    item = Item(anchors[node], data["label"], data["label"], data["kind"], "")
    citing = {view.nodes[other]["label"]: anchors[other] for _, _, other, _ in _edges_of(view, node)
              if other != node and view.nodes[other]["kind"] == "ability"}
    item.cited_by = sorted(citing.items(), key=lambda c: fold(c[0]))
    item.interactions = _interactions(view, node, anchors)
    return item


def _interactions(view: nx.MultiDiGraph, node: str, anchors: dict[str, str]) -> list[dict[str, str]]:
    rows = []
    seen = set()
    for subject, _obj, other, edge in _edges_of(view, node):
        if edge["relation"] not in TYPED or other == node:
            continue
        outgoing = subject == node
        key = (other, edge["relation"], outgoing, edge["sentence"])
        if key in seen:
            continue
        seen.add(key)
        rows.append({
            "relation": edge["relation"],
            "caption": relation_phrase(edge["relation"], inverse=not outgoing),
            "other": view.nodes[other]["label"],
            "anchor": anchors[other],
            "evidence": edge["sentence"],
            "where": f"{edge['source']}:{edge['line']}" + (f", {edge['edition']}" if edge["edition"] else ""),
        })
    return sorted(rows, key=lambda r: (INTERACTIONS.index(r["relation"]), fold(r["other"]), r["where"]))


def _game_lexicon(view: nx.MultiDiGraph, game: str) -> tuple[Lexicon, dict[tuple[str, str], str]]:
    """A lexicon of the game's linkable terms, so the longest name wins ("Charge tumultueuse"
    before the action "charge"), and the node each (kind, label) stands for."""
    lexicon, index = Lexicon(game), {}
    terms = sorted(((d["kind"], d["label"], n) for n, d in view.nodes(data=True) if d["game"] == game and d["kind"] in LINKED_KINDS),
                   key=lambda t: (LINKED_KINDS.index(t[0]), t[1]))
    for kind, label, node in terms:
        lexicon_kind = "ability" if kind == "undefined" else kind
        if (lexicon_kind, label) not in index:
            index[(lexicon_kind, label)] = node
            lexicon.add(lexicon_kind, label)
    return lexicon, index


def _linked_paragraphs(view: nx.MultiDiGraph, text: str, links: list[tuple[str, dict]], anchors: dict[str, str],
                       game_terms: tuple[Lexicon, dict[tuple[str, str], str]]) -> list[list[Run]]:
    """The text cut into paragraphs of runs. Every mention of a term the entry has an edge with
    becomes a link to it; an edge whose term the game's names do not find in the text (an
    alias, a spelling the extractor allowed) links the mention inside its own sentence."""
    lexicon, index = game_terms
    linked = {other for other, _ in links}
    spans: list[tuple[int, int, str]] = []
    for mention in lexicon.find(text):
        node = index.get((mention.term.kind, mention.term.label))
        if node in linked:
            spans.append((mention.start, mention.end, anchors[node]))
    found = {anchor for *_, anchor in spans}
    for other, edge in links:
        if anchors[other] in found:
            continue
        single = Lexicon("glossary")
        single.add("ability", view.nodes[other]["label"])
        start = text.find(edge["sentence"]) if edge["sentence"] else -1
        region = (start, start + len(edge["sentence"])) if start >= 0 else (0, len(text))
        for mention in single.find(text[region[0]:region[1]]):
            spans.append((region[0] + mention.start, region[0] + mention.end, anchors[other]))
    kept: list[tuple[int, int, str]] = []
    for span in sorted(set(spans), key=lambda s: (s[0], -(s[1] - s[0]), s[2])):
        if not kept or span[0] >= kept[-1][1]:
            kept.append(span)
    paragraphs: list[list[Run]] = []
    offset = 0
    for paragraph in text.split("\n"):
        end = offset + len(paragraph)
        runs, position = [], offset
        for start, stop, anchor in kept:
            if start >= offset and stop <= end:
                if start > position:
                    runs.append(Run(text[position:start]))
                runs.append(Run(text[start:stop], anchor))
                position = stop
        if position < end:
            runs.append(Run(text[position:end]))
        if runs:
            paragraphs.append(runs)
        offset = end + 1
    return paragraphs


def link_targets(games: list[GameGlossary]) -> set[str]:
    """Every anchor the glossary defines."""
    return {game.anchor for game in games} | {item.anchor for game in games for section in game.sections for item in section.items}


def links(games: list[GameGlossary]) -> list[tuple[str, str, str]]:
    """(entry anchor, link text, target anchor) for every link of the glossary."""
    found = []
    for game in games:
        for section in game.sections:
            for item in section.items:
                for block in item.blocks:
                    found += [(item.anchor, run.text, run.anchor) for paragraph in block.paragraphs for run in paragraph if run.anchor]
                found += [(item.anchor, label, anchor) for label, anchor in item.cited_by]
                found += [(item.anchor, row["other"], row["anchor"]) for row in item.interactions]
    return found


# --- HTML ------------------------------------------------------------------------------------

_STYLE = """
body { font: 15px/1.5 Georgia, "Times New Roman", serif; color: #222; max-width: 52rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.8rem; margin-top: 2.5rem; } h2 { font-size: 1.35rem; border-bottom: 1px solid #ccc; margin-top: 2rem; }
h3 { font-size: 1.1rem; margin: 1.6rem 0 .3rem; }
nav ol { columns: 3; font-size: .9rem; } nav a { text-decoration: none; }
a { color: #1f4f8a; } a:hover { text-decoration: underline; }
.where { color: #777; font-size: .85rem; font-family: system-ui, sans-serif; }
.edition { font-variant: small-caps; color: #555; margin: .6rem 0 0; }
.absent { color: #999; }
.meta { font-family: system-ui, sans-serif; font-size: .88rem; margin: .3rem 0; }
.meta ul { margin: .2rem 0; padding-left: 1.2rem; }
.evidence { font-style: italic; }
.designer-note { background: #fff8e1; border-left: 3px solid #f0b400; padding: .3rem .6rem; margin: .3rem 0; font-family: system-ui, sans-serif; font-size: .88rem; }
.finding { background: #fdecea; border-left: 3px solid #c62828; padding: .3rem .6rem; margin: .3rem 0; font-family: system-ui, sans-serif; font-size: .88rem; }
section.entry:target { background: #fffbdd; }
@media print {
  body { max-width: none; margin: 0; font-size: 11pt; }
  nav { display: none; }
  a { color: inherit; text-decoration: none; border-bottom: 1px dotted #888; }
  h1 { page-break-before: always; } h1:first-of-type { page-break-before: avoid; }
  h2, h3 { page-break-after: avoid; }
  section.entry { page-break-inside: avoid; }
  .designer-note, .finding { background: none; }
}
"""


def _html_runs(runs: list[Run]) -> str:
    return "".join(f'<a href="#{escape(run.anchor)}">{escape(run.text)}</a>' if run.anchor else escape(run.text) for run in runs)


def render_html(games: list[GameGlossary], *, title: str | None = None) -> str:
    """One self-contained page: no script, nothing fetched, every text escaped."""
    title = title or _("Glossary")
    out = ["<!DOCTYPE html>", f'<html lang="{language()}"><head><meta charset="utf-8">',
           "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
           f"<title>{escape(title)}</title>", f"<style>{_STYLE}</style></head><body>"]
    for game in games:
        out.append(f'<h1 id="{escape(game.anchor)}">{escape(game.name)}</h1>')
        out.append('<nav><ol>' + "".join(f'<li><a href="#{escape(item.anchor)}">{escape(item.label)}</a></li>'
                                         for section in game.sections for item in section.items) + "</ol></nav>")
        if game.general_rules:
            out.append("<h2>" + escape(_(GENERAL_RULES)) + "</h2>")
            out += [f"<p>{escape(rule)}</p>" for rule in game.general_rules]
        for section in game.sections:
            out.append(f"<h2>{escape(section.title)}</h2>")
            for item in section.items:
                out.append(_html_item(item))
    out.append("</body></html>")
    return "\n".join(out)


def _html_item(item: Item) -> str:
    out = [f'<section class="entry" id="{escape(item.anchor)}"><h3>{escape(item.heading)}</h3>']
    if item.where:
        out.append(f'<div class="where">{escape(item.where)}</div>')
    for block in item.blocks:
        if block.title:
            out.append(f'<p class="edition">{escape(block.title)}</p>')
        if not block.present:
            out.append('<p class="absent">–</p>')
        out += [f"<p>{_html_runs(runs)}</p>" for runs in block.paragraphs]
    out += ['<div class="designer-note">' + escape(labelled(_(DESIGNER_NOTE), note)) + "</div>" for note in item.notes]
    out += ['<div class="finding">' + escape(labelled(_(OPEN_FINDING), finding)) + "</div>" for finding in item.findings]
    if item.cited_by:
        out.append('<div class="meta"><strong>' + escape(labelled(_(CITED_BY))) + "</strong> " + ", ".join(
            f'<a href="#{escape(anchor)}">{escape(label)}</a>' for label, anchor in item.cited_by) + "</div>")
    if item.interactions:
        out.append('<div class="meta"><strong>' + escape(labelled(_(INTERACTIONS_TITLE))) + "</strong><ul>")
        for row in item.interactions:
            evidence = escape(quoted(row["evidence"]))
            out.append(f'<li>{escape(row["caption"])} <a href="#{escape(row["anchor"])}">{escape(row["other"])}</a> — '
                       f'<span class="evidence">{evidence}</span> <span class="where">({escape(row["where"])})</span></li>')
        out.append("</ul></div>")
    out.append("</section>")
    return "\n".join(out)


# --- Markdown --------------------------------------------------------------------------------

_MD_SPECIAL = str.maketrans({c: f"\\{c}" for c in "\\`*_[]<>#|"})


def _md(text: str) -> str:
    return text.translate(_MD_SPECIAL)


def render_markdown(games: list[GameGlossary]) -> str:
    """Markdown with an HTML anchor before each heading (``<a id="…"></a>``), so ``[X](#…)``
    links work on GitHub, in pandoc and in most editors."""
    lines = []
    for game in games:
        lines += [f'<a id="{game.anchor}"></a>', "", f"# {_md(game.name)}", ""]
        if game.general_rules:
            lines += ["## " + _md(_(GENERAL_RULES)), ""]
            for rule in game.general_rules:
                lines += [_md(rule), ""]
        for section in game.sections:
            lines += [f"## {_md(section.title)}", ""]
            for item in section.items:
                lines += _md_item(item)
    return "\n".join(lines).rstrip() + "\n"


def _md_item(item: Item) -> list[str]:
    lines = [f'<a id="{item.anchor}"></a>', "", f"### {_md(item.heading)}", ""]
    if item.where:
        lines += [f"_{_md(item.where)}_", ""]
    for block in item.blocks:
        if block.title:
            lines += [f"**{_md(block.title)}**", ""]
        if not block.present:
            lines += ["–", ""]
        for runs in block.paragraphs:
            lines += ["".join(f"[{_md(run.text)}](#{run.anchor})" if run.anchor else _md(run.text) for run in runs), ""]
    for note in item.notes:
        lines += ["> " + labelled(f"**{_md(_(DESIGNER_NOTE))}**", _md(note)), ""]
    for finding in item.findings:
        lines += ["> " + labelled(f"**{_md(_(OPEN_FINDING))}**", _md(finding)), ""]
    if item.cited_by:
        lines += [labelled(f"**{_md(_(CITED_BY))}**", ", ".join(f"[{_md(label)}](#{anchor})" for label, anchor in item.cited_by)), ""]
    if item.interactions:
        lines += [labelled(f"**{_md(_(INTERACTIONS_TITLE))}**"), ""]
        lines += [f"- {_md(row['caption'])} [{_md(row['other'])}](#{row['anchor']}) — _{_md(quoted(row['evidence']))}_ ({_md(row['where'])})"
                  for row in item.interactions]
        lines.append("")
    return lines


# --- Word ------------------------------------------------------------------------------------


def bookmark_name(anchor: str) -> str:
    """A Word bookmark name: a letter first, letters, digits and underscores, 40 characters at
    most; a short digest keeps names that a cut would merge apart."""
    import hashlib

    name = "rg_" + anchor.replace("-", "_")
    if len(name) <= 40:
        return name
    return f"{name[:31]}_{hashlib.sha1(anchor.encode('utf-8')).hexdigest()[:8]}"


def render_docx(games: list[GameGlossary], *, title: str | None = None) -> bytes:
    """A Word document: Heading 1 per game, Heading 2 per section, Heading 3 per entry with a
    bookmark, and internal hyperlinks (``w:hyperlink w:anchor``) to those bookmarks."""
    from docx import Document
    from docx.shared import RGBColor

    document = Document()
    document.core_properties.title = title or _("Glossary")
    counter = iter(range(1, 1_000_000))
    for game in games:
        _bookmarked(document.add_heading(game.name, level=1), bookmark_name(game.anchor), next(counter))
        if game.general_rules:
            document.add_heading(_(GENERAL_RULES), level=2)
            for rule in game.general_rules:
                document.add_paragraph(rule)
        for section in game.sections:
            document.add_heading(section.title, level=2)
            for item in section.items:
                _bookmarked(document.add_heading(item.heading, level=3), bookmark_name(item.anchor), next(counter))
                if item.where:
                    _grey(document.add_paragraph().add_run(item.where), RGBColor)
                for block in item.blocks:
                    if block.title:
                        document.add_paragraph().add_run(block.title).bold = True
                    if not block.present:
                        document.add_paragraph("–")
                    for runs in block.paragraphs:
                        paragraph = document.add_paragraph()
                        for run in runs:
                            _hyperlink(paragraph, run.text, run.anchor) if run.anchor else paragraph.add_run(run.text)
                for note in item.notes:
                    paragraph = document.add_paragraph(style="Intense Quote")
                    paragraph.add_run(labelled(_(DESIGNER_NOTE)) + " ").bold = True
                    paragraph.add_run(note)
                for finding in item.findings:
                    paragraph = document.add_paragraph(style="Intense Quote")
                    paragraph.add_run(labelled(_(OPEN_FINDING)) + " ").bold = True
                    paragraph.add_run(finding)
                if item.cited_by:
                    paragraph = document.add_paragraph()
                    paragraph.add_run(labelled(_(CITED_BY)) + " ").bold = True
                    for index, (label, anchor) in enumerate(item.cited_by):
                        if index:
                            paragraph.add_run(", ")
                        _hyperlink(paragraph, label, anchor)
                if item.interactions:
                    document.add_paragraph().add_run(labelled(_(INTERACTIONS_TITLE))).bold = True
                    for row in item.interactions:
                        paragraph = document.add_paragraph(style="List Bullet")
                        paragraph.add_run(f"{row['caption']} ")
                        _hyperlink(paragraph, row["other"], row["anchor"])
                        paragraph.add_run(" — ")
                        paragraph.add_run(quoted(row["evidence"])).italic = True
                        _grey(paragraph.add_run(f" ({row['where']})"), RGBColor)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def _grey(run, rgb) -> None:
    run.font.color.rgb = rgb(0x77, 0x77, 0x77)


def _bookmarked(paragraph, name: str, number: int) -> None:
    """Wrap the paragraph's runs in a bookmark the hyperlinks point at."""
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    start, end = OxmlElement("w:bookmarkStart"), OxmlElement("w:bookmarkEnd")
    start.set(qn("w:id"), str(number))
    start.set(qn("w:name"), name)
    end.set(qn("w:id"), str(number))
    runs = paragraph._p.findall(qn("w:r"))
    if runs:
        runs[0].addprevious(start)
        runs[-1].addnext(end)
    else:
        paragraph._p.append(start)
        paragraph._p.append(end)


def _hyperlink(paragraph, text: str, anchor: str) -> None:
    """An internal hyperlink (w:anchor) to a bookmark; python-docx reads it back as a Hyperlink
    whose ``fragment`` is the bookmark name."""
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    link = OxmlElement("w:hyperlink")
    link.set(qn("w:anchor"), bookmark_name(anchor))
    link.set(qn("w:history"), "1")
    run = OxmlElement("w:r")
    properties = OxmlElement("w:rPr")
    colour = OxmlElement("w:color")
    colour.set(qn("w:val"), "1F4F8A")
    underline = OxmlElement("w:u")
    underline.set(qn("w:val"), "single")
    properties.append(colour)
    properties.append(underline)
    run.append(properties)
    text_element = OxmlElement("w:t")
    text_element.set(qn("xml:space"), "preserve")
    text_element.text = text
    run.append(text_element)
    link.append(run)
    paragraph._p.append(link)


# --- entry point -----------------------------------------------------------------------------


def default_path(format: str, *, game: str | None = None, out: Path = DEFAULT_OUT) -> Path:
    """out/glossary.html, or out/glossary-hell-dorado.docx for one game."""
    return out / f"{f'glossary-{slug(game)}' if game else 'glossary'}.{format}"


def export_glossary(graph: Graph, format: str = "html", *, game: str | None = None, clean: bool = False) -> str | bytes:
    """The glossary as HTML or Markdown text, or Word bytes."""
    if format not in FORMATS:
        raise RulegraphError(_('unknown glossary format {format!r}; use one of: {formats}').format(format=format, formats=', '.join(FORMATS)))
    games = glossary(graph, game=game, clean=clean)
    title = _("Glossary") + " — " + ", ".join(g.name for g in games)
    if format == "html":
        return render_html(games, title=title)
    if format == "md":
        return render_markdown(games)
    return render_docx(games, title=title)
