"""The corpus manifest (``data/corpus.toml``): which files, which game, which format.

Adding a glossary in a known format needs only a ``[[source]]`` entry. Every problem is reported
with the manifest's file and line, since a TOML parser alone only reports syntax errors.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import RulegraphError
from .model import CATEGORIES, Document, Entry, Variant
from .readers import FORMATS, read
from .text import fold, slug

_SOURCE_KEYS = {
    "path", "game", "format", "language", "editions", "categories", "default_category",
    "name_field", "text_field", "category_field", "entries_key", "delimiter",
}
_GAME_KEYS = {"id", "name", "language", "lineage", "lexicon"}


@dataclass(frozen=True, slots=True)
class GameSpec:
    id: str
    name: str
    language: str = "fr"
    lineage: tuple[str, ...] = ()
    lexicon: Path | None = None


@dataclass(frozen=True, slots=True)
class SourceSpec:
    path: Path
    name: str
    game: str
    format: str | None
    language: str = "fr"
    options: dict[str, Any] = field(default_factory=dict)
    manifest_line: int = 0


@dataclass(slots=True)
class Corpus:
    """Everything read from the inputs, ready to become a graph."""

    games: dict[str, GameSpec]
    sources: list[SourceSpec]
    documents: list[Document]

    def entries(self, game: str | None = None) -> list[Entry]:
        return [e for d in self.documents for e in d.entries if game is None or e.game == game]


def _table_lines(text: str, table: str) -> list[int]:
    return [n for n, line in enumerate(text.splitlines(), 1) if re.match(rf"^\s*\[\[\s*{table}\s*\]\]", line)]


def _key_line(text: str, table_line: int, key: str) -> int:
    """The line of ``key = …`` inside the table that starts at ``table_line``."""
    lines = text.splitlines()
    for number in range(table_line + 1, len(lines) + 1):
        line = lines[number - 1].strip()
        if line.startswith("[["):
            break
        if re.match(rf"^\"?{re.escape(key)}\"?\s*=", line) or line == f"[source.{key}]":
            return number
    return table_line


def load_manifest(path: Path) -> tuple[dict[str, GameSpec], list[SourceSpec]]:
    """Read and validate a manifest; paths in it are relative to the manifest's folder."""
    from .readers import read_text

    text = read_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = re.search(r"line (\d+)", str(error))
        raise RulegraphError(f"invalid TOML: {error}", path=path, line=int(line.group(1)) if line else None) from None
    base = path.parent
    game_lines, source_lines = _table_lines(text, "game"), _table_lines(text, "source")
    unknown_top = set(data) - {"game", "source"}
    if unknown_top:
        raise RulegraphError(f"unknown table(s) {', '.join(sorted(unknown_top))}; use [[game]] and [[source]]", path=path, line=1)
    games: dict[str, GameSpec] = {}
    for index, raw in enumerate(data.get("game", [])):
        line = game_lines[index] if index < len(game_lines) else 1
        extra = set(raw) - _GAME_KEYS
        if extra:
            raise RulegraphError(f"unknown key(s) {', '.join(sorted(extra))} in [[game]]; allowed: {', '.join(sorted(_GAME_KEYS))}", path=path, line=line)
        if "name" not in raw:
            raise RulegraphError("[[game]] needs a name = \"...\"", path=path, line=line)
        game_id = raw.get("id") or slug(raw["name"])
        lexicon = raw.get("lexicon")
        games[game_id] = GameSpec(game_id, raw["name"], raw.get("language", "fr"), tuple(raw.get("lineage", ())), base / lexicon if lexicon else None)
    sources = []
    for index, raw in enumerate(data.get("source", [])):
        line = source_lines[index] if index < len(source_lines) else 1
        sources.append(_source_spec(raw, base=base, games=games, manifest=path, text=text, line=line))
    if not sources:
        raise RulegraphError("no [[source]] entry; add one per glossary file", path=path, line=1)
    return games, sources


def _source_spec(raw: dict[str, Any], *, base: Path, games: dict[str, GameSpec], manifest: Path, text: str, line: int) -> SourceSpec:
    def fail(message: str, key: str | None = None) -> RulegraphError:
        return RulegraphError(message, path=manifest, line=_key_line(text, line, key) if key else line)

    extra = set(raw) - _SOURCE_KEYS
    if extra:
        key = sorted(extra)[0]
        raise fail(f"unknown key {key!r} in [[source]]; allowed: {', '.join(sorted(_SOURCE_KEYS))}", key)
    for key in ("path", "game"):
        if key not in raw:
            raise fail(f"[[source]] needs {key} = \"...\"")
    game = raw["game"]
    if game not in games:
        known = ", ".join(games) or "none"
        raise fail(f"game {game!r} is not declared in a [[game]] table (declared: {known})", "game")
    fmt = raw.get("format")
    if fmt is not None and fmt not in FORMATS:
        raise fail(f"unknown format {fmt!r}; use one of: {', '.join(FORMATS)}", "format")
    categories = raw.get("categories", {})
    for heading, category in categories.items():
        if category not in CATEGORIES:
            raise fail(f"category {category!r} for {heading!r} must be one of {', '.join(CATEGORIES)}", "categories")
    if fmt == "compendium" and not raw.get("editions"):
        raise fail("a compendium source needs editions = [\"...\", ...] as its file names them")
    options = {k: v for k, v in raw.items() if k not in {"path", "game", "format", "language"}}
    if games[game].lineage:
        options["lineage"] = list(games[game].lineage)
    return SourceSpec(base / raw["path"], raw["path"], game, fmt, raw.get("language", "fr"), options, line)


def collapse_duplicates(entries: list[Entry]) -> list[Entry]:
    """One entry per name and game: exact repeats are counted, different texts kept as variants."""
    kept: dict[tuple[str, str], Entry] = {}
    for entry in entries:
        key = (entry.game, fold(entry.name))
        first = kept.get(key)
        if first is None:
            kept[key] = entry
        elif fold(first.text) == fold(entry.text) and first.parameters == entry.parameters:
            first.duplicate_lines.append(entry.line)
        else:
            first.variants.append(Variant(entry.text, entry.source, entry.line))
    return list(kept.values())


def load_corpus(manifest: Path) -> Corpus:
    games, sources = load_manifest(manifest)
    documents = [read_source(spec) for spec in sources]
    return _finish(games, sources, documents)


def corpus_from_files(paths: list[Path], *, game: str, format: str | None = None) -> Corpus:
    """A corpus without a manifest: every file belongs to one game."""
    spec = GameSpec(slug(game), game)
    sources = [SourceSpec(p, p.name, spec.id, format) for p in paths]
    return _finish({spec.id: spec}, sources, [read_source(s) for s in sources])


def read_source(spec: SourceSpec) -> Document:
    return read(spec.path, source=spec.name, game=spec.game, format=spec.format, options=spec.options)


def _finish(games: dict[str, GameSpec], sources: list[SourceSpec], documents: list[Document]) -> Corpus:
    by_game: dict[str, list[Entry]] = {}
    for document in documents:
        by_game.setdefault(document.game, []).extend(document.entries)
    collapsed = {game: {id(e) for e in collapse_duplicates(entries)} for game, entries in by_game.items()}
    for document in documents:
        document.entries = [e for e in document.entries if id(e) in collapsed[document.game]]
    return Corpus(games, sources, documents)
