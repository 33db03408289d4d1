"""What a user reads is in French by default and in English on request; the catalogue follows
the code."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "src" / "rulegraph" / "locale" / "fr" / "LC_MESSAGES"


def run(*args, env=None):
    import os

    environment = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    environment.update(env or {})
    return subprocess.run([sys.executable, "-m", "rulegraph", *args], capture_output=True, text=True, cwd=ROOT, env=environment)


def test_french_is_the_default_and_english_is_asked_for():
    french = run("check").stdout.splitlines()[-1]
    assert french.startswith(tuple("0123456789")) and " remarques : " in french and "avertissements" in french
    english = run("--lang", "en", "check").stdout.splitlines()[-1]
    assert " findings: " in english and "warnings" in english
    assert " findings: " in run("check", env={"LANG": "en_GB.UTF-8"}).stdout.splitlines()[-1]


def test_the_resolver_speaks_the_users_language():
    out = run("resolve", "--side", "Fouisseur", "--side", "Attaque d'opportunité").stdout
    assert out.startswith("Camp 1 : Fouisseur") and "Pourquoi :" in out
    assert run("--lang", "en", "resolve", "--side", "Fouisseur", "--side", "Attaque d'opportunité").stdout.startswith("Side 1: Fouisseur")


def test_complexity_and_review_speak_the_users_language():
    french = run("complexity", "--game", "Confrontation").stdout
    assert "rang  capacité" in french and "caractéristique 0,5" in french and "Toxique" in french and "39,8" in french
    english = run("--lang", "en", "complexity", "--game", "Confrontation").stdout
    assert "rank  ability" in english and "characteristic 0.5" in english and "39.8" in english
    review = run("review", "--below", "0.65").stdout
    assert review.startswith("À vérifier") and "confiance 0," in review and "typée : Psyker mentionne Sauvegarde Psychique" in review
    assert "typée : Psyker annule les effets de Régénération" in review
    english_review = run("--lang", "en", "review", "--below", "0.65").stdout
    assert english_review.startswith("To review") and "typed: Psyker references Sauvegarde Psychique" in english_review
    assert "typed: Psyker negates Régénération" in english_review


def test_impact_and_edition_history_speak_the_users_language():
    french = run("impact", "Fouisseur").stdout
    assert "modifier Fouisseur (Hell Dorado) fait bouger 6 autres capacités et 2 verdicts de rencontre" in french
    assert "Ce qui bouge (6) :" in french and "- Fouisseur annule Attaque d’opportunité (ligne 103)" in french
    assert "rencontre Fouisseur contre Attaque d’opportunité : Attaque d’opportunité annulée → en vigueur" in french
    english = run("--lang", "en", "impact", "Fouisseur").stdout
    assert "changing Fouisseur (Hell Dorado) moves 6 other abilities and 2 encounter verdicts" in english
    assert "encounter Fouisseur vs Attaque d’opportunité: Attaque d’opportunité defeated → in effect" in english
    history = run("diff", "Toxique", "--game", "Confrontation").stdout
    assert "Toxique (Confrontation) : chronologie" in history and "édition" in history and "nouvelle" in history
    assert "timeline" in run("--lang", "en", "diff", "Toxique", "--game", "Confrontation").stdout


def test_the_named_queries_are_described_in_the_users_language():
    french = run("query", "--list").stdout
    assert "cancelled-by: Ce qui annule une capacité" in french and "(game, facultatif) le jeu" in french
    english = run("--lang", "en", "query", "--list").stdout
    assert "cancelled-by: What cancels or negates an ability" in english and "(game, optional) the game" in english


def test_the_endpoints_query_page_speaks_the_users_language(french):
    from rulegraph import queries
    from rulegraph.server import query_page

    page = query_page(queries.available())
    assert '<html lang="fr">' in page and "Requêtes nommées" in page and "Ce qui annule une capacité" in page
    assert "<button>lancer</button>" in page and "En lecture seule" in page


def test_every_message_of_the_code_is_in_the_french_catalogue():
    babel = pytest.importorskip("babel.messages.extract")
    from babel.messages.pofile import read_po

    with open(CATALOGUE / "rulegraph.po", "rb") as stream:
        catalogue = read_po(stream)
    keywords = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
    missing = []
    for path in sorted((ROOT / "src" / "rulegraph").rglob("*.py")):
        with open(path, "rb") as stream:
            # _(NAME) of a message marked with N_ where it is defined extracts nothing here.
            for _, message, _, context in babel.extract("python", stream, keywords=keywords):
                key = message if isinstance(message, str) else tuple(message)[0]
                entry = catalogue.get(key, context) if key else None
                if key and (entry is None or not entry.string):
                    missing.append(f"{path.name}: {key}")
    assert not missing, "run 'make i18n' and translate: " + "; ".join(missing)


def test_the_compiled_catalogue_is_current():
    pytest.importorskip("babel")
    from babel.messages.mofile import read_mo
    from babel.messages.pofile import read_po

    with open(CATALOGUE / "rulegraph.po", "rb") as stream:
        source = {(m.context, _key(m.id)): _key(m.string) for m in read_po(stream) if m.id}
    with open(CATALOGUE / "rulegraph.mo", "rb") as stream:
        compiled = {(m.context, _key(m.id)): _key(m.string) for m in read_mo(stream) if m.id}
    assert source == compiled, "run 'make i18n' to compile the catalogue"


def _key(value):
    return value if isinstance(value, str) else tuple(value)


def test_a_verdict_shows_the_scope_its_sentence_gives_in_the_users_language():
    french = run("resolve", "--side", "Insaisissable", "--side", "Interception").stdout
    defeat = next(line for line in french.splitlines() if "Insaisissable (par " in line)
    assert "portée : pour les adversaires présents dans sa zone de contrôle" in defeat
    assert "Interception annule les effets d’Insaisissable" in french
    english = run("--lang", "en", "resolve", "--side", "Insaisissable", "--side", "Interception").stdout
    assert "scope: pour les adversaires présents dans sa zone de contrôle" in english
    assert "Interception negates Insaisissable" in english


def test_errors_speak_the_users_language():
    french = run("resolve", "--side", "Fouisseur", "--side", "Blessé")
    assert french.returncode == 2
    assert french.stderr.strip() == ("rulegraph: 'Blessé' est de type « état » dans Hell Dorado, pas « capacité » ; "
                                     "cette commande prend des noms de type « capacité »")
    missing = run("build", "missing.md", "--game", "X")
    assert missing.returncode == 2 and "fichier introuvable ; vérifiez le chemin" in missing.stderr
    assert "file not found; check the path" in run("--lang", "en", "build", "missing.md", "--game", "X").stderr


def page_data(page: str) -> dict:
    """The DATA the atlas page carries: its legends and its own words."""
    import json
    import re

    return json.loads(re.search(r"^const DATA = (.*);$", page, re.M).group(1))


def test_the_build_summary_report_and_atlas_are_french_by_default_and_english_on_request(tmp_path):
    out = run("build", "--out", str(tmp_path / "out")).stdout
    assert "Hell Dorado : 87 capacités" in out and "note" in out and "arêtes :" in out
    report = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    assert report.startswith("# Rapport de cohérence") and "| sévérité | jeu | capacité | où | message |" in report
    assert "Question laissée par l’auteur : « à simplifier ? »" in report and "## Complexité (les plus lourdes" in report
    # What each check finds, and the severities, are French too.
    assert "de l’auteur, avec la phrase qu’elle interroge_" in report
    assert "| code | vérification | jeu | erreur | avertissement | info |" in report and "| avertissement | Hell Dorado |" in report
    assert "<h2>Sommaire</h2>" in (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    page = (tmp_path / "out" / "graph.html").read_text(encoding="utf-8")
    data = page_data(page)
    assert '<html lang="fr">' in page
    assert (data["text"]["showAll"], data["text"]["decimalMark"]) == ("Tout afficher", ",")
    assert {"name": "negates", "caption": "annule les effets de"}.items() <= data["relations"][1].items()

    assert "Hell Dorado: 87 abilities" in run("--lang", "en", "build", "--out", str(tmp_path / "out2")).stdout
    report = (tmp_path / "out2" / "report.md").read_text(encoding="utf-8")
    assert report.startswith("# Consistency report") and "| severity | game | ability | where | message |" in report
    assert "Question left by the author: “à simplifier ?”" in report and "## Complexity (the heaviest to learn)" in report
    assert "question of the author, with the sentence it questions_" in report
    assert "| code | check | game | error | warning | info |" in report and "| warning | Hell Dorado |" in report
    assert "Rapport" not in report and "à vérifier :" not in report
    html = (tmp_path / "out2" / "report.html").read_text(encoding="utf-8")
    assert '<html lang="en">' in html and "<h2>Contents</h2>" in html and "Sommaire" not in html
    page = (tmp_path / "out2" / "graph.html").read_text(encoding="utf-8")
    data = page_data(page)
    assert '<html lang="en">' in page and (data["text"]["showAll"], data["text"]["decimalMark"]) == ("Show all", ".")
    assert {"name": "negates", "caption": "negates"}.items() <= data["relations"][1].items()
    assert data["text"]["search"] == "Search" and data["kinds"][0]["caption"] == "Ability"
