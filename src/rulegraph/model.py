"""Plain records that flow from the readers through the extractor to the graph builder."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

CHARACTER = "character"
WEAPON = "weapon"
#: The classes of defined abilities (rg:CharacterAbility, rg:WeaponAbility) a manifest maps to.
CATEGORIES = (CHARACTER, WEAPON)
#: The kinds of term a glossary section may list instead of abilities ("Caractéristiques des
#: joueurs", "Tableau des Événements (2D6)"): its entries become terms of that kind, not abilities.
TERM_KINDS = ("state", "characteristic", "action", "equipment", "rule")


@dataclass(frozen=True, slots=True)
class Paragraph:
    """A run of rule text and the line it starts on, so evidence can point at its line.

    ``marked`` keeps the phrases the author emphasised (``_Nom_``): a hint that they are names.
    ``breaks`` holds where each further source line starts, for a paragraph written over several.
    ``page`` is the page it starts on, for a source that has pages (PDF), and ``page_breaks``
    the offsets where each following page starts.
    """

    text: str
    line: int
    heading: str | None = None
    marked: tuple[str, ...] = ()
    breaks: tuple[int, ...] = ()
    page: int | None = None
    page_breaks: tuple[int, ...] = ()

    def line_at(self, offset: int) -> int:
        """The source line of a character of ``text``: a paragraph joined from several lines
        keeps in ``breaks`` the offset where each following line starts."""
        return self.line + bisect_right(self.breaks, offset)

    def page_at(self, offset: int) -> int | None:
        """The page of a character of ``text``, for a paragraph that runs over a page break."""
        return None if self.page is None else self.page + bisect_right(self.page_breaks, offset)


@dataclass(frozen=True, slots=True)
class Note:
    """A designer's open question (``=> à simplifier ?``) and the sentence it questions."""

    text: str
    questioned: str
    line: int


@dataclass(frozen=True, slots=True)
class EditionText:
    """One edition's version of an ability; ``paragraphs`` is empty when the edition lacks it."""

    edition: str
    line: int
    paragraphs: tuple[Paragraph, ...] = ()

    @property
    def present(self) -> bool:
        return bool(self.paragraphs)

    @property
    def text(self) -> str:
        return "\n".join(p.text for p in self.paragraphs)


@dataclass(frozen=True, slots=True)
class Variant:
    """Another definition of the same name with a different text: a conflict kept for the report."""

    text: str
    source: str
    line: int


@dataclass(slots=True)
class Entry:
    """One ability as a glossary defines it.

    ``category`` is the class it becomes (character or weapon ability); ``glossary_category``
    is the glossary's own category (a section heading, a JSON key, a CSV column), kept as data.
    ``attributes`` are the other fields of an app's record (id, cost, range…), not lost.
    """

    name: str
    heading: str
    game: str
    source: str
    line: int
    category: str = CHARACTER
    parameters: tuple[str, ...] = ()
    slots: tuple[str, ...] = ()
    paragraphs: tuple[Paragraph, ...] = ()
    tags: tuple[str, ...] = ()
    notes: tuple[Note, ...] = ()
    editions: tuple[EditionText, ...] = ()
    duplicate_lines: list[int] = field(default_factory=list)
    variants: list[Variant] = field(default_factory=list)
    glossary_category: str = ""
    attributes: tuple[tuple[str, str], ...] = ()
    page: int | None = None

    @property
    def text(self) -> str:
        return "\n".join(p.text for p in self.paragraphs)

    @property
    def occurrences(self) -> int:
        return 1 + len(self.duplicate_lines)


@dataclass(slots=True)
class Document:
    """What a reader returns for one file: its entries and any general rules before them."""

    source: str
    game: str
    entries: list[Entry] = field(default_factory=list)
    preamble: tuple[Paragraph, ...] = ()
    #: Paragraphs that speak of the abilities outside their entries: beside a Markdown table of
    #: abilities, or a section of prose after the entries ("## Combos interdits"). Each sentence
    #: is read as if written in the text of the first ability it names.
    commentary: tuple[Paragraph, ...] = ()
    #: The lines of a section after the entries whose title names a relation ("Capacités non
    #: cumulables", "Incompatibilités"), with that relation: each line that names two abilities
    #: or more ("fourrageurs / ordre serré") gives the relation from the first to the others.
    relation_lists: tuple[tuple[str, Paragraph], ...] = ()
    #: The entries of a section that lists states, characteristics, actions or equipment (see
    #: :data:`TERM_KINDS`), as (kind, name, line): terms of the game, their texts in the preamble.
    terms: tuple[tuple[str, str, int], ...] = ()
    #: The paragraphs that present a category of the glossary (an app's category or faction
    #: record's description), with the category's label: read as that category's own text, where
    #: "ces compétences" and "aucune d'entre elles" are each of its abilities.
    category_texts: tuple[tuple[str, Paragraph], ...] = ()
    #: A section's text before its entries (Markdown, chapter), with the section's title. It mixes
    #: rules, flavour and factions: read as a category's own text, it gave a blind wiki eleven
    #: false alarms and no true link. A sentence there is said of each ability of the section
    #: only when it also names the other ability by its bearers ("Aucune d'elles ne peut être
    #: prise par un combattant doté d'Aéronaute"); the rest is read as preamble.
    section_texts: tuple[tuple[str, Paragraph], ...] = ()

    @property
    def general_rules(self) -> tuple[Paragraph, ...]:
        """Every paragraph outside the entries (preamble, commentary, relation lists, category
        and section texts), in the file's order."""
        listed = (paragraph for _relation, paragraph in self.relation_lists)
        presented = (paragraph for _category, paragraph in (*self.category_texts, *self.section_texts))
        return tuple(sorted((*self.preamble, *self.commentary, *listed, *presented), key=lambda paragraph: paragraph.line))


@dataclass(frozen=True, slots=True)
class TermRef:
    """A node named by a rule text: its game, kind (ability, state, action…) and label."""

    game: str
    kind: str
    label: str


@dataclass(frozen=True, slots=True)
class Statement:
    """One interaction or term link the extractor found, with the evidence behind it."""

    subject: TermRef
    relation: str
    object: TermRef
    sentence: str
    source: str
    line: int
    method: str = "extracted"
    condition: str | None = None
    #: Whom or where the effect holds ("pour les adversaires présents dans sa zone de contrôle").
    scope: str | None = None
    cue: str | None = None
    amount: str | None = None
    recipient: str | None = None
    edition: str | None = None
    reason: str | None = None
    #: How sure the relation typer is of ``relation`` (0–1, calibrated), and what decided it.
    confidence: float | None = None
    rule: str | None = None
    #: The relation the typer thinks likely, on an edge left as references for want of confidence.
    suggested: str | None = None
    #: Where the sentence names the other ability, where it names the ability itself, and whose
    #: text the sentence is in: what the typer reads (not written to the graph).
    span: tuple[int, int] | None = field(default=None, compare=False)
    selves: tuple[tuple[int, int], ...] = field(default=(), compare=False)
    owner: str | None = field(default=None, compare=False)
    #: Said of a whole category and applied to this member ("perd ses capacités de Survie").
    via_category: bool = field(default=False, compare=False)
    #: The owner's definition names a target or a victim: an ability that acts on others, whose
    #: "perd X" is said of them (negates) rather than of the bearer (cancels).
    owner_targets: bool = field(default=False, compare=False)
    #: The relation the sentence denies ("n'obtient pas Berserk": grants): the typer never
    #: asserts it, whatever the words around suggest.
    denied: str | None = field(default=None, compare=False)
