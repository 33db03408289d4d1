"""The record every check returns, and the severity scale the CLI's --fail-on compares against."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from ..i18n import N_, word

SEVERITIES = ("info", "warning", "error")


_SEVERITY_WORDS = {"info": N_("info"), "warning": N_("warning"), "error": N_("error")}


def severity_label(severity: str) -> str:
    """The severity as the user reads it ("avertissement"); the code ("warning") stays in JSON,
    CSS classes and --fail-on."""
    return word(_SEVERITY_WORDS, severity)


def severity_rank(severity: str) -> int:
    """info < warning < error, so "reaches --fail-on" is a comparison of ranks."""
    return SEVERITIES.index(severity)


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing a designer should look at: which check, how serious, which ability, where to fix it.

    ``game`` is the game's display name and ``source`` the file path as the corpus names it, so the
    report reads the way the designer's own files do.
    """

    check: str
    code: str
    severity: str
    subject: str
    game: str
    message: str
    source: str | None = None
    line: int | None = None

    def to_dict(self) -> dict[str, object]:
        return asdict(self)

    @property
    def location(self) -> str:
        if self.source and self.line:
            return f"{self.source}:{self.line}"
        return self.source or ""


@dataclass(frozen=True, slots=True)
class CheckId:
    """A check's stable code and name; it stamps them on every finding it makes."""

    code: str
    name: str

    def finding(self, severity: str, subject: str, game: str, message: str,
                source: str | None = None, line: int | None = None) -> Finding:
        if severity not in SEVERITIES:
            raise ValueError(f"unknown severity {severity!r}")
        return Finding(self.name, self.code, severity, subject, game, message, source, line)


def sort_key(finding: Finding) -> tuple:
    return (finding.code, finding.game, finding.source or "", finding.line or 0, finding.subject, finding.message)
