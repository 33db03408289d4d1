"""The extractor's output: one interaction or term link, with the evidence behind it."""

from __future__ import annotations

from dataclasses import dataclass


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
    cue: str | None = None
    amount: str | None = None
    recipient: str | None = None
    edition: str | None = None
    reason: str | None = None
