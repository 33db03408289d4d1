"""The extractor's output records, which live with the other records in :mod:`rulegraph.model`."""

from __future__ import annotations

from ..model import Statement as Statement
from ..model import TermRef as TermRef
