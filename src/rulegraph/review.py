"""The review loop: the edges the typer was unsure of, and the designer's answer to each, written
as an entry appended to the curation file so that it lasts across rebuilds and retraining.

An edge is named by a short ID made from what does not change when the model does (game, the two
abilities, file, line and sentence), so an ID stays valid after ``make train``. Answers are only
ever appended: an existing curation entry is never rewritten.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from .corpus import Corpus
from .errors import RulegraphError
from .extract.curation import CURATION_FILE, curation_path, load_curation
from .extract.typer import is_candidate
from .i18n import _, decimal
from .model import Statement
from .namespaces import INTERACTIONS
from .text import fold

ACTIONS = ("accept", "retype", "remove")
_HEADER = """# Curation: a designer's corrections to the extracted edges (see 'rulegraph review').
# rulegraph appends to this file and never rewrites an entry in it.
"""


@dataclass(frozen=True, slots=True)
class ReviewItem:
    """An edge to look at: the typer's suggestion and how sure it was."""

    id: str
    statement: Statement
    suggested: str | None
    #: The suggested edge, oriented ("Fouisseur cancels Attaque d'opportunité").
    suggested_edge: str | None

    @property
    def game(self) -> str:
        return self.statement.subject.game


def edge_id(statement: Statement) -> str:
    return review_id(statement.subject.game, statement.subject.label, statement.object.label,
                     statement.source, statement.line, statement.sentence)


def review_id(game: str, subject: str, obj: str, source: str, line: int, sentence: str) -> str:
    """The ID of :func:`edge_id` from the plain values, as the graph's rg:Statement holds them
    (the consistency report and the atlas name edges by the same IDs as ``rulegraph review``)."""
    ends = sorted((fold(subject), fold(obj)))
    key = "\0".join([game, *ends, source, str(line), sentence])
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:8]


def review_items(statements: list[Statement], *, game: str | None = None, below: float | None = None) -> list[ReviewItem]:
    """The edges left as references with a suggested relation ("à vérifier"), and, with
    ``below``, every typed edge whose confidence is under it; least sure first."""
    items = []
    for statement in statements:
        if statement.relation not in INTERACTIONS or not is_candidate(statement) or statement.method == "curated":
            continue
        if game is not None and statement.subject.game != game:
            continue
        unsure = statement.suggested is not None
        low = below is not None and statement.confidence is not None and statement.confidence < below
        if unsure or low:
            items.append(ReviewItem(edge_id(statement), statement, statement.suggested,
                                    statement.reason if statement.suggested else None))
    return sorted(items, key=lambda item: (item.statement.confidence or 0.0, item.statement.source, item.statement.line))


def find_item(items: list[ReviewItem], statements: list[Statement], wanted: str) -> ReviewItem:
    """The edge of an ID shown by ``rulegraph review`` (any interaction edge, listed or not)."""
    for item in items:
        if item.id == wanted:
            return item
    for statement in statements:
        if statement.relation in INTERACTIONS and is_candidate(statement) and edge_id(statement) == wanted:
            return ReviewItem(wanted, statement, statement.suggested, statement.reason if statement.suggested else None)
    raise RulegraphError(_("no edge with ID {wanted!r}; run 'rulegraph review' to list the IDs").format(wanted=wanted))


def _toml(value: str) -> str:
    """A TOML basic string: JSON's escapes are a subset of TOML's."""
    return json.dumps(value, ensure_ascii=False)


def curation_entry(item: ReviewItem, action: str, *, relation: str | None = None, reason: str | None = None) -> str:
    """The TOML block that records the designer's answer."""
    statement = item.statement
    if action not in ACTIONS:
        raise RulegraphError(_('unknown review action {action!r}; use one of: {actions}').format(action=action, actions=', '.join(ACTIONS)))
    subject, obj = statement.subject.label, statement.object.label
    if action == "accept" and item.suggested is None:
        # A typed edge listed by --below: the designer confirms the relation the typer asserted.
        relation = statement.relation
        reason = reason or f"confirmed in review (the typer asserted {relation}, confidence {statement.confidence})"
    elif action == "accept":
        relation = item.suggested
        if item.suggested_edge:
            subject, obj = _suggested_ends(item)
        reason = reason or f"accepted in review (the typer suggested {relation}, confidence {statement.confidence})"
    elif action == "retype":
        if relation not in INTERACTIONS:
            raise RulegraphError(_('relation {relation!r} must be one of {interactions}').format(relation=relation, interactions=', '.join(INTERACTIONS)))
        if item.suggested_edge and relation == item.suggested:
            subject, obj = _suggested_ends(item)
        reason = reason or f"retyped in review (was {statement.relation})"
    elif not reason:
        raise RulegraphError(_('--remove needs --reason "why this edge is wrong"'))
    lines = [f"[[{'remove' if action == 'remove' else 'retype'}]]",
             f"game = {_toml(statement.subject.game)}",
             f"subject = {_toml(subject)}"]
    if action == "remove":
        lines.append(f"relation = {_toml(statement.relation)}")
    else:
        lines += [f"was = {_toml(statement.relation)}", f"relation = {_toml(relation or '')}"]
    lines += [f"object = {_toml(obj)}", f"reason = {_toml(reason or '')}"]
    return "\n".join(lines) + "\n"


def _suggested_ends(item: ReviewItem) -> tuple[str, str]:
    statement = item.statement
    return suggested_ends(statement.subject.label, statement.object.label, item.suggested_edge or "")


def proposal(item: ReviewItem) -> tuple[str, str, str]:
    """(subject, relation, object) the designer is asked about: the suggestion, or the typed edge."""
    statement = item.statement
    if item.suggested:
        first, second = _suggested_ends(item)
        return first, item.suggested, second
    return statement.subject.label, statement.relation, statement.object.label


def confidence_text(item: ReviewItem) -> str:
    """The edge's confidence with the user's decimal mark, "?" when it has none."""
    value = item.statement.confidence
    return "?" if value is None else decimal(value)


def suggested_ends(subject: str, obj: str, suggested_edge: str) -> tuple[str, str]:
    """(subject, object) of the suggested edge: the typer may suggest the reverse direction
    ("Infiltration immuneTo Sentinelle" on the edge Sentinelle references Infiltration)."""
    if suggested_edge.startswith(obj + " ") and suggested_edge.endswith(" " + subject):
        return obj, subject
    return subject, obj


def append_to_curation(manifest: Path, block: str, corpus: Corpus) -> Path:
    """Append one entry to the manifest's curation file; if the file then fails to load, put
    it back exactly as it was and say why."""
    path = curation_path(manifest)
    before = path.read_bytes() if path.exists() else None
    text = (before.decode("utf-8") if before is not None else _HEADER)
    if text and not text.endswith("\n"):
        text += "\n"
    try:
        path.write_text(text + "\n" + block, encoding="utf-8")
        load_curation(path, corpus)
    except RulegraphError:
        if before is None:
            path.unlink(missing_ok=True)
        else:
            path.write_bytes(before)
        raise
    except OSError as error:
        raise RulegraphError(_('cannot write {curation_file} ({strerror})').format(curation_file=CURATION_FILE, strerror=error.strerror or error), path=path) from None
    return path
