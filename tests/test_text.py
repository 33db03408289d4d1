"""The French text helpers every other module relies on."""

import pytest

from rulegraph.text import fold, of_name, slug, split_sentences, stem, tokenize


@pytest.mark.parametrize(
    ("a", "b"),
    [("Attaque d’opportunité", "attaque d'opportunite"), ("ATTAQUE D'OPPORTUNITÉ", "Attaque d’opportunité"),
     ("Pierre-Esprit", "pierre esprit"), ("Mauvais œil", "mauvais oeil")],
)
def test_fold_ignores_case_accents_apostrophes_and_hyphens(a, b):
    assert fold(a) == fold(b)


@pytest.mark.parametrize(
    ("form", "base"),
    [("insaisissables", "Insaisissable"), ("évasifs", "Evasif"), ("évasive", "évasif"), ("volante", "Volant"),
     ("encombrantes", "Encombrante"), ("furieuse", "Furieux"), ("Énormé", "Enorme"),
     ("Constrictrice", "Constricteur"), ("profanatrices", "Profanateur")],
)
def test_stem_joins_plural_and_feminine_forms(form, base):
    assert stem(form) == stem(base)


def test_tokenize_splits_elisions_and_keeps_offsets():
    text = "annule l’attaque d'opportunité"
    tokens = tokenize(text)
    assert [t.surface for t in tokens] == ["annule", "l’", "attaque", "d'", "opportunité"]
    assert all(text[t.start:t.end] == t.surface for t in tokens)


def test_sentences_do_not_break_on_abbreviations():
    assert [s for _, s in split_sentences("Il coûte 100 P.A. de plus. Ensuite il part.")] == [
        "Il coûte 100 P.A. de plus.", "Ensuite il part."]


def test_slug_is_a_readable_uri_segment():
    assert slug("Attaque d’opportunité") == "attaque-d-opportunite"


@pytest.mark.parametrize(
    ("label", "phrase"),
    [("Intimidation", "d’« Intimidation »"), ("Fouisseur", "de « Fouisseur »"), ("Énorme", "d’« Énorme »"),
     ("Hurlement", "d’« Hurlement »")],
)
def test_of_name_elides_before_a_vowel(french, label, phrase):
    assert of_name(label) == phrase


def test_closest_falls_back_on_names_sharing_a_word():
    from rulegraph.text import closest

    assert closest("Tir à l'arc", ["Tir défensif", "Fouisseur", "Tireur d'élite"]) == ["Tir défensif"]
    assert closest("Fouiseur", ["Tir défensif", "Fouisseur"]) == ["Fouisseur"]


def test_the_french_word_list_is_kept_in_the_cache_folder_and_a_damaged_copy_is_rebuilt(tmp_path, monkeypatch):
    from spellchecker import SpellChecker

    from rulegraph.text import _cached_french_words

    monkeypatch.setenv("RULEGRAPH_CACHE", str(tmp_path))
    first = _cached_french_words()
    [kept] = tmp_path.glob("french-words-*.marshal")
    own = SpellChecker(language="fr", distance=1).word_frequency
    assert first == dict(own.dictionary) and first["attaque"] == own["attaque"] > 0
    assert _cached_french_words() == first
    kept.write_bytes(b"\x00 not marshal")
    assert _cached_french_words() == first
    assert _cached_french_words() == first


def test_an_unwritable_cache_folder_only_costs_speed(tmp_path, monkeypatch):
    from rulegraph.text import _cached_french_words

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("RULEGRAPH_CACHE", str(blocker / "cache"))
    assert _cached_french_words() is None


def test_an_abbreviation_ends_no_sentence_but_a_word_ending_like_one_does():
    from rulegraph.text import split_sentences

    text = "Il porte un coup. Puis il recule (cf. Moral). Incompatible av. Brute. Max. 2 fois."
    assert [s for _, s in split_sentences(text)] == [
        "Il porte un coup.", "Puis il recule (cf. Moral).", "Incompatible av. Brute.", "Max. 2 fois."]
