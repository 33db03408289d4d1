"""A designer's corrections to the extracted edges, kept in a TOML file next to the manifest.

``[[add]]`` states an edge the text implies but the extractor cannot read, ``[[remove]]`` drops
one it got wrong, ``[[retype]]`` changes its relation (or direction). Every entry gives a reason.
The file is applied on every build and never written by the tool; names are resolved the way
the extractor matches them, and an entry naming an ability the game does not know is an error
with the file's line.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..corpus import Corpus
from ..errors import RulegraphError
from ..i18n import _
from ..model import Statement, TermRef
from ..namespaces import INTERACTIONS, SYMMETRIC
from ..text import fold
from ..tomlfile import TomlFile, load_toml, parse_toml
from .extractor import game_lexicon, text_units
from .lexicon import Lexicon

CURATION_FILE = "curation.toml"
ACTIONS = ("add", "remove", "retype")
RECIPIENTS = ("bearer", "ally", "opponent")
_SCHEMAS = {
    "add": dict.fromkeys(("game", "subject", "relation", "object", "reason", "sentence", "condition", "recipient"), "text"),
    "remove": dict.fromkeys(("game", "subject", "relation", "object", "reason"), "text"),
    "retype": dict.fromkeys(("game", "subject", "relation", "object", "reason", "was", "condition", "recipient"), "text"),
}


@dataclass(frozen=True, slots=True)
class CurationEntry:
    """One correction: what to do, to which edge, why, and where it is written."""

    action: str
    subject: TermRef
    relation: str
    object: TermRef
    reason: str
    path: str
    line: int
    sentence: str | None = None
    condition: str | None = None
    recipient: str | None = None
    was: str | None = None


def curation_path(manifest: Path) -> Path:
    """The curation file belonging to a manifest: ``curation.toml`` in the same folder."""
    return manifest.parent / CURATION_FILE


def parse_curation(text: str, corpus: Corpus, *, path: str | Path, named: Iterable[TermRef] = ()) -> list[CurationEntry]:
    """Check every entry against the corpus and resolve its names to the lexicon's labels;
    ``named`` are abilities the statements already name (undefined ones among them), resolved
    without building a lexicon."""
    curation = parse_toml(text, Path(path))
    data = curation.data
    unknown = sorted(set(data) - set(ACTIONS))
    if unknown or not all(isinstance(data.get(a, []), list) for a in ACTIONS):
        raise curation.error(f"unknown table {', '.join(unknown) or 'form'}; use [[add]], [[remove]] or [[retype]] tables")
    lexicons: dict[str, Lexicon] = {}
    defined: dict[str, dict[str, str]] = {}
    for ref in named:
        if ref.kind == "ability":
            defined.setdefault(ref.game, {})[fold(ref.label)] = ref.label
    for game in corpus.games:
        defined.setdefault(game, {}).update((fold(e.name), e.name) for e in corpus.entries(game))
    entries = []
    for action in ACTIONS:
        for raw, line in zip(data.get(action, []), curation.table_lines(action)):
            entries.append(_entry(action, raw, corpus, (lexicons, defined), curation, line))
    return sorted(entries, key=lambda e: e.line)


def _entry(action: str, raw: dict[str, Any], corpus: Corpus, names: tuple[dict[str, Lexicon], dict[str, dict[str, str]]],
           curation: TomlFile, line: int) -> CurationEntry:
    """One entry, checked; its names resolved through the game's defined names (folded), else
    its lexicon (``names`` keeps both per game, built once)."""
    lexicons, defined = names
    def fail(message: str, key: str | None = None) -> RulegraphError:
        return curation.error(f"[[{action}]]: {message}", key=key, start=line)

    curation.check(raw, _SCHEMAS[action], start=line, where=f" in [[{action}]]")
    for key in ("game", "subject", "relation", "object", "reason"):
        if not raw.get(key, "").strip():
            raise fail(f"needs {key} = \"...\"")
    game = raw["game"]
    if game not in corpus.games:
        raise fail(f"game {game!r} is not in the manifest (games: {', '.join(corpus.games)})", "game")
    for key in ("relation", "was"):
        if key in raw and raw[key] not in INTERACTIONS:
            raise fail(f"{key} {raw[key]!r} must be one of {', '.join(INTERACTIONS)}", key)
    if "recipient" in raw and raw["recipient"] not in RECIPIENTS:
        raise fail(f"recipient {raw['recipient']!r} must be one of {', '.join(RECIPIENTS)}", "recipient")
    def ability(key: str) -> TermRef:
        # A name the glossary defines or the statements use, as written (any case or accents),
        # needs no lexicon: building one means reading every text for the names it uses, a
        # tenth of a second on the seeds.
        if fold(raw[key]) in defined[game]:
            return TermRef(game, "ability", defined[game][fold(raw[key])])
        if game not in lexicons:
            lexicons[game] = game_lexicon(corpus, game)
        lexicon = lexicons[game]
        term = lexicon.lookup(raw[key])
        if term is None or term.kind != "ability":
            hints = lexicon.closest(raw[key], kind="ability")
            hint = f"; did you mean {' or '.join(hints)}?" if hints else ""
            raise fail(f"{raw[key]!r} is not an ability of {game}{hint}", key)
        return TermRef(game, "ability", term.label)

    subject = ability("subject")
    if raw.get("sentence") and _locate(raw["sentence"], subject, corpus) is None:
        raise fail(f"the sentence is not in the text of {subject.label!r}; quote it as the glossary writes it", "sentence")
    return CurationEntry(
        action, subject, raw["relation"], ability("object"), raw["reason"].strip(), str(curation.path), line,
        sentence=raw.get("sentence"), condition=raw.get("condition"), recipient=raw.get("recipient"), was=raw.get("was"),
    )


def load_curation(path: Path, corpus: Corpus, named: Iterable[TermRef] = ()) -> list[CurationEntry]:
    curation = load_toml(path)
    return parse_curation(curation.text, corpus, path=path, named=named)


def _same_edge(statement: Statement, entry: CurationEntry, relation: str | None) -> bool:
    if relation is not None and statement.relation != relation:
        return False
    if relation is None and statement.relation not in INTERACTIONS:
        return False
    ends = (fold(statement.subject.label), fold(statement.object.label))
    wanted = (fold(entry.subject.label), fold(entry.object.label))
    if statement.subject.game != entry.subject.game or statement.object.kind != "ability":
        return False
    if ends == wanted:
        return True
    symmetric = relation is None or relation in SYMMETRIC
    return symmetric and ends == wanted[::-1]


def apply_curation(statements: list[Statement], entries: list[CurationEntry], corpus: Corpus | None = None) -> list[Statement]:
    """The statements with every correction applied; a remove or retype that matches no edge is
    an error, so a correction the extractor has made unnecessary does not linger unnoticed."""
    result = list(statements)
    for entry in entries:
        if entry.action == "add":
            result.append(_added(entry, corpus))
            continue
        relation = entry.relation if entry.action == "remove" else entry.was
        matching = [s for s in result if _same_edge(s, entry, relation)]
        if not matching and entry.action == "retype" and relation is not None:
            # The typer is retrained as gold grows: a retype names the pair, and 'was' the
            # relation it had then; the designer's relation holds whatever the typer says now.
            matching = [s for s in result if _same_edge(s, entry, None)]
        if not matching:
            wanted = f"{entry.subject.label} {relation or '(any relation)'} {entry.object.label}"
            raise RulegraphError(_('[[{action}]]: no extracted edge {wanted}; delete or correct this entry').format(action=entry.action, wanted=wanted), path=entry.path, line=entry.line)
        result = [s for s in result if not any(s is m for m in matching)]
        if entry.action == "retype":
            result += _retyped(matching, entry)
    return result


def curate(statements: list[Statement], corpus: Corpus, manifest: Path) -> list[Statement]:
    """Apply the manifest's curation file, when there is one."""
    path = curation_path(manifest)
    if not path.exists():
        return statements
    named = {ref for statement in statements for ref in (statement.subject, statement.object)}
    return apply_curation(statements, load_curation(path, corpus, named), corpus)


def _retyped(matching: list[Statement], entry: CurationEntry) -> list[Statement]:
    seen, out = set(), []
    for statement in matching:
        key = (statement.sentence, statement.source, statement.line, statement.edition)
        if key in seen:
            continue
        seen.add(key)
        out.append(replace(
            statement, subject=entry.subject, relation=entry.relation, object=entry.object, method="curated",
            reason=entry.reason, condition=entry.condition or statement.condition, cue=None,
            confidence=1.0, rule="curation", suggested=None,
            recipient=(entry.recipient or statement.recipient) if entry.relation == "grants" else None,
        ))
    return out


def _added(entry: CurationEntry, corpus: Corpus | None) -> Statement:
    source, line = Path(entry.path).name, entry.line
    if entry.sentence and corpus is not None:
        found = _locate(entry.sentence, entry.subject, corpus)
        if found is not None:
            source, line = found
    return Statement(
        subject=entry.subject, relation=entry.relation, object=entry.object,
        sentence=entry.sentence or entry.reason, source=source, line=line, method="curated",
        condition=entry.condition, recipient=entry.recipient, reason=entry.reason,
        confidence=1.0, rule="curation",
    )


def _locate(sentence: str, subject: TermRef, corpus: Corpus) -> tuple[str, int] | None:
    """The source file and line of the subject's paragraph that holds the quoted sentence."""
    wanted = fold(sentence)
    for entry in corpus.entries(subject.game):
        if fold(entry.name) != fold(subject.label):
            continue
        for unit in text_units(entry):
            if wanted in fold(unit.paragraph.text):
                return unit.entry.source, unit.paragraph.line
    return None
