"""What a table's column or an app file's field holds, read off its name: the usual names of
each kind, and one matcher shared by the CSV and JSON readers (and the extractor, for the
prerequisites and incompatibilities). A spreadsheet's header is often compound ("Précisions / interactions", "Coût
(pts)"): a name matches a kind when it is one of the kind's names, or when one of its parts is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..lang import words as lang_words
from ..text import fold

NAME_FIELDS = ("nom", "name", "titre", "title", "label", "libelle", "intitule", "designation", "denomination")
TEXT_FIELDS = ("texte", "text", "description", "effet", "effect", "regle", "rule", "desc")
#: Fields that go on with the rule (a publisher's "clarification" column, an "errata" field): read
#: as more paragraphs of the ability's text, after the text field's.
MORE_TEXT_FIELDS = ("clarification", "clarifications", "precision", "precisions", "errata", "faq", "interactions",
                    "exceptions", "restrictions", "details", "complement", "complements")
#: Fields that list what an ability requires ("prérequis: Foreuse à percussion"): kept as
#: attributes, read by the extractor as requires edges.
PREREQUISITE_FIELDS = ("prerequis", "prerequisite", "prerequisites", "requis", "pre-requis", "prereq", "requires")
#: Fields that list what an ability cannot be combined with ("incompatible_avec": ["Volée"]):
#: kept as attributes, read by the extractor as excludes edges.
EXCLUSION_FIELDS = ("incompatible", "incompatible avec", "incompatibilite", "incompatibilites", "incompatibles",
                    "exclusions", "exclusion", "exclut", "excludes", "incompatible with", "non cumulable avec",
                    "interdit avec")
#: Fields that list related abilities ("voir_aussi": ["Boussole de maître"]): kept as
#: attributes, read by the extractor as references edges.
SEE_ALSO_FIELDS = ("voir aussi", "voir", "see also", "liens", "capacites liees", "related")
CATEGORY_FIELDS = ("categorie", "category", "groupe", "group", "section")
TAG_FIELDS = ("tags", "tag", "etiquettes", "mots cles", "keywords")
#: A designer's notes beside the rule (a spreadsheet's "notes" column): notes, not attributes.
NOTE_FIELDS = ("notes", "note", "remarques", "remarque", "commentaires", "commentaire", "notes de conception",
               "notes du concepteur", "comments", "comment")

#: What separates the parts of a compound header: a slash, an ampersand, a comma, a plus sign,
#: brackets, or a joining word (``header_glue``).
_PARTS = re.compile(r"[/&,;+|()\[\]]|\b(?:" + "|".join(map(re.escape, lang_words("fields")["header_glue"])) + r")\b")


def key(name: str) -> str:
    """The folded name; an app's ``snake_case`` key reads as words ("mots_cles", "incompatible_avec")."""
    return " ".join(fold(name).replace("_", " ").split())


def parts(name: str) -> list[str]:
    """The folded name, then each of its parts."""
    folded = key(name)
    split = (part.strip() for part in _PARTS.split(folded))
    return [folded, *(part for part in split if part and part != folded)]


def matches(name: str, usual: tuple[str, ...]) -> bool:
    return any(part in usual for part in parts(name))


def find(names: Iterable[str], usual: tuple[str, ...], taken: Iterable[str] = ()) -> str | None:
    """The first name of one of the usual names, else the first with a part that is one; names in
    ``taken`` are skipped (a column already read as another kind)."""
    skipped = set(taken)
    candidates = [n for n in names if n not in skipped]
    exact = {key(n): n for n in reversed(candidates)}
    for wanted in usual:
        if wanted in exact:
            return exact[wanted]
    return next((n for n in candidates if matches(n, usual)), None)
