"""Consistency checks on the graph: each check is ``check_xxx(graph) -> list[Finding]``.

``run_checks(graph)`` runs them all (or those named) and returns the findings sorted;
:mod:`rulegraph.render.report` renders them as text, Markdown, HTML or JSON. Importing this package loads
nothing heavy: the registry (and with it rdflib and NetworkX) on first use of its names, pySHACL
and the French dictionary only in the checks that need them.
"""

from .finding import SEVERITIES, Finding, severity_rank

_REGISTRY_NAMES = ("CHECKS", "filter_findings", "name_content", "run_checks", "select_checks", "start_checks", "stop_checks")

__all__ = ["SEVERITIES", "Finding", "severity_rank", *_REGISTRY_NAMES]


def __getattr__(name: str):
    if name in _REGISTRY_NAMES:
        from . import registry

        return getattr(registry, name)
    raise AttributeError(f"module 'rulegraph.checks' has no attribute {name!r}")
