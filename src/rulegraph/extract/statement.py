"""The extractor's output: one interaction or term link, with the evidence behind it."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class TermRef:
    """A node named by a rule text: its game, kind (ability, state, action…) and label."""

    game: str
    kind: str
    label: str


@dataclass(frozen=True, slots=True)
class Statement:
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
