"""Errors a user can fix: each names the file and line and says what to change."""

from __future__ import annotations

from pathlib import Path


class RulegraphError(Exception):
    """Bad input: the CLI prints ``file:line: message`` and exits with code 2."""

    def __init__(self, message: str, *, path: str | Path | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.path = str(path) if path is not None else None
        self.line = line

    def __str__(self) -> str:
        where = self.path or ""
        if where and self.line:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}" if where else self.message
