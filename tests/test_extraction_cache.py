"""The extraction cache: a rebuild of an unchanged game reads its statements back, any change to
what extraction reads is a miss, and a broken or unwritable cache only costs speed."""

from __future__ import annotations

from pathlib import Path

from rulegraph.corpus import corpus_from_files, load_corpus
from rulegraph.defaults import DEFAULT_MANIFEST
from rulegraph.extract.cues import load_cues
from rulegraph.extract.extractor import extract_corpus
from rulegraph.stored import ExtractionCache

GLOSSARY = ("# Jeu\n\n### Fouisseur\nCette capacité annule l'Attaque d'opportunité.\n\n"
            "### Attaque d'opportunité\nLe combattant frappe celui qui s'éloigne.\n")


def _corpus(tmp_path: Path, text: str = GLOSSARY):
    glossary = tmp_path / "glossaire.md"
    glossary.write_text(text, encoding="utf-8")
    return corpus_from_files([glossary], game="jeu")


def _edges(statements):
    return sorted((s.subject.label, s.relation, s.object.label, s.line, s.confidence) for s in statements)


def test_a_rebuild_reads_the_statements_it_kept(tmp_path):
    cache = ExtractionCache(tmp_path / "cache")
    corpus = load_corpus(DEFAULT_MANIFEST)
    first = extract_corpus(corpus, load_cues(), cache=cache)
    assert len(list((tmp_path / "cache").glob("*.pickle"))) == len(corpus.games)
    again = extract_corpus(load_corpus(DEFAULT_MANIFEST), load_cues(), cache=cache)
    assert again == first == extract_corpus(corpus, load_cues())


def test_a_changed_text_or_cue_is_read_again(tmp_path):
    cache = ExtractionCache(tmp_path / "cache")
    before = extract_corpus(_corpus(tmp_path), load_cues(), cache=cache)
    assert ("Fouisseur", "cancels", "Attaque d'opportunité") in {e[:3] for e in _edges(before)}
    edited = _corpus(tmp_path, GLOSSARY.replace("annule", "confère"))
    after = extract_corpus(edited, load_cues(), cache=cache)
    assert ("Fouisseur", "grants", "Attaque d'opportunité") in {e[:3] for e in _edges(after)}
    fewer_cues = [cue for cue in load_cues() if cue.relation != "grants"]
    assert _edges(extract_corpus(edited, fewer_cues, cache=cache)) != _edges(after)
    assert len(list((tmp_path / "cache").glob("*.pickle"))) == 3


def test_a_changed_lexicon_file_is_read_again(tmp_path):
    glossary = tmp_path / "glossaire.md"
    glossary.write_text(GLOSSARY + "\n### Sonné\nIl vacille.\n", encoding="utf-8")
    lexicon = tmp_path / "lexique.toml"
    manifest = tmp_path / "corpus.toml"
    manifest.write_text('[[game]]\nid = "jeu"\nname = "Jeu"\nlexicon = "lexique.toml"\n\n'
                        '[[source]]\npath = "glossaire.md"\ngame = "jeu"\n', encoding="utf-8")
    cache = ExtractionCache(tmp_path / "cache")
    lexicon.write_text('states = []\n', encoding="utf-8")
    extract_corpus(load_corpus(manifest), load_cues(), cache=cache)
    lexicon.write_text('states = ["Sonné"]\n', encoding="utf-8")
    extract_corpus(load_corpus(manifest), load_cues(), cache=cache)
    assert len(list((tmp_path / "cache").glob("*.pickle"))) == 2


def test_a_damaged_or_unwritable_cache_only_costs_speed(tmp_path):
    corpus = _corpus(tmp_path)
    expected = _edges(extract_corpus(corpus, load_cues()))
    cache = ExtractionCache(tmp_path / "cache")
    extract_corpus(corpus, load_cues(), cache=cache)
    for kept in (tmp_path / "cache").glob("*.pickle"):
        kept.write_bytes(b"not a pickle")
    assert _edges(extract_corpus(corpus, load_cues(), cache=cache)) == expected
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    assert _edges(extract_corpus(corpus, load_cues(), cache=ExtractionCache(blocker / "cache"))) == expected


def test_a_failed_write_leaves_no_temporary_file(tmp_path):
    import pickle

    import pytest

    from rulegraph.stored import PickleCache

    cache = PickleCache(tmp_path / "cache")
    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        cache.put("k", lambda: None)
    assert list((tmp_path / "cache").iterdir()) == []
    cache.put("k", [1, 2])
    assert [p.name for p in (tmp_path / "cache").iterdir()] == ["k.pickle"] and cache.get("k") == [1, 2]


def test_the_shipped_cues_are_compiled_only_when_a_game_is_not_in_the_cache(tmp_path, monkeypatch):
    """A rebuild of unchanged games with the shipped cues reads them back without compiling the
    cues (a tenth of a second); the key is the same as with the shipped cues given."""
    from rulegraph.extract import extractor

    cache = ExtractionCache(tmp_path / "cache")
    first = extract_corpus(load_corpus(DEFAULT_MANIFEST), cache=cache)

    def compile_cues():
        raise AssertionError("the cues were compiled")

    monkeypatch.setattr(extractor, "load_cues", compile_cues)
    assert extract_corpus(load_corpus(DEFAULT_MANIFEST), cache=cache) == first


def test_rendered_pages_are_read_back_for_unchanged_content(seed_graph, tmp_path, monkeypatch):
    """The atlas and the report of a graph whose Turtle digest was rendered before are read from
    the cache folder, checks and layout skipped; another digest renders again."""
    from rulegraph.build import render_pages
    from rulegraph.views import atlas

    monkeypatch.setenv("RULEGRAPH_CACHE", str(tmp_path))
    first = render_pages(seed_graph, "digest-1")
    assert sorted(first) == ["graph.html", "report.html", "report.md"]

    def lay_out(graph):
        raise AssertionError("the atlas was rendered again")

    monkeypatch.setattr(atlas, "render_atlas", lay_out)
    assert render_pages(seed_graph, "digest-1") == first
    try:
        render_pages(seed_graph, "digest-2")
    except AssertionError as error:
        assert "rendered again" in str(error)
    else:
        raise AssertionError("another content was not rendered")


def test_curation_names_the_statements_use_need_no_lexicon(monkeypatch):
    """An undefined ability a curation entry names ("Sans Peur" in Epic) is resolved through the
    statements' names, without building the game's lexicon; a misspelt one still gets its hint."""
    import pytest

    from rulegraph.errors import RulegraphError
    from rulegraph.extract import curation
    from rulegraph.model import TermRef

    corpus = load_corpus(DEFAULT_MANIFEST)
    text = ('[[remove]]\ngame = "epic"\nsubject = "pierre-esprit"\nrelation = "grants"\nobject = "sans peur"\n'
            'reason = "test"\n')
    named = [TermRef("epic", "ability", "Sans Peur")]

    def no_lexicon(corpus, game):
        raise AssertionError("a lexicon was built")

    with monkeypatch.context() as patch:
        patch.setattr(curation, "game_lexicon", no_lexicon)
        [entry] = curation.parse_curation(text, corpus, path="curation.toml", named=named)
    assert (entry.subject.label, entry.object.label) == ("Pierre-Esprit", "Sans Peur")
    with pytest.raises(RulegraphError, match="Sans Peur"):
        curation.parse_curation(text.replace("sans peur", "Sans Peor"), corpus, path="curation.toml")
