"""What keeps large catalogues linear: the near-identical check's candidate index never drops a
pair the all-pairs comparison would report, and the synthetic catalogue keeps cross-references."""

from __future__ import annotations

import random
import runpy
from collections import Counter
from itertools import combinations

from rulegraph.catalogue import abilities
from rulegraph.checks import duplicates
from rulegraph.checks.duplicates import NEAR_IDENTICAL_RATIO, spanning_links

from .conftest import ROOT


def _passes_the_bounds(a: Counter, b: Counter) -> bool:
    total = sum(a.values()) + sum(b.values())
    return 2 * sum((a & b).values()) >= NEAR_IDENTICAL_RATIO * total


def _all_pairs_forest(count: int, link) -> list:
    """The spanning forest the index must give: every earlier text offered, in order."""
    root = list(range(count))

    def find(n):
        while root[n] != n:
            n = root[n]
        return n
    links = []
    for second in range(count):
        for first in range(second):
            if find(first) != find(second) and (result := link(first, second)) is not None:
                root[find(first)] = find(second)
                links.append(result)
    return links


def _bags(seed: int, texts: int, chains: bool) -> list[Counter]:
    """Random texts of 20–30 words: half copies of one base text with a few words changed
    (chains of edits when ``chains``: each copy edits the previous one), half unrelated."""
    words = [f"w{n}" for n in range(40)]
    chance = random.Random(seed)
    base = [chance.choice(words) for _ in range(30)]
    bags = []
    for _ in range(texts):
        text = list(base) if chance.random() < 0.5 else [chance.choice(words) for _ in range(30)]
        for _ in range(chance.randint(0, 6)):
            text[chance.randrange(len(text))] = chance.choice(words)
        if chains:
            base = text
        bags.append(Counter(text[: chance.randint(20, 30)]))
    return bags


def _as_tokens(bag: Counter) -> frozenset:
    return frozenset((word, k) for word, count in bag.items() for k in range(count))


def test_the_group_index_links_what_all_pairs_link():
    """Prefix filtering and pivots skip pairs, never one that all pairs would link: random bags,
    linked whenever they pass the shared-words bound, give the same forest both ways."""
    for seed, chains in ((12, False), (5, True), (8, True)):
        bags = _bags(seed, 150, chains)
        tokens = [_as_tokens(bag) for bag in bags]
        offered = []

        def link(first, second, bags=bags, offered=offered):
            offered.append((first, second))
            return (first, second) if _passes_the_bounds(bags[first], bags[second]) else None
        expected = _all_pairs_forest(len(bags), link)
        offered.clear()
        assert expected and spanning_links(tokens, link) == expected
        assert len(offered) < len(bags) * (len(bags) - 1) // 2


def test_near_identical_findings_are_those_of_all_pairs(seed_graph, monkeypatch):
    indexed = duplicates.check_near_identical_texts(seed_graph)
    monkeypatch.setattr(duplicates, "spanning_links", lambda bags, link: _all_pairs_forest(len(bags), link))
    assert indexed == duplicates.check_near_identical_texts(seed_graph) and indexed


def test_near_identical_copies_are_linked_once_each_not_pairwise(french, tmp_path):
    """Renamed copies of one chapter: the findings link the same groups of texts as all pairs
    would, with one finding fewer than texts per group (a spanning forest), not one per pair."""
    import networkx as nx

    from rulegraph.build import build

    generator = runpy.run_path(str(ROOT / "scripts" / "synthetic_corpus.py"))
    graph = build(generator["write_corpus"](tmp_path, copies=3)).graph
    findings = duplicates.check_near_identical_texts(graph)
    items = list({(a.game, tuple(words)): (a, words) for a in reversed(abilities(graph))
                  if (words := duplicates.comparable_words(a))}.values())  # the first of identical texts
    every_pair = nx.Graph()
    every_pair.add_edges_from((a.label, b.label) for (a, x), (b, y) in combinations(items, 2)
                              if x != y and duplicates.text_similarity(x, y) >= NEAR_IDENTICAL_RATIO)
    linked = nx.Graph()
    linked.add_edges_from((f.subject, f.message.split(" et ", 1)[1].split(" (ligne")[0]) for f in findings)
    groups = {frozenset(c) for c in nx.connected_components(every_pair)}
    assert groups == {frozenset(c) for c in nx.connected_components(linked)}
    assert len(findings) == sum(len(c) - 1 for c in groups) < every_pair.number_of_edges()


def test_synthetic_copies_rename_abilities_and_their_mentions(tmp_path):
    generator = runpy.run_path(str(ROOT / "scripts" / "synthetic_corpus.py"))
    manifest = generator["write_corpus"](tmp_path, copies=2)
    second = (tmp_path / "copy_0002.txt").read_text(encoding="utf-8")
    assert "- Fouisseur K2 :" in second and "de fouisseur K2 et" in second
    assert "K1" not in second and 'game = "studio-1"' in manifest.read_text(encoding="utf-8")


def test_one_typo_index_finds_what_scanning_finds(seed_corpus, monkeypatch):
    from rulegraph.extract import lexicon as lexicon_module

    names = [entry.name for entry in seed_corpus.entries("hell-dorado")]
    catalogue = names + [f"{name} K{copy}" for name in names for copy in range(1, 30)]
    chance = random.Random(5)
    typed = []
    for name in chance.sample(catalogue, 300):
        at = chance.randrange(len(name))
        typed += [name[:at] + name[at + 1:], name[:at] + "e" + name[at:], name[:at] + "a" + name[at + 1:]]

    def lookups(scan_at_most: int) -> list:
        monkeypatch.setattr(lexicon_module, "_SCAN_AT_MOST", scan_at_most)
        lexicon = lexicon_module.build_lexicon("hell-dorado", catalogue, {})
        texts = [entry.text for entry in seed_corpus.entries("hell-dorado")]
        return [lexicon.lookup(name) for name in typed] + [lexicon.find(text) for text in texts]

    indexed, scanned = lookups(0), lookups(10**9)
    assert indexed == scanned
    assert sum(found is not None for found in indexed[: len(typed)]) > len(typed) // 2


def test_reports_list_a_few_findings_per_check_and_say_how_to_get_the_rest(french, seed_graph):
    from rulegraph.checks import run_checks
    from rulegraph.render.report import render_html, render_markdown

    findings = run_checks(seed_graph)
    by_check = Counter(f.code for f in findings)
    code, total = by_check.most_common(1)[0]
    assert total > 1
    markdown = render_markdown(findings, limit=1)
    assert f"{total - 1} autres constats {code}" in markdown and f"rulegraph check --check {code}" in markdown
    assert len(markdown) < len(render_markdown(findings))
    assert f"{total - 1} autres constats {code}" in render_html(findings, limit=1)
    assert "autres constats" not in render_markdown(findings)
