"""Property-based fuzzing (Hypothesis) of every reader and of the manifest, curation and lexicon
loaders: arbitrary text, structured near-valid files and mutations of the seeds.

The only allowed outcomes are a result or a RulegraphError that names the file and the line, in
one line. The suite runs a small budget; ``make fuzz`` runs a long one
(RULEGRAPH_FUZZ_EXAMPLES, default 40 per property here)."""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulegraph.errors import RulegraphError
from rulegraph.readers import FORMATS

from .conftest import DATA

EXAMPLES = int(os.environ.get("RULEGRAPH_FUZZ_EXAMPLES", "40"))
RUN: Counter[str] = Counter()
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=not os.environ.get("RULEGRAPH_FUZZ_EXAMPLES"),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])

#: Characters that mean something to one of the formats, plus line breaks editors do and do not count.
MARKUP = "#*_[]()`:;,.-=>'\"{}|/\\+!?«» \n\n\n\r\t\x0c\x85\u2028aeAXé123"
TEXT = st.one_of(st.text(max_size=600), st.text(alphabet=MARKUP, max_size=600))
WORD = st.text(alphabet="abcdeéfgilmnoprstuzACFIR'’- ", min_size=1, max_size=14).filter(lambda w: w.strip())
SENTENCE = st.lists(st.one_of(WORD, st.sampled_from(["annule", "la capacité", "Fouisseur", "_Ruse_", "**Garde**",
                                                     "=>", "X", "(2)", "[g]", "[/g]", "si", "ne", "pas", ":", ";"])),
                    min_size=1, max_size=25).map(" ".join)

SEEDS = {
    "chapter": (DATA / "000_10d76c9141a2b7c0.txt",
                {"categories": {"Capacités des Personnages": "character", "Capacités des armes": "weapon"}}),
    "csv": (DATA / "001_a17175775154b8fb.txt",
            {"delimiter": ";", "name_field": "nom capacité", "text_field": "texte", "default_category": "character"}),
    "compendium": (DATA / "004_9ebf0d46270f4153.txt", None),
}


def allowed(call, source: str = "x"):
    """Run ``call``; a RulegraphError must name a file and a line and fit on one line."""
    try:
        return call()
    except RulegraphError as error:
        assert error.path, f"no file: {error}"
        assert error.line is not None and error.line >= 1, f"no line: {error}"
        assert "\n" not in str(error) and "\r" not in str(error), repr(str(error))
        return error


def parse(fmt: str, text: str | bytes, options: dict | None = None):
    return FORMATS[fmt].parse(text, source="fuzz.txt", game="g", options=options or {})


#: Readers of binary formats (Word, OpenDocument, PDF): they get bytes.
BINARY = sorted(name for name, module in FORMATS.items() if getattr(module, "BINARY", False))
TEXT_FORMATS = sorted(set(FORMATS) - set(BINARY))


def _compendium_options():
    import tomllib

    manifest = tomllib.loads((DATA / "corpus.toml").read_text(encoding="utf-8"))
    source = next(s for s in manifest["source"] if s.get("format") == "compendium")
    return {key: value for key, value in source.items() if key not in ("path", "game", "format", "language")}


SEEDS["compendium"] = (SEEDS["compendium"][0], _compendium_options())


# --- every reader on arbitrary text --------------------------------------------------------

@pytest.mark.parametrize("fmt", TEXT_FORMATS)
@FUZZ
@given(text=TEXT)
def test_every_reader_on_arbitrary_text(fmt, text):
    RUN[f"{fmt} arbitrary"] += 1
    options = SEEDS[fmt][1] if fmt == "compendium" else {}
    allowed(lambda: parse(fmt, text, options))


# --- structured, near-valid files ------------------------------------------------------------

MARKDOWN = st.lists(
    st.tuples(st.sampled_from(["#", "##", "###", "####", "", "-", ">"]), WORD,
              st.lists(SENTENCE, max_size=4), st.sampled_from(["\n", "\r\n", "\r", "\x0c\n"])),
    min_size=1, max_size=12,
).map(lambda blocks: "".join(f"{mark} {title}{nl}{nl}" + f"{nl}".join(body) + nl + nl
                             for mark, title, body, nl in blocks))
CHAPTER = st.lists(
    st.tuples(st.sampled_from(["- ", "• ", "– ", "", "-"]), WORD, st.sampled_from([" : ", ":", " ", " :"]),
              st.lists(SENTENCE, max_size=3), st.booleans()),
    min_size=1, max_size=12,
).map(lambda entries: "Titre\n\n" + "".join(f"{bullet}{name}{colon}{' '.join(body)}\n" + ("\n" if blank else "")
                                             for bullet, name, colon, body, blank in entries))
CELL = st.one_of(SENTENCE, TEXT.map(lambda t: t[:80]), SENTENCE.map(lambda s: f'"{s}"'),
                 SENTENCE.map(lambda s: f"[justifier][g]{s}[/g] {s}[/justifier]"))
CSV = st.lists(st.lists(CELL, min_size=1, max_size=3), max_size=10).map(
    lambda rows: "nom;texte\n" + "".join(";".join(row) + "\n" for row in rows))
JSON_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20)
JSON_ENTRIES = st.lists(st.fixed_dictionaries({"name": st.one_of(WORD, JSON_VALUE), "text": st.one_of(SENTENCE, JSON_VALUE)},
                                              optional={"tags": JSON_VALUE, "category": JSON_VALUE}), max_size=8)
COMPENDIUM_EDITIONS = _compendium_options()["editions"]


@st.composite
def compendium(draw):
    lines = [draw(WORD)]
    for edition in draw(st.permutations(COMPENDIUM_EDITIONS)):
        if draw(st.integers(0, 9)) == 0:
            continue
        lines += ["", edition, draw(st.one_of(SENTENCE, st.sampled_from(["–", "-", "n/a"])))]
    return "\n".join(lines) + "\n"


STRUCTURED = {
    "markdown": MARKDOWN,
    "chapter": CHAPTER,
    "csv": CSV,
    "json": st.one_of(JSON_ENTRIES.map(lambda e: json.dumps(e, ensure_ascii=False)), JSON_VALUE.map(json.dumps)),
    "compendium": compendium(),
}


@pytest.mark.parametrize("fmt", sorted(STRUCTURED))
@FUZZ
@given(data=st.data())
def test_every_reader_on_structured_near_valid_files(fmt, data):
    RUN[f"{fmt} structured"] += 1
    text = data.draw(STRUCTURED[fmt])
    options = SEEDS["compendium"][1] if fmt == "compendium" else {}
    allowed(lambda: parse(fmt, text, options))


# --- mutations of the seeds ----------------------------------------------------------------

@st.composite
def mutated(draw, text: str):
    """The seed with a few slices deleted, duplicated, replaced or its line breaks changed."""
    for _ in range(draw(st.integers(1, 4))):
        start = draw(st.integers(0, len(text)))
        end = min(len(text), start + draw(st.integers(0, 300)))
        operation = draw(st.sampled_from(["delete", "duplicate", "insert", "linebreaks", "truncate"]))
        if operation == "delete":
            text = text[:start] + text[end:]
        elif operation == "duplicate":
            text = text[:end] + text[start:end] + text[end:]
        elif operation == "insert":
            text = text[:start] + draw(TEXT) + text[start:]
        elif operation == "linebreaks":
            text = text[:start] + text[start:end].replace("\n", draw(st.sampled_from(["\r", "\r\n", "\x0c", "\u2028", ""]))) + text[end:]
        else:
            text = text[:start]
    return text


@pytest.mark.parametrize("fmt", sorted(SEEDS))
@FUZZ
@given(data=st.data())
def test_every_reader_on_mutated_seeds(fmt, data):
    RUN[f"{fmt} seed mutation"] += 1
    path, options = SEEDS[fmt]
    text = data.draw(mutated(path.read_text(encoding="utf-8")))
    allowed(lambda: parse(fmt, text, options))


# --- binary formats: arbitrary bytes and mutations of a real document --------------------------

@pytest.fixture(scope="module")
def binary_seeds():
    from . import documents

    return {"docx": documents.hell_dorado_docx(), "odt": documents.hell_dorado_odt(), "pdf": documents.hell_dorado_pdf()}


@st.composite
def mutated_bytes(draw, data: bytes):
    """The document with a few byte ranges deleted, duplicated, overwritten or cut off."""
    for _ in range(draw(st.integers(1, 3))):
        start = draw(st.integers(0, len(data)))
        end = min(len(data), start + draw(st.integers(0, 2000)))
        operation = draw(st.sampled_from(["delete", "duplicate", "overwrite", "truncate"]))
        if operation == "delete":
            data = data[:start] + data[end:]
        elif operation == "duplicate":
            data = data[:end] + data[start:end] + data[end:]
        elif operation == "overwrite":
            data = data[:start] + draw(st.binary(min_size=1, max_size=64)) + data[start + 64:]
        else:
            data = data[:start]
    return data


@pytest.mark.parametrize("fmt", BINARY)
@settings(FUZZ, max_examples=max(5, EXAMPLES // 2))
@given(data=st.data())
def test_every_binary_reader_on_arbitrary_and_mutated_documents(fmt, binary_seeds, data):
    RUN[f"{fmt} bytes"] += 1
    content = data.draw(st.one_of(st.binary(max_size=3000), st.binary(max_size=3000).map(lambda b: b"PK\x03\x04" + b),
                                  st.binary(max_size=3000).map(lambda b: b"%PDF-1.4\n" + b),
                                  mutated_bytes(binary_seeds[fmt])))
    allowed(lambda: parse(fmt, content))


# --- the manifest, curation and lexicon loaders ----------------------------------------------

@pytest.fixture(scope="module")
def corpus_copy(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz") / "data"
    shutil.copytree(DATA, folder)
    return folder


MANIFEST_LINES = st.sampled_from([
    "[[game]]", "[[source]]", 'name = "Jeu"', 'id = "jeu"', 'game = "jeu"', 'game = "epic"', 'path = "001_a17175775154b8fb.txt"',
    'path = "../corpus.toml"', 'path = "/etc/hostname"', 'format = "csv"', 'format = "markdown"', 'format = "docx"',
    'delimiter = ";"', "delimiter = 5", 'lexicon = "lexicons/epic.toml"', 'lexicon = "none.toml"', "lineage = []",
    'editions = ["A"]', "[source.categories]", '"X" = "weapon"', 'game = [{name = "Jeu"}]',
    'source = [{path = "001_a17175775154b8fb.txt", game = "jeu"}]', "x = [1,", "", "# note",
])


@FUZZ
@given(data=st.data())
def test_the_manifest_loader_on_mutations_and_near_valid_manifests(corpus_copy, data):
    from rulegraph.corpus import load_corpus

    RUN["manifest"] += 1
    seed = (DATA / "corpus.toml").read_text(encoding="utf-8")
    text = data.draw(st.one_of(mutated(seed), st.lists(MANIFEST_LINES, max_size=20).map("\n".join), TEXT))
    manifest = corpus_copy / "fuzz.toml"
    manifest.write_text(text, encoding="utf-8")
    allowed(lambda: load_corpus(manifest))


@FUZZ
@given(data=st.data())
def test_the_curation_loader_on_mutations(seed_corpus, data):
    from rulegraph.extract.curation import parse_curation

    RUN["curation"] += 1
    seed = (DATA / "curation.toml").read_text(encoding="utf-8")
    entry = st.fixed_dictionaries({}, optional={
        key: st.one_of(SENTENCE, st.sampled_from(["epic", "hell-dorado", "cancels", "grants", "bearer", "Fouisseur",
                                                  "Interception", "Attaque d'opportunité"]), st.integers())
        for key in ("game", "subject", "relation", "object", "reason", "sentence", "was", "recipient", "colour")})
    table = st.tuples(st.sampled_from(["add", "remove", "retype", "ajout"]), entry).map(
        lambda pair: f"[[{pair[0]}]]\n" + "".join(f"{key} = {json.dumps(value, ensure_ascii=False)}\n"
                                                  for key, value in pair[1].items()))
    text = data.draw(st.one_of(mutated(seed), st.lists(table, max_size=5).map("\n".join), TEXT))
    allowed(lambda: parse_curation(text, seed_corpus, path="curation.toml"))


@FUZZ
@given(data=st.data())
def test_the_lexicon_loader_on_mutations(corpus_copy, data):
    from rulegraph.extract.lexicon import build_lexicon, load_vocabulary

    RUN["lexicon"] += 1
    seed = (DATA / "lexicons" / "epic.toml").read_text(encoding="utf-8")
    text = data.draw(st.one_of(mutated(seed), TEXT))
    path = corpus_copy / "lexicons" / "fuzz.toml"
    path.write_text(text, encoding="utf-8")

    def load():
        lexicon = build_lexicon("epic", ["Fouisseur", "Attaque d'opportunité"], load_vocabulary(path))
        for name in data.draw(st.lists(st.one_of(WORD, TEXT), max_size=3)):
            lexicon.lookup(name)
        return lexicon

    allowed(load)


# --- whole builds, fewer examples --------------------------------------------------------------

@settings(FUZZ, max_examples=max(5, EXAMPLES // 4))
@given(text=MARKDOWN)
def test_a_whole_build_of_a_fuzzed_glossary(tmp_path_factory, text):
    from rulegraph.build import build

    RUN["whole build"] += 1
    glossary = tmp_path_factory.mktemp("build") / "g.md"
    glossary.write_text(text, encoding="utf-8", newline="")
    allowed(lambda: build(files=[glossary], game="Jeu"))


def test_zz_report_the_fuzz_examples_run(capsys):
    with capsys.disabled():
        print(f"\n[test_fuzz] examples run: {sum(RUN.values())} ({len(RUN)} properties)")
    assert sum(RUN.values()) > 0
