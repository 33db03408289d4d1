"""Split an ability heading into its bare name, parameters and keyword slots.

``Charisme (caractéristique) X/D`` → name ``Charisme``, slots ``caractéristique``, parameters ``X/D``;
``Peur X [X x 2 pts]`` → name ``Peur``, parameters ``X``, cost ``X x 2 pts``. Handles ``X``, ``D``, ``X/D``, ``X/Y``, ``(XX)``, ``/X``, ``/ X``, ``(n)``, ``+X``, a parameter
glued to an abbreviation (``PAx``, ``PA2``) and a type in parentheses such as ``(Passive)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .lang import words as lang_words
from .text import fold

_PARAM = r"\+?(?:XX|X|Y|D|N|n|\d+)(?:\+)?(?:\s*/\s*\+?(?:XX|X|Y|D|N|n|\d+))?"
_PARAM_RE = re.compile(rf"^{_PARAM}$")
# A match may not start inside a run of spaces (``(?<!\s)``): the leftmost match starts at the
# run's first space anyway, and starting at each of its spaces made a search quadratic.
_TRAILING_PAREN = re.compile(r"(?<!\s)\s*(?:\(([^()]*)\)|\[([^\[\]]*)\])\s*$")
_TRAILING_PARAM = re.compile(rf"(?<!\s)(?:\s+|\s*/\s*)({_PARAM})\s*$")
_TYPE_WORDS = {"passive", "active", "passif", "actif"}
_MAX_NAME_WORDS = 7
#: An abbreviation with its parameter glued on: "PAx", "PA2", "CCn". The letter is in lower case:
#: in capitals it ends a word ("POISON (X)" is Poison, not "POISO" with the parameter N).
_GLUED_PARAMETER = re.compile(r"^([A-ZÀ-Ý]{2,5})([xn]|\d+)$")
#: A cost after a name, in brackets: an amount, then a unit of lang/fr/words.toml ([names] cost_units).
#: Matched on folded text, with bounded parts (a scan stays linear): "6 pts", "-2 pts",
#: "X x 2 pts", "5 pts, équipage" (a qualifier after a comma).
_COST = re.compile(r"(?<!\w)[-+–]?(?:\d{{1,4}}|[xyn])(?:\s*[x×*/+]\s*(?:\d{{1,4}}|[xyn]))?\s*(?:{units})\.?"
                   r"(?:\s*,[^,()\[\]]{{0,40}})?$".format(
    units="|".join(map(re.escape, lang_words("names")["cost_units"]))))
COST_ATTRIBUTE: str = lang_words("names")["cost_attribute"]


@dataclass(frozen=True, slots=True)
class NameParts:
    name: str
    parameters: tuple[str, ...] = ()
    slots: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    cost: str | None = None


def is_parameter(token: str) -> bool:
    return bool(_PARAM_RE.match(token.strip()))


#: A footnote or class mark after a name ("Coup de grâce*", "Bénédiction†"): kept as a tag.
_TRAILING_MARK = re.compile(r"(?<![\s*†‡])\s*[*†‡]+$")


#: A rulebook's paragraph number before the name ("12.1 Charge de lances", "3. Esquive"): a
#: number with a dot, so that a name that starts with a number ("1000 Lames") keeps it.
_RULE_NUMBER = re.compile(r"^(?:§\s*)?(?:\d+(?:\.\d+)+\.?|\d+\.)\s+(?=\S)")


def parse_heading(heading: str) -> NameParts:
    """Peel a paragraph number off the start of a heading, then parameters, slots and kinds off
    its end, until only the name is left."""
    rest = " ".join(heading.replace("\u00a0", " ").split())
    rest = _RULE_NUMBER.sub("", rest, count=1)
    parameters: list[str] = []
    slots: list[str] = []
    kinds: list[str] = []
    cost: str | None = None
    while True:
        mark = _TRAILING_MARK.search(rest)
        if mark and mark.start() > 0:
            kinds.insert(0, mark.group().strip())
            rest = rest[: mark.start()].rstrip()
            continue
        paren = _TRAILING_PAREN.search(rest)
        if paren and paren.start() > 0:
            square = paren.group(1) is None
            inner = (paren.group(2) if square else paren.group(1)).strip()
            key = fold(inner)
            is_cost = _COST.search(key) is not None
            if square and not (is_cost or is_parameter(inner) or key in _TYPE_WORDS):
                break  # "[y]" that is no cost, parameter or type stays part of the name
            if cost is None and is_cost:
                cost = inner
            elif is_parameter(inner):
                parameters.insert(0, inner.replace(" ", ""))
            elif key in _TYPE_WORDS:
                kinds.insert(0, inner.lower())
            else:
                slots.insert(0, inner)
            rest = rest[: paren.start()].rstrip()
            continue
        param = _TRAILING_PARAM.search(rest)
        if param and param.start() > 0:
            parameters.insert(0, param.group(1).replace(" ", ""))
            rest = rest[: param.start()].rstrip()
            continue
        break
    glued = _GLUED_PARAMETER.match(rest)
    if glued:
        rest = glued.group(1)
        parameters.insert(0, glued.group(2))
    return NameParts(rest.rstrip(" /:"), tuple(parameters), tuple(slots), tuple(kinds), cost)


def without_rule_number(heading: str) -> str:
    """A heading without its paragraph number ("7.1 CAPACITÉS DE TIR" → "CAPACITÉS DE TIR")."""
    return _RULE_NUMBER.sub("", heading.strip(), count=1)


_LETTERS = re.compile(r"[^\W\d_]+")


def is_upper_case(text: str) -> bool:
    """Every letter in capitals, with a word of two letters or more ("ASSAUT CONCERTÉ", not "X")."""
    return any(len(word) > 1 for word in _LETTERS.findall(text)) and text == text.upper()


#: The apostrophe after an elided article ("D’OUVRAGE"): the letter before it is no parameter.
_ELIDED = re.compile(r"['’]")


def sentence_case(heading: str) -> str:
    """A heading written in capitals as a name is written in the rules ("FRAPPE PRÉVENTIVE" →
    "Frappe préventive", "TERREUR X" → "Terreur X"): words of two letters or more are lowered,
    a parameter letter stays, the first letter is a capital. Other headings are left alone."""
    if not is_upper_case(heading):
        return heading
    lowered = _LETTERS.sub(lambda word: word.group() if is_parameter(word.group()) and not _ELIDED.match(heading, word.end())
                           else word.group().lower(), heading)
    first = _LETTERS.search(lowered)
    return lowered if first is None else lowered[:first.start()] + lowered[first.start()].upper() + lowered[first.start() + 1:]


def looks_like_name(text: str) -> bool:
    """A heading is short and has no sentence punctuation; a rule sentence is not a name."""
    parts = parse_heading(text)
    words = parts.name.split()
    return 0 < len(words) <= _MAX_NAME_WORDS and not re.search(r"[,;.!?]", parts.name)
