"""French text handling in one place: apostrophes, accents, case, elisions, plurals, sentences.

Every comparison of names in rulegraph goes through :func:`fold` or :func:`stem`, so that
"Attaque d’opportunité", "attaque d'opportunite" and "ATTAQUE D'OPPORTUNITÉ" are one name.
"""

from __future__ import annotations

import marshal
import os
import re
import sys
import tempfile
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .lang import words as lang_words

APOSTROPHES = "’‘ʼ´`′"
_APOSTROPHE_TABLE = str.maketrans({c: "'" for c in APOSTROPHES})
_DASHES_TABLE = str.maketrans({"‐": "-", "‑": "-", "‒": "-"})

#: Elided articles and pronouns that glue to the next word: l'attaque, d'opportunité, qu'il.
ELISIONS = tuple(lang_words("text")["elisions"])

_WORD = re.compile(r"[\w]+(?:'|(?=\s)|\b)", re.UNICODE)


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def editor_lines(text: str) -> list[str]:
    """The lines of a file as editors and grep number them: only ``\n``, ``\r\n`` and ``\r``
    end a line. ``str.splitlines`` also breaks at form feeds, ``\x1c``–``\x1e``, ``\x85``,
    U+2028 and U+2029, which shifts every ``file:line`` after one of them."""
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def line_breaks(text: str) -> int:
    """How many lines an editor starts inside ``text`` (``\n``, ``\r\n`` and ``\r`` each one)."""
    return len(_LINE_BREAK.findall(text))


def line_at(text: str, offset: int) -> int:
    """The editor's line number (from 1) of the character at ``offset``."""
    head = text[:offset]
    return 1 + head.count("\n") + head.count("\r") - head.count("\r\n")


def normalize_apostrophes(text: str) -> str:
    """Typographic apostrophes and odd dashes become their plain ASCII forms."""
    return text.translate(_APOSTROPHE_TABLE).translate(_DASHES_TABLE)


def strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def expand_ligatures(word: str) -> str:
    """``cœur`` → ``coeur``: word lists often spell the ligatures out."""
    return word.replace("œ", "oe").replace("Œ", "Oe").replace("æ", "ae").replace("Æ", "Ae")


@lru_cache(maxsize=1 << 16)
def fold(text: str) -> str:
    """Case-, accent- and apostrophe-insensitive key; hyphens count as spaces."""
    text = strip_accents(normalize_apostrophes(text)).casefold()
    text = expand_ligatures(text.replace("-", " "))
    return " ".join(text.split())


def slug(text: str) -> str:
    """A readable URI segment: ``Attaque d’opportunité`` → ``attaque-d-opportunite``."""
    return re.sub(r"[^a-z0-9]+", "-", fold(text)).strip("-") or "x"


def strip_elision(word: str) -> str:
    """``l'attaque`` → ``attaque``; works on folded words."""
    for prefix in ELISIONS:
        if word.startswith(prefix) and len(word) > len(prefix):
            return word[len(prefix):]
    return word


#: The stemmer's endings (lang/fr/words.toml, [stemming]).
_STEMMING = lang_words("stemming")
_PLURAL_KEPT = tuple(_STEMMING["plural_kept"])


@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """Light French stemmer for matching names: plural and feminine endings removed.

    insaisissables → insaisissabl, évasifs/évasive → evasif, volante → volant,
    encombrantes → encombrant, furieuse → furieux. Short words are left alone so that
    "PR" or "X" stay themselves.
    """
    word = strip_elision(fold(word))
    if len(word) < _STEMMING["min_length"]:
        return word
    for ending, replacement, min_length in _STEMMING["rewrites"]:
        if word.endswith(ending) and len(word) >= min_length:
            return word[: -len(ending)] + replacement
    for ending in _STEMMING["plural_endings"]:
        if word.endswith(ending) and not word.endswith(_PLURAL_KEPT):
            word = word[: -len(ending)]
            break
    feminine = _STEMMING["feminine_ending"]
    if word.endswith(feminine) and len(word) >= _STEMMING["feminine_min_length"]:
        word = word[: -len(feminine)]
    return word


@dataclass(frozen=True, slots=True)
class Token:
    """A word of a sentence with its character span, its surface form and its matching key."""

    surface: str
    start: int
    end: int
    key: str


_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)
_GLUED_NUMBER = re.compile(r"^([A-ZÀ-Ý]{2,5})(\d+)$")


def tokenize(text: str) -> list[Token]:
    """Split into word tokens; an elided article becomes its own token (d' + opportunité)."""
    return list(_tokens(text))


@lru_cache(maxsize=1 << 12)
def _tokens(text: str) -> tuple[Token, ...]:
    """The checks, the extractor and the scores read the same texts: each is split once."""
    tokens: list[Token] = []
    for match in _TOKEN.finditer(text):
        surface = match.group()
        start = match.start()
        plain = normalize_apostrophes(surface)
        while "'" in plain:
            head, _, rest = plain.partition("'")
            head_len = len(head) + 1
            tokens.append(Token(surface[:head_len], start, start + head_len, fold(head + "'")))
            surface, plain, start = surface[head_len:], rest, start + head_len
        glued = _GLUED_NUMBER.match(surface)
        if glued:
            # "PA3" is the abbreviation PA with the value 3: two tokens, so that "PA" matches.
            cut = glued.end(1)
            tokens.append(Token(surface[:cut], start, start + cut, stem(surface[:cut])))
            tokens.append(Token(surface[cut:], start + cut, start + len(surface), surface[cut:]))
            continue
        tokens.append(Token(surface, start, start + len(surface), stem(surface)))
    return tuple(tokens)


_SENTENCE_END = re.compile(r"(?<=[.!?…])[\s]+(?=[«\"(\[A-ZÀ-ÖØ-Þ0-9–—-])")
_ABBREVIATIONS = frozenset(word.casefold() for word in lang_words("text")["abbreviations"])


def _last_word(text: str) -> str:
    """``(cf.`` → ``cf.``: the word a full stop ends, without the brackets or quotes before it."""
    words = text.rsplit(None, 1)
    return words[-1].lstrip("([«\"'’") if words else ""


def split_sentences(text: str) -> list[tuple[int, str]]:
    """Sentences of a paragraph with their offsets; abbreviations such as "P.A." do not cut."""
    sentences: list[tuple[int, str]] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        candidate = text[start : match.start()]
        if _last_word(candidate).casefold() in _ABBREVIATIONS:
            continue
        if candidate.strip():
            sentences.append((start, candidate.strip()))
        start = match.end()
    tail = text[start:]
    if tail.strip():
        sentences.append((start, tail.strip()))
    return sentences


def edit_distance_at_most_one(a: str, b: str) -> bool:
    """True when a and b differ by at most one insertion, deletion or substitution."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        return a[i + 1 :] == b[i + 1 :]
    return a[i:] == b[i + 1 :]


def closest(word: str, candidates: list[str], limit: int = 3) -> list[str]:
    """Closest candidates, best first (hints for error messages): by folded similarity, else
    those sharing a word with ``word`` ("Tir à l'arc" → "Tir", "Tir défensif")."""
    import difflib

    keyed = {fold(c): c for c in candidates}
    # A short word needs a closer match: "Taupe" is not "Attaque" (0.67), "Fouiseur" is "Fouisseur".
    cutoff = 0.8 if len(fold(word)) <= 6 else 0.6
    similar = difflib.get_close_matches(fold(word), list(keyed), n=limit, cutoff=cutoff)
    if similar:
        return [keyed[k] for k in similar]
    words = {stem(t) for t in fold(word).split() if len(t) > 2}
    sharing = [c for k, c in sorted(keyed.items()) if words & {stem(t) for t in k.split()}]
    return sharing[:limit]


class _AlignedCharacters(dict):
    """A ``str.translate`` table built as characters are met: each folds to one character."""

    def __missing__(self, code: int) -> str:
        char = chr(code)
        if char in APOSTROPHES:
            folded = "'"
        elif char in "-‐‑‒":
            folded = " "
        else:
            folded = unicodedata.normalize("NFD", char)[0].lower()[:1] or " "
        self[code] = folded
        return folded


_ALIGNED = _AlignedCharacters()


@lru_cache(maxsize=1 << 12)
def fold_aligned(text: str) -> str:
    """Like :func:`fold` but keeps every character at its offset, for regexes whose match
    positions must map back to the original sentence."""
    return text.translate(_ALIGNED)


_ELIDING = re.compile(r"^[«\"“]?\s*[aeiouyàâäéèêëîïôöùûüœæh]", re.IGNORECASE)


def of_name(label: str) -> str:
    """``de « Fouisseur »`` but ``d’« Intimidation »`` (English: of “Fouisseur”): French elides
    "de" before a vowel or a mute h (an aspirated h is rare in ability names, so every h elides)."""
    from .i18n import _, pgettext

    if _ELIDING.match(label):
        return pgettext("before a vowel", "of “{name}”").format(name=label)
    return _("of “{name}”").format(name=label)


def before_name(phrase: str, label: str) -> str:
    """A phrase followed by a name, "de" elided before a vowel or a mute h: "annule les effets
    d’Insaisissable", "s’applique à Charge"; other languages' phrases are left as they are."""
    if _ELIDING.match(label) and (phrase.endswith(" de") or phrase == "de"):
        return f"{phrase[:-2]}d’{label}"
    return f"{phrase} {label}"


def cache_folder() -> Path:
    """``$RULEGRAPH_CACHE`` if set, else the user's cache folder (``~/.cache/rulegraph``): what
    is slow to compute and the same on every run (sentence parses, the French word list)."""
    if os.environ.get("RULEGRAPH_CACHE"):
        return Path(os.environ["RULEGRAPH_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rulegraph"


@lru_cache(maxsize=1)
def french_dictionary():
    """pyspellchecker's offline French word list with frequencies, loaded once and shared by the
    extractor (which ability names are ordinary words) and the spelling check. Edit distance 1
    keeps suggestions instant on long words. pyspellchecker decodes and lower-cases its gzipped
    JSON on every load (0.11 s, a tenth of a build); the lower-cased list is kept in the cache
    folder in marshal form, which loads in a quarter of that."""
    from spellchecker import SpellChecker

    words = _cached_french_words()
    if words is None:
        return SpellChecker(language="fr", distance=1)
    checker = SpellChecker(language=None, case_sensitive=True, distance=1)
    checker.word_frequency.load_json(words)
    return checker


def _cached_french_words() -> dict[str, int] | None:
    """The lower-cased French word list from the cache, written there on first use; None when the
    cache folder cannot be written (the caller then loads pyspellchecker's own file)."""
    from importlib.metadata import version

    from spellchecker import SpellChecker

    # The word list ships inside the package: its version names it (reading the half-megabyte
    # file to stamp the copy cost every cold build a few milliseconds).
    stamp = f"{version('pyspellchecker')}-{sys.version_info[0]}{sys.version_info[1]}"
    path = cache_folder() / f"french-words-{stamp}.marshal"
    try:
        return marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        pass
    words = dict(SpellChecker(language="fr", distance=1).word_frequency.dictionary)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(handle, "wb") as stream:
            stream.write(marshal.dumps(words))
        os.replace(temporary, path)
    except OSError:
        return None
    return words
