"""The report in four forms: text for the terminal, Markdown, a standalone HTML page, JSON.

Text and Markdown are grouped by check; the HTML page is grouped by game and ability, each
ability with an anchor (``#hell-dorado--fouisseur``) so other pages can link to its findings.
All rule text is HTML-escaped: a glossary that contains ``<script>`` shows it, never runs it.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from html import escape

from ..checks.finding import SEVERITIES, Finding, severity_label, severity_rank, sort_key
from ..checks.registry import CHECKS
from ..i18n import _, language, ngettext
from ..text import fold, slug

_CHECK_ORDER = {check.code: index for index, check in enumerate(CHECKS)}
#: Findings of one check listed one by one in report.html and report.md; past it the pages give
#: the count and the command that lists them all (a catalogue of copies has 10^5 near-identical pairs).
REPORT_LIMIT_PER_CHECK = 500


_CHECK_BY_CODE = {check.code: check for check in CHECKS}


def _description(code: str) -> str:
    """What the check of that code finds, in the user's language."""
    check = _CHECK_BY_CODE.get(code)
    return check.description() if check is not None else ""


def _count_columns() -> list[str]:
    return [_("code"), _("check"), _("game"), severity_label("error"), severity_label("warning"), severity_label("info")]


def anchor(game: str, subject: str) -> str:
    """The HTML id of an ability's section: game slug, two dashes, name slug."""
    return f"{slug(game)}--{slug(subject)}"


def counts(findings: Iterable[Finding]) -> list[dict[str, object]]:
    """One row per check and game: how many findings of each severity."""
    table: dict[tuple[str, str, str], Counter[str]] = defaultdict(Counter)
    for finding in findings:
        table[(finding.code, finding.check, finding.game)][finding.severity] += 1
    rows = []
    for (code, check, game), by_severity in sorted(table.items(), key=lambda kv: (_CHECK_ORDER.get(kv[0][0], 99), kv[0][2])):
        rows.append({"code": code, "check": check, "game": game,
                     **{s: by_severity.get(s, 0) for s in SEVERITIES}, "total": sum(by_severity.values())})
    return rows


def _by_check(findings: Iterable[Finding]) -> list[tuple[str, str, list[Finding]]]:
    groups: dict[tuple[str, str], list[Finding]] = defaultdict(list)
    for finding in sorted(findings, key=sort_key):
        groups[(finding.code, finding.check)].append(finding)
    return [(code, name, items) for (code, name), items in sorted(groups.items(), key=lambda kv: _CHECK_ORDER.get(kv[0][0], 99))]


def _severity_count(severity: str, count: int) -> str:
    if severity == "error":
        return ngettext("{count} error", "{count} errors", count).format(count=count)
    if severity == "warning":
        return ngettext("{count} warning", "{count} warnings", count).format(count=count)
    return ngettext("{count} info", "{count} infos", count).format(count=count)


def summary_line(findings: list[Finding]) -> str:
    by_severity = Counter(f.severity for f in findings)
    parts = ", ".join(_severity_count(s, by_severity[s]) for s in reversed(SEVERITIES))
    total = ngettext("{count} finding", "{count} findings", len(findings)).format(count=len(findings))
    return _("{findings}: {severities}").format(findings=total, severities=parts)


def render_text(findings: list[Finding]) -> str:
    """Grouped by check; each finding on one line led by its file:line, as compilers do."""
    if not findings:
        return _("No findings: nothing to fix.")
    lines = []
    for code, name, items in _by_check(findings):
        lines.append(f"{code} {name} ({len(items)})")
        for finding in items:
            where = finding.location or finding.game
            lines.append(f"  {where}: {severity_label(finding.severity)}: [{finding.game}] {finding.subject}: {finding.message}")
        lines.append("")
    lines.append(summary_line(findings))
    return "\n".join(lines)


def render_json(findings: list[Finding]) -> str:
    """The findings as a JSON list of objects (check, code, severity, subject, game, message,
    source, line): what ``rulegraph check --json`` prints, for scripts and other tools."""
    return json.dumps([f.to_dict() for f in findings], ensure_ascii=False, indent=2)


#: Characters that make markup inside a table cell (emphasis, code, links, cells, strike-through):
#: escaped so a name shows as written.
_MD_MARKUP = re.compile(r"([\\`*_\[\]|~])")


def escape_markdown(text: object) -> str:
    """Text as a Markdown viewer shows it literally: viewers render HTML, so ``<``, ``>`` and ``&``
    become entities (a game named ``<img onerror=…>`` stays text), and markup is backslashed."""
    plain = " ".join(str("" if text is None else text).split())
    plain = plain.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_MARKUP.sub(r"\\\1", plain)


def listed(findings: list[Finding], limit: int | None) -> tuple[list[Finding], dict[tuple[str, str], int]]:
    """The findings to list, at most ``limit`` per check (in report order), and how many of each
    check are left out."""
    if limit is None:
        return findings, {}
    kept: list[Finding] = []
    left_out: Counter[tuple[str, str]] = Counter()
    for code, name, items in _by_check(findings):
        kept += items[:limit]
        if len(items) > limit:
            left_out[(code, name)] = len(items) - limit
    return kept, dict(left_out)


def _left_out_note(code: str, name: str, count: int) -> str:
    return ngettext("{count} other {code} {name} finding is not listed here: rulegraph check --check {code} gives them all.",
                    "{count} other {code} {name} findings are not listed here: rulegraph check --check {code} gives them all.",
                    count).format(count=count, code=code, name=name)


def _finding_columns() -> list[str]:
    return [_("severity"), _("game"), _("ability"), _("where"), _("message")]


def render_markdown(findings: list[Finding], *, limit: int | None = None) -> str:
    """``report.md``: the counts by check, then the findings grouped by check, at most ``limit``
    listed per check (the report says how many were left out; ``rulegraph check`` gives all)."""
    shown, left_out = listed(findings, limit)
    lines = ["# " + _("Consistency report"), "", summary_line(findings), ""]
    rows = counts(findings)
    if rows:
        lines += ["| " + " | ".join(_count_columns()) + " |", "|---|---|---|---|---|---|"]
        lines += [f"| {r['code']} | {r['check']} | {escape_markdown(r['game'])} | {r['error']} | {r['warning']} | {r['info']} |" for r in rows]
        lines.append("")
    for code, name, items in _by_check(shown):
        lines += [f"## {code} {name}", "", f"_{escape_markdown(_description(code))}_", ""]
        lines += ["| " + " | ".join(_finding_columns()) + " |", "|---|---|---|---|---|"]
        for f in items:
            lines.append(f"| {severity_label(f.severity)} | {escape_markdown(f.game)} | {escape_markdown(f.subject)} | {escape_markdown(f.location)} | {escape_markdown(f.message)} |")
        if (code, name) in left_out:
            lines += ["", _left_out_note(code, name, left_out[(code, name)])]
        lines.append("")
    return "\n".join(lines)


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 70rem; color: #222; line-height: 1.4; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid #ccc; padding: .25rem .5rem; text-align: left; vertical-align: top; }
section.ability { border-top: 1px solid #ddd; padding-top: .5rem; }
section.ability:target { background: #fffbdd; }
.error { color: #a40000; font-weight: bold; } .warning { color: #a05a00; } .info { color: #555; }
code { background: #f4f4f4; padding: 0 .2rem; }
ul.clean { columns: 3; }
"""


def render_html(findings: list[Finding], abilities: Iterable[tuple[str, str]] = (), *, limit: int | None = None) -> str:
    """A standalone page: counts by check, then per game each ability with its findings.

    ``abilities`` are (game, name) pairs of every ability, so that each has an anchor, even one
    the report has nothing to say about. ``limit``: at most that many findings of one check listed.
    """
    shown, left_out = listed(findings, limit)
    per_ability: dict[tuple[str, str], list[Finding]] = defaultdict(list)
    for finding in sorted(shown, key=lambda f: (-severity_rank(f.severity), sort_key(f))):
        per_ability[(finding.game, finding.subject)].append(finding)
    clean = sorted({(g, a) for g, a in abilities} - set(per_ability))
    title, heading = escape(_("consistency report")), escape(_("Consistency report"))
    no_game = _("(no game)")
    out = ["<!DOCTYPE html>", f'<html lang="{language()}"><head><meta charset="utf-8">',
           f"<title>rulegraph — {title}</title>", f"<style>{_STYLE}</style></head><body>",
           f"<h1>{heading}</h1>", f"<p>{escape(summary_line(findings))}</p>"]
    rows = counts(findings)
    if rows:
        out.append("<table><thead><tr>" + "".join(f"<th>{escape(column)}</th>" for column in _count_columns()) + "</tr></thead><tbody>")
        for r in rows:
            out.append(f"<tr><td>{escape(str(r['code']))}</td><td title=\"{escape(_description(str(r['code'])))}\">{escape(str(r['check']))}</td>"
                       f"<td>{escape(str(r['game']))}</td><td>{r['error']}</td><td>{r['warning']}</td><td>{r['info']}</td></tr>")
        out.append("</tbody></table>")
    out += [f"<p>{escape(_left_out_note(code, name, count))}</p>" for (code, name), count in left_out.items()]
    games = _game_order(per_ability, clean)
    if games:
        # A table of contents: each game (the largest glossary first) and its abilities with findings.
        out.append("<nav><h2>" + escape(_("Contents")) + "</h2><ul>")
        for game in games:
            mine = sorted((subject for g, subject in per_ability if g == game), key=fold)
            total = sum(len(items) for (g, _), items in per_ability.items() if g == game)
            links = ", ".join(f'<a href="#{escape(anchor(game, subject))}">{escape(subject)}</a>' for subject in mine)
            remarks = ngettext("({count} remark): {links}", "({count} remarks): {links}", total) if total else _("(0 remarks): {links}")
            out.append(f'<li><a href="#{escape(_game_anchor(game))}"><strong>{escape(game or no_game)}</strong></a> '
                       + remarks.format(count=total, links=links or escape(_("no remarks"))) + "</li>")
        out.append("</ul></nav>")
    for game in games:
        out.append(f'<h2 id="{escape(_game_anchor(game))}">{escape(game or no_game)}</h2>')
        for (g, subject), items in sorted(per_ability.items(), key=lambda kv: (fold(kv[0][1]))):
            if g != game:
                continue
            out.append(f'<section class="ability" id="{escape(anchor(g, subject))}"><h3>{escape(subject)}</h3><ul>')
            for f in items:
                where = f" <code>{escape(f.location)}</code>" if f.location else ""
                out.append(f'<li><span class="{escape(f.severity)}">{escape(severity_label(f.severity))}</span> '
                           f"<strong>{escape(f.code)} {escape(f.check)}</strong>{where} — {escape(f.message)}</li>")
            out.append("</ul></section>")
        quiet = [a for g, a in clean if g == game]
        if quiet:
            out.append("<h3>" + escape(_("Without remarks")) + "</h3><ul class=\"clean\">")
            out += [f'<li id="{escape(anchor(game, a))}">{escape(a)}</li>' for a in quiet]
            out.append("</ul>")
    out.append("</body></html>")
    return "\n".join(out)


def _game_anchor(game: str) -> str:
    return f"jeu-{slug(game or 'sans-jeu')}"


def _game_order(per_ability: dict, clean: list[tuple[str, str]]) -> list[str]:
    """Games, the one with the most abilities first (the designer's main glossary), then by name."""
    size: Counter[str] = Counter(g for g, _ in per_ability)
    size.update(g for g, _ in clean)
    return sorted(size, key=lambda g: (-size[g], fold(g or "")))


def report_pages(graph, progress: Callable[[str], None] | None = None) -> dict[str, str]:
    """Run every check and render the files ``rulegraph build`` writes: report.html and report.md.
    ``progress`` is told the name of each check as it starts."""
    from ..catalogue import abilities
    from ..checks.registry import run_checks
    from ..complexity import complexity, render_html_section, render_markdown_section

    findings = run_checks(graph, progress=progress)
    names = [(a.game, a.label) for a in abilities(graph)]
    scored = complexity(graph)
    limit = REPORT_LIMIT_PER_CHECK
    page = render_html(findings, names, limit=limit).replace("</body></html>", render_html_section(scored) + "\n</body></html>")
    return {"report.html": page, "report.md": render_markdown(findings, limit=limit) + "\n" + render_markdown_section(scored)}
