"""The language a user reads: French by default, English with ``--lang en`` or an English locale.

Messages are written in English in the code and translated by the standard library's gettext
from ``rulegraph/locale/<lang>/LC_MESSAGES/rulegraph.mo`` (``make i18n`` extracts, updates and
compiles the catalogues with Babel). English needs no catalogue: gettext falls back to the text
as written.
"""

from __future__ import annotations

import gettext
import os
from functools import cache
from importlib import resources

DOMAIN = "rulegraph"
LANGUAGES = ("fr", "en")
DEFAULT = "fr"

_chosen: str | None = None


def language() -> str:
    """``--lang`` when given, else the locale's language when it is one of ours, else French."""
    if _chosen:
        return _chosen
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable, "")
        code = value.split(":")[0][:2].lower()
        if code in LANGUAGES:
            return code
    return DEFAULT


def set_language(code: str | None) -> None:
    global _chosen
    _chosen = code if code in LANGUAGES else None


@cache
def _translations(code: str) -> gettext.NullTranslations:
    if code == "en":
        return gettext.NullTranslations()
    folder = resources.files("rulegraph").joinpath("locale")
    with resources.as_file(folder) as path:
        return gettext.translation(DOMAIN, localedir=str(path), languages=[code], fallback=True)


def _(message: str) -> str:
    """The message in the user's language."""
    return _translations(language()).gettext(message)


def N_(message: str) -> str:
    """Marks a message for translation where it is defined; ``_`` translates it where it is shown."""
    return message


def ngettext(singular: str, plural: str, count: int) -> str:
    return _translations(language()).ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """The message in the user's language, told apart by ``context`` where one English text has
    two translations (French "de « X »" and, before a vowel, "d’« X »")."""
    return _translations(language()).pgettext(context, message)


def word(words: dict[str, str], code: str) -> str:
    """A code's word in the user's language, from a table of ``N_``-marked words ("warning" →
    "avertissement"); a code the table does not know is shown as it is."""
    return _(words[code]) if code in words else code


def decimal_mark() -> str:
    """"," in French, "." in English."""
    return pgettext("decimal mark", ".")


def number(value: float) -> str:
    """A number written as short as it goes (39.8, 0.02, 4), with the user's decimal mark."""
    return f"{value:g}".replace(".", decimal_mark())


def decimal(value: float, digits: int = 2) -> str:
    """A number with the user's decimal mark: 0,49 in French, 0.49 in English."""
    return f"{value:.{digits}f}".replace(".", decimal_mark())


def quoted(text: str) -> str:
    """« text » in French, “text” in English."""
    return _("“{text}”").format(text=text)


def labelled(label: str, text: str = "") -> str:
    """"Cited by: …", with the user's punctuation (French puts a space before the colon)."""
    if not text:
        return _("{label}:").format(label=label)
    return _("{label}: {text}").format(label=label, text=text)
