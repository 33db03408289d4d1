"""Language data, one folder per language, the way spaCy keeps ``lang/fr/``.

Rule texts are French; everything the code needs to know of French lives in ``lang/fr/``:

- ``cues.toml``: how a rule text says that two abilities interact (the cue rules) and the words
  the extractor reads a sentence with;
- ``analysis.toml``: the word lists the sentence analysis reads a dependency parse with;
- ``words.toml``: the other word lists and patterns (undefined names, designer notes, spelling,
  stacking rules, PDF hyphenation, sentence splitting).

Extend these files rather than the code: no French word list is written in the code. Each file
is read once per process.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable

from ..errors import RulegraphError
from ..i18n import _

#: The language of the rule texts rulegraph reads.
TEXT_LANGUAGE = "fr"


def data_file(name: str, lang: str = TEXT_LANGUAGE) -> Traversable:
    """``lang/<lang>/<name>`` inside the installed package."""
    return resources.files(__name__).joinpath(lang, name)


def display_path(name: str, lang: str = TEXT_LANGUAGE) -> str:
    """The file's path as error messages name it."""
    return f"rulegraph/lang/{lang}/{name}"


@cache
def read_text(name: str, lang: str = TEXT_LANGUAGE) -> str:
    return data_file(name, lang).read_text(encoding="utf-8")


@cache
def _words_file(lang: str) -> dict:
    try:
        return tomllib.loads(read_text("words.toml", lang))
    except tomllib.TOMLDecodeError as error:
        raise RulegraphError(_('invalid TOML: {error}').format(error=error), path=display_path("words.toml", lang)) from None


def words(section: str, lang: str = TEXT_LANGUAGE) -> dict:
    """One table of ``words.toml``: word lists (lists of strings) and patterns (strings)."""
    data = _words_file(lang)
    if section not in data:
        raise RulegraphError(_('no [{section}] table').format(section=section), path=display_path("words.toml", lang))
    return data[section]
