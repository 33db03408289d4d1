"""Records as an HTML table for notebooks: every cell escaped, since rule texts hold ``<``, ``&``
and quotes; long cells cut for reading. Plain data in, a string out: no IPython needed."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape


def html_table(rows: Iterable[Mapping[str, object]], columns: list[str] | None = None, *, limit: int = 160,
               empty: str = "Aucune ligne.") -> str:
    """An HTML table of ``rows`` (dicts), in the order of ``columns`` (default: the first row's keys);
    ``empty`` is what an empty table says (an empty answer is an answer, not a failure)."""
    rows = list(rows)
    if not rows:
        return f"<p><em>{escape(empty)}</em></p>"
    columns = columns or list(rows[0])

    def cell(value: object) -> str:
        text = "" if value is None else str(value)
        return escape(text if len(text) <= limit else text[:limit] + "…")

    head = "".join(f"<th style='text-align:left'>{escape(c)}</th>" for c in columns)
    body = "".join(
        "<tr>" + "".join(f"<td style='text-align:left;vertical-align:top'>{cell(row.get(c))}</td>" for c in columns) + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
