"""Consistency checks on the graph: each check is ``check_xxx(graph) -> list[Finding]``.

``run_checks(graph)`` runs them all (or those named) and returns the findings sorted; the
``report`` module renders them as text, Markdown, HTML or JSON. Importing this package does not
load pySHACL or the French dictionary: each is loaded by the check that needs it.
"""

from .finding import SEVERITIES, Finding, severity_rank
from .registry import CHECKS, filter_findings, run_checks, select_checks

__all__ = ["CHECKS", "SEVERITIES", "Finding", "filter_findings", "run_checks", "select_checks", "severity_rank"]
