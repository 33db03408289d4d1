"""Line numbers as editors and grep count them (only \\n, \\r\\n and \\r end a line), through one
helper, text.editor_lines, in every reader and in the TOML and query messages."""

from __future__ import annotations

import pytest

from rulegraph.errors import RulegraphError
from rulegraph.readers import FORMATS
from rulegraph.text import editor_lines, line_at

#: Characters str.splitlines() also breaks at, which editors show inside a line.
NOT_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def test_editor_lines_break_only_at_newlines_and_carriage_returns():
    text = f"a{NOT_BREAKS}b\nc\r\nd\re\n"
    assert editor_lines(text) == [f"a{NOT_BREAKS}b", "c", "d", "e"]
    assert editor_lines("") == [] and editor_lines("x") == ["x"] and editor_lines("x\n\n") == ["x", ""]
    assert [line_at(text, text.index(c)) for c in "abcde"] == [1, 1, 2, 3, 4]


def parse(fmt: str, text: str, **options):
    return FORMATS[fmt].parse(text, source="g.txt", game="g", options=options)


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_entry_lines_ignore_form_feeds_and_unicode_separators(newline):
    junk = f"texte{NOT_BREAKS}suite."
    markdown = newline.join(["### A", "", junk, "", "### B", "", "fin.", ""])
    assert [e.line for e in parse("markdown", markdown).entries] == [1, 5]
    chapter = newline.join(["", "- Garde : " + junk, "", "- Fouisseur : il creuse.", ""])
    assert [e.line for e in parse("chapter", chapter).entries] == [2, 4]
    table = newline.join(["nom;texte", f"Garde;{junk}", "Fouisseur;il creuse.", ""])
    assert [e.line for e in parse("csv", table).entries] == [2, 3]
    compendium = newline.join(["Toxique", "", "E1", junk, "", "E2", "autre.", ""])
    entry = parse("compendium", compendium, editions=["E1", "E2"]).entries[0]
    assert [edition.line for edition in entry.editions] == [3, 6]


def test_an_error_after_form_feeds_points_at_the_editors_line():
    with pytest.raises(RulegraphError) as raised:
        parse("markdown", f"### A\n\n{NOT_BREAKS}\n\n### :\n\ntexte.\n")
    assert raised.value.line == 5


def test_toml_and_query_lines_are_editor_lines(tmp_path):
    from rulegraph.queries import parse_query
    from rulegraph.tomlfile import parse_toml

    toml = parse_toml('# a\u2028b\n[[source]]\npath = "x\u2029y"\n', tmp_path / "m.toml")
    assert toml.table_lines("source") == [2] and toml.key_line("path", 2) == 3
    with pytest.raises(RulegraphError) as raised:
        parse_query("# about\x0c it\n# param x (colour): no\nSELECT * {}", name="q", path="q.rq")
    assert raised.value.line == 2
