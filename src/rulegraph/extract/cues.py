"""Relation cues: regular expressions over folded French, loaded from a TOML data file."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ..errors import RulegraphError
from ..namespaces import INTERACTIONS

DIRECTIONS = ("auto", "forward", "backward", "reverse")


@dataclass(frozen=True, slots=True)
class Cue:
    relation: str
    pattern: re.Pattern[str]
    direction: str = "auto"


@dataclass(frozen=True, slots=True)
class CueMatch:
    cue: Cue
    start: int
    end: int
    text: str


def parse_cues(text: str, *, path: str) -> list[Cue]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RulegraphError(f"invalid TOML: {error}", path=path) from None
    cues = []
    for index, raw in enumerate(data.get("cue", []), start=1):
        relation, direction = raw.get("relation"), raw.get("direction", "auto")
        if relation not in INTERACTIONS:
            raise RulegraphError(f"cue #{index}: relation {relation!r} must be one of {', '.join(INTERACTIONS)}", path=path)
        if direction not in DIRECTIONS:
            raise RulegraphError(f"cue #{index}: direction {direction!r} must be one of {', '.join(DIRECTIONS)}", path=path)
        try:
            pattern = re.compile(raw["pattern"])
        except (KeyError, re.error) as error:
            raise RulegraphError(f"cue #{index}: bad or missing pattern ({error})", path=path) from None
        cues.append(Cue(relation, pattern, direction))
    return cues


def default_cues() -> list[Cue]:
    text = resources.files("rulegraph.resources").joinpath("cues.toml").read_text(encoding="utf-8")
    return parse_cues(text, path="rulegraph/resources/cues.toml")


def load_cues(path: Path | None = None) -> list[Cue]:
    if path is None:
        return default_cues()
    return parse_cues(path.read_text(encoding="utf-8"), path=str(path))


def find_cues(folded: str, cues: list[Cue]) -> list[CueMatch]:
    """Cue matches, earliest first; where two overlap, the one listed first in the file wins."""
    found: list[CueMatch] = []
    for cue in cues:
        for match in cue.pattern.finditer(folded):
            if any(m.start < match.end() and match.start() < m.end for m in found):
                continue
            found.append(CueMatch(cue, match.start(), match.end(), match.group()))
    return sorted(found, key=lambda m: m.start)
