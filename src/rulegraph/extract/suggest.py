"""A draft lexicon file for a game that has none: what its texts call states, rule sections,
equipment and characteristics, and which of its ability names are ordinary French words, each
with the sentence that suggested it, for the designer to confirm or delete.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass

from ..corpus import Corpus
from ..model import Entry
from ..text import fold
from .extractor import ABBREVIATION, discover_terms, game_lexicon, text_units
from .lexicon import build_lexicon, load_vocabulary, vocabulary_section

_MIN_ABBREVIATION_USES = 2
_SECTIONS = {"characteristic": "characteristics", "state": "states", "equipment": "concepts", "rule": "concepts", "term": "concepts"}


@dataclass(frozen=True, slots=True)
class Suggestion:
    section: str
    label: str
    why: str
    where: str


def suggest_lexicon(corpus: Corpus, game: str) -> list[Suggestion]:
    """What a lexicon file for ``game`` would hold, by section, from the game's texts."""
    spec = corpus.games[game]
    entries = corpus.entries(game)
    known_names = {fold(e.name) for e in entries}
    vocabulary = load_vocabulary(spec.lexicon)
    known = build_lexicon(game, [e.name for e in entries], vocabulary)
    already = {fold(label) for key in ("characteristics", "actions", "states", "concepts") for label in vocabulary_section(vocabulary, key)}
    out: list[Suggestion] = []
    first_use = _first_uses(entries)
    seen: set[tuple[str, ...]] = set()
    for name, kind in discover_terms(entries, known):
        forms = tuple(fold(word).rstrip("s").rstrip("e") for word in name.split())  # Sonné, Sonnée, Sonnés
        if kind == "ability" or fold(name) in already or forms in seen:
            continue
        seen.add(forms)
        why = {"characteristic": "an abbreviation written with a number", "state": "a participle after être/devenir", "equipment": "what a bearer carries",
               "rule": "named after voir/cf.", "term": "quoted"}[kind]
        out.append(Suggestion(_SECTIONS[kind], name, why, first_use.get(fold(name), "")))
    uses: Counter[str] = Counter()
    where: dict[str, str] = {}
    for entry in entries:
        for unit in text_units(entry):
            for match in ABBREVIATION.finditer(unit.paragraph.text):
                word = match.group(1)
                uses[word] += 1
                where.setdefault(word, f"{entry.source}:{unit.paragraph.line_at(match.start())}")
    excluded = known_names | already | {fold(s.label) for s in out}
    for word, count in sorted(uses.items()):
        if count >= _MIN_ABBREVIATION_USES and fold(word) not in excluded:
            out.append(Suggestion("characteristics", word, f"an abbreviation used {count} times", where[word]))
    lexicon = game_lexicon(corpus, game)
    for term in sorted({t.label: t for t in lexicon.terms if t.kind == "ability" and t.ambiguous and fold(t.label) in known_names}.values(),
                       key=lambda t: fold(t.label)):
        if fold(term.label) not in {fold(w) for w in vocabulary.get("ambiguous", [])}:
            out.append(Suggestion("ambiguous", term.label, "an ordinary French word: counted as the ability only in context", ""))
    return out


def _first_uses(entries: list[Entry]) -> dict[str, str]:
    uses: dict[str, str] = {}
    for entry in entries:
        for unit in text_units(entry):
            for word_match in re.finditer(r"[A-ZÀ-ÝŒÆ][\w’'\-]*(?:\s+[\w’'\-]+){0,3}", unit.paragraph.text):
                words = word_match.group().split()
                for size in range(len(words), 0, -1):
                    key = fold(" ".join(words[:size]))
                    uses.setdefault(key, f"{entry.source}:{unit.paragraph.line_at(word_match.start())}")
    return uses


def format_lexicon_draft(game_name: str, suggestions: list[Suggestion]) -> str:
    """The draft as a TOML lexicon file, one commented line per suggestion."""
    lines = [f"# Draft lexicon for {game_name}, written by 'rulegraph lexicon suggest'.",
             "# Every line is a guess from the texts: keep what is right, delete the rest, then name",
             "# this file as the game's lexicon in corpus.toml (lexicon = \"...\").", ""]
    for section in ("characteristics", "actions", "states", "concepts", "ambiguous"):
        chosen = [s for s in suggestions if s.section == section]
        lines.append(f"{section} = [")
        for suggestion in chosen:
            comment = suggestion.why + (f", {suggestion.where}" if suggestion.where else "")
            lines.append(f"  {json.dumps(suggestion.label, ensure_ascii=False)},  # {comment}")
        lines.append("]")
    return "\n".join(lines) + "\n"
