"""Tables: aligned plain text for the terminal, HTML for the notebooks, CSV cells."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from html import escape

#: The widest a text-table column gets; a longer cell is cut, and --csv or --json give it whole.
CELL_WIDTH = 60


def format_table(rows: Sequence[Mapping[str, object]], columns: list[str] | None = None) -> str:
    """A plain-text table whose columns stay aligned: a cell longer than :data:`CELL_WIDTH` is cut
    with "…", and a line under the table says so (--csv and --json keep every cell whole)."""
    from ..i18n import _

    if not rows:
        return _("No rows.")
    columns = columns or list(rows[0])
    cells = [[("" if row.get(c) is None else " ".join(str(row.get(c)).split())) for c in columns] for row in rows]
    widths = [min(CELL_WIDTH, max(len(c), *(len(r[i]) for r in cells))) for i, c in enumerate(columns)]
    cut = any(len(value) > width for r in cells for value, width in zip(r, widths))

    def fit(value: str, width: int) -> str:
        return value if len(value) <= width else value[: width - 1] + "…"

    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths)), "  ".join("-" * w for w in widths)]
    lines += ["  ".join(fit(v, w).ljust(w) for v, w in zip(r, widths)) for r in cells]
    if cut:
        lines.append(_("(long cells are cut: --csv or --json give them whole)"))
    return "\n".join(line.rstrip() for line in lines)


def render_query_list(named) -> str:
    """Each named query with its description and parameters, in the user's language (the .rq
    descriptions are in the message catalogue)."""
    from ..i18n import _

    lines = []
    for query in named:
        lines.append(f"{query.name}: {_(query.description)}")
        for parameter in query.parameters:
            optional = _(", optional") if parameter.optional else ""
            lines.append(f"    --param {parameter.name}=…  ({parameter.kind}{optional}) {_(parameter.description)}")
    return "\n".join(lines)


def render_csv(columns: list[str], rows: list[dict[str, object]]) -> str:
    """CSV of the rows; a cell a spreadsheet would run as a formula is neutralised, as in export csv."""
    from ..exports import inert_cell

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows({key: inert_cell(value) for key, value in row.items()} for row in rows)
    return buffer.getvalue()


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
