"""The corpus manifest (``data/corpus.toml``): which files, which game, which format.

Adding a glossary in a known format needs only a ``[[source]]`` entry. Every problem is reported
with the manifest's file and line, since a TOML parser alone only reports syntax errors.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .errors import RulegraphError
from .files import MAX_FILE_MB
from .i18n import _
from .model import CATEGORIES, TERM_KINDS, Document, Entry, Variant
from .readers import FORMATS, read
from .text import fold, slug
from .tomlfile import TomlFile, load_toml


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
    manifest: Path | None = None


@dataclass(slots=True)
class Corpus:
    """Everything read from the inputs, ready to become a graph."""

    games: dict[str, GameSpec]
    sources: list[SourceSpec]
    documents: list[Document]

    def entries(self, game: str | None = None) -> list[Entry]:
        return [e for d in self.documents for e in d.entries if game is None or e.game == game]


_GAME_SCHEMA = {"id": "text", "name": "text", "language": "text", "lineage": "texts", "lexicon": "text"}
_SOURCE_SCHEMA = {
    "path": "text", "game": "text", "format": "text", "language": "text", "editions": "texts",
    "categories": "table", "default_category": "text", "name_field": "text", "text_field": "text",
    "category_field": "text", "entries_key": "text", "delimiter": "char",
}


def load_manifest(path: Path, *, allow_outside: bool = False) -> tuple[dict[str, GameSpec], list[SourceSpec]]:
    """Read and validate a manifest; paths in it are relative to the manifest's folder, and may
    not leave it (``../../etc/passwd``) unless ``allow_outside``."""
    manifest = load_toml(path, what="manifest")
    data = manifest.data
    unknown_top = set(data) - {"game", "source"}
    if unknown_top or not all(isinstance(data.get(t, []), list) for t in ("game", "source")):
        raise manifest.error("a manifest holds only [[game]] and [[source]] tables")
    games: dict[str, GameSpec] = {}
    for raw, line in zip(data.get("game", []), manifest.table_lines("game")):
        manifest.check(raw, _GAME_SCHEMA, start=line, where=" in [[game]]")
        if "name" not in raw:
            raise manifest.error('[[game]] needs name = "..."', start=line)
        game_id = raw.get("id") or slug(raw["name"])
        if game_id in games:
            raise manifest.error(f"game id {game_id!r} is declared twice; give each [[game]] its own id", key="id", start=line)
        lexicon = raw.get("lexicon")
        if lexicon:
            _check_inside(manifest, lexicon, "lexicon", line, allow_outside)
            if not (path.parent / lexicon).is_file():
                raise manifest.error(f"lexicon file {lexicon!r} is not found next to the manifest (paths are "
                                     "relative to the manifest's folder)", key="lexicon", start=line)
        games[game_id] = GameSpec(game_id, raw["name"], raw.get("language", "fr"), tuple(raw.get("lineage", ())),
                                  path.parent / lexicon if lexicon else None)
    sources = [_source_spec(raw, manifest, games, line, allow_outside)
               for raw, line in zip(data.get("source", []), manifest.table_lines("source"))]
    if not sources:
        raise manifest.error("no [[source]] entry; add one per glossary file")
    return games, sources


def _check_inside(manifest: TomlFile, relative: str, key: str, line: int, allow_outside: bool) -> None:
    """A path of the manifest must stay in the manifest's folder: a manifest from elsewhere must
    not make a build read ``../../etc/passwd`` or ``/home/…``."""
    if allow_outside:
        return
    folder = os.path.realpath(manifest.path.parent)
    target = os.path.realpath(os.path.join(folder, relative))
    if os.path.commonpath([folder, target]) != folder:
        raise manifest.error(f"{key} {relative!r} leads outside the manifest's folder; move the file next to the "
                             "manifest, or pass --allow-outside if you trust this manifest", key=key, start=line)


def _source_spec(raw: dict[str, Any], manifest: TomlFile, games: dict[str, GameSpec], line: int,
                 allow_outside: bool = False) -> SourceSpec:
    def fail(message: str, key: str | None = None) -> RulegraphError:
        return manifest.error(message, key=key, start=line)

    manifest.check(raw, _SOURCE_SCHEMA, start=line, where=" in [[source]]")
    for key in ("path", "game"):
        if key not in raw:
            raise fail(f'[[source]] needs {key} = "..."')
    _check_inside(manifest, raw["path"], "path", line, allow_outside)
    game = raw["game"]
    if game not in games:
        known = ", ".join(games) or "none"
        raise fail(f"game {game!r} is not declared in a [[game]] table (declared: {known})", "game")
    fmt = raw.get("format")
    if fmt is not None and fmt not in FORMATS:
        raise fail(f"unknown format {fmt!r}; use one of: {', '.join(FORMATS)}", "format")
    for heading, category in raw.get("categories", {}).items():
        if category not in CATEGORIES + TERM_KINDS:
            raise fail(f"category {category!r} for {heading!r} must be one of {', '.join(CATEGORIES + TERM_KINDS)}", "categories")
    if raw.get("default_category", CATEGORIES[0]) not in CATEGORIES:
        raise fail(f"default_category must be one of {', '.join(CATEGORIES)}", "default_category")
    if fmt == "compendium" and not raw.get("editions"):
        raise fail('a compendium source needs editions = ["...", ...] as its file names them')
    options = {k: v for k, v in raw.items() if k not in {"path", "game", "format", "language"}}
    if games[game].lineage:
        options["lineage"] = list(games[game].lineage)
    return SourceSpec(manifest.path.parent / raw["path"], raw["path"], game, fmt, raw.get("language", "fr"), options,
                      manifest.key_line("path", line), manifest.path)


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


def load_corpus(manifest: Path, *, substitutes: dict[str, Path] | None = None, allow_outside: bool = False,
                max_mb: float = MAX_FILE_MB) -> Corpus:
    """Read every source of the manifest; ``substitutes`` reads another file in place of a
    source (keyed by its manifest path), keeping its name, so an edited copy builds as the original."""
    games, sources = load_manifest(manifest, allow_outside=allow_outside)
    substitutes = substitutes or {}
    for name in substitutes:
        if name not in {s.name for s in sources}:
            raise RulegraphError(_('no [[source]] with path {name!r} in this manifest').format(name=name), path=manifest)
    sources = [replace(s, path=Path(substitutes[s.name])) if s.name in substitutes else s for s in sources]
    documents = [read_source(spec, max_mb=max_mb) for spec in sources]
    return _finish(games, sources, documents)


def corpus_from_files(paths: list[Path], *, game: str, format: str | None = None,
                      options: dict[str, Any] | None = None, max_mb: float = MAX_FILE_MB) -> Corpus:
    """A corpus without a manifest: every file belongs to one game; ``options`` are the reader
    options a manifest would give (``name_field``, ``text_field``…)."""
    if format is not None and format not in FORMATS:
        raise RulegraphError(_('--format {format!r} is unknown; use one of: {formats}').format(format=format, formats=', '.join(FORMATS)))
    spec = GameSpec(slug(game), game)
    sources = [SourceSpec(p, p.name, spec.id, format, options=dict(options or {})) for p in paths]
    return _finish({spec.id: spec}, sources, [read_source(s, max_mb=max_mb) for s in sources])


def _set_terms_apart(document: Document) -> None:
    """The entries of a section that lists characteristics or a roll's results ("Caractéristiques
    des joueurs", "Tableau des Événements (2D6)"), or that the manifest maps to a kind of term,
    are terms of that kind, not abilities; their texts join the preamble, so nothing the
    glossary says is lost."""
    terms = [entry for entry in document.entries if entry.category in TERM_KINDS]
    if not terms:
        return
    document.entries = [entry for entry in document.entries if entry.category not in TERM_KINDS]
    document.terms += tuple((entry.category, entry.name, entry.line) for entry in terms)
    texts = (replace(paragraph, heading=paragraph.heading or entry.name) for entry in terms for paragraph in entry.paragraphs)
    document.preamble = tuple(sorted((*document.preamble, *texts), key=lambda paragraph: paragraph.line))


def read_source(spec: SourceSpec, *, max_mb: float = MAX_FILE_MB) -> Document:
    """Read one source; an error found by its reader names the file as the user can open it, and
    a file that cannot be read at all (missing, a folder, too large) names the manifest's line."""
    try:
        return read(spec.path, source=spec.name, game=spec.game, format=spec.format,
                    options={**spec.options, "language": spec.language}, max_mb=max_mb)
    except RulegraphError as error:
        if error.path == spec.name:
            error.path = str(spec.path)
        if error.path == str(spec.path) and error.line is None and spec.manifest is not None:
            raise RulegraphError(_('{path}: {message}').format(path=spec.path, message=error.message), path=spec.manifest, line=spec.manifest_line) from None
        raise


def _finish(games: dict[str, GameSpec], sources: list[SourceSpec], documents: list[Document]) -> Corpus:
    for document in documents:
        _set_terms_apart(document)
    by_game: dict[str, list[Entry]] = {}
    for document in documents:
        by_game.setdefault(document.game, []).extend(document.entries)
    collapsed = {game: {id(e) for e in collapse_duplicates(entries)} for game, entries in by_game.items()}
    for document in documents:
        document.entries = [e for e in document.entries if id(e) in collapsed[document.game]]
    return Corpus(games, sources, documents)
