"""Word diffs (``[-old-]{+new+}``, or red and green on a terminal), edition pairs and histories,
and the comparison of two builds."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..i18n import _, labelled, quoted
from .answers import edge_sentence
from .tables import format_table

if TYPE_CHECKING:
    from ..editions import EditionDiff, RevisionDiff

_RED, _GREEN, _BOLD, _RESET = "\033[31;9m", "\033[32m", "\033[1m", "\033[0m"


#: Unchanged words shown on each side of a change; the rest of an unchanged run is elided.
_CONTEXT_WORDS = 8


def render_diff(text_diff: list[dict[str, str]], colour: bool, context: int | None = _CONTEXT_WORDS) -> str:
    """``[-old-]{+new+}`` (or red/green on a terminal); long unchanged runs keep ``context``
    words on each side of a change."""
    from ..worddiff import diff_segments

    segments = diff_segments(text_diff)
    marks = {"delete": (_RED, _RESET) if colour else ("[-", "-]"), "insert": (_GREEN, _RESET) if colour else ("{+", "+}")}
    parts = []
    for index, (kind, text) in enumerate(segments):
        if kind == "equal":
            parts.append(_elide(text, context, index > 0, index < len(segments) - 1))
        else:
            parts.append(f"{marks[kind][0]}{text}{marks[kind][1]}")
    return "".join(parts)


def _elide(text: str, context: int | None, before: bool, after: bool) -> str:
    words = re.findall(r"\S+\s*", text)
    if context is None or len(words) <= 2 * context + 1:
        return text
    head = "".join(words[:context]).rstrip() + " " if before else ""
    tail = "".join(words[-context:]) if after else ""
    return f"{head}…{' ' if after else ''}{tail}"


def _relation_lines(title: str, relations: Sequence[Mapping[str, object]]) -> list[str]:
    lines = [labelled(title, str(len(relations)))]
    for relation in relations:
        where = f" [{relation['edition']}]" if relation.get("edition") else ""
        edge = edge_sentence(str(relation["subject"]), str(relation["relation"]), str(relation["object"])) + where
        lines.append("  " + _("{edge} (line {line})").format(edge=edge, line=relation["line"]))
        if relation.get("evidence"):
            lines.append(f"    {quoted(str(relation['evidence']))}")
    return lines


def render_pair(result: EditionDiff, colour: bool) -> str:
    title = f"{result['ability']} ({result['game']}): {result['from']} → {result['to']}"
    lines = [f"{_BOLD}{title}{_RESET}" if colour else title]
    if not result["from_present"] or not result["to_present"]:
        missing = [name for name, here in ((result["from"], result["from_present"]), (result["to"], result["to_present"])) if not here]
        lines.append(_("(no text in {editions})").format(editions=", ".join(missing)))
    if any(chunk["op"] != "equal" for chunk in result["text_diff"]):
        lines.append(render_diff(result["text_diff"], colour))
    else:
        lines.append(_("(same text)"))
    lines += _relation_lines(_("relations added"), result["added"])
    lines += _relation_lines(_("relations removed"), result["removed"])
    lines.append(labelled(_("parameters added"), ", ".join(result["parameters_added"]) or _("none")))
    lines.append(labelled(_("parameters removed"), ", ".join(result["parameters_removed"]) or _("none")))
    return "\n".join(lines)


def render_history(result: EditionDiff, colour: bool) -> str:
    from ..editions import status_label

    edition, present, status, words = _("edition"), _("present"), _("status"), _("words")
    rows = [
        {edition: row["edition"], present: _("yes") if row["present"] else _("no"), status: status_label(row["status"]), words: row["words"] or ""}
        for row in result["timeline"]
    ]
    lines = [labelled(f"{result['ability']} ({result['game']})", _("timeline")), format_table(rows)]
    for step in result["steps"]:
        lines += ["", render_pair(step, colour)]
    return "\n".join(lines)


def render_revisions(result: RevisionDiff, paths: list[Path], colour: bool) -> str:
    from ..editions import field_label

    lines = [f"{paths[0]} → {paths[1]}"]
    for title, items in ((_("abilities added"), result["abilities_added"]), (_("abilities removed"), result["abilities_removed"])):
        lines.append(labelled(title, str(len(items))))
        lines += [f"  {item['ability']} ({item['game']})" for item in items]
    lines.append(labelled(_("abilities changed"), str(len(result["abilities_changed"]))))
    for item in result["abilities_changed"]:
        lines.append("  " + labelled(f"{item['ability']} ({item['game']})", ", ".join(field_label(f) for f in item["fields"])))
        if "text_diff" in item:
            lines.append("    " + render_diff(item["text_diff"], colour).replace("\n", "\n    "))
        for edition, text_diff in item.get("edition_diffs", {}).items():
            lines.append(f"    [{edition}] " + render_diff(text_diff, colour).replace("\n", "\n    "))
        for field in item["fields"]:
            if field not in ("text", "editions"):
                change = item["changes"][field]
                lines.append("    " + labelled(field_label(field), f"{change['old']} → {change['new']}"))
    lines += _relation_lines(_("edges added"), result["edges_added"])
    lines += _relation_lines(_("edges removed"), result["edges_removed"])
    return "\n".join(lines)
