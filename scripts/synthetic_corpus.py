"""A synthetic catalogue for scale benchmarks: the Hell Dorado chapter copied N times, every
ability renamed in each copy ("Fouisseur" → "Fouisseur K7") and its cross-references kept (every
mention of a name in the copy's text gets the same suffix).

    python scripts/synthetic_corpus.py OUT_FOLDER --copies 100 [--games 1|N]

With --games 1 (default) all copies are one game; with --games N each copy is its own game.
Writes OUT_FOLDER/corpus.toml and the copies; deterministic (same bytes on every run).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from rulegraph.names import parse_heading
from rulegraph.text import fold_aligned

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = ROOT / "data" / "000_10d76c9141a2b7c0.txt"
LEXICON = ROOT / "data" / "lexicons" / "hell-dorado.toml"
_HEADING = re.compile(r"^- (.+?) :", re.MULTILINE)


def ability_names(text: str) -> list[str]:
    return sorted({parse_heading(m.group(1)).name for m in _HEADING.finditer(text)}, key=len, reverse=True)


def renamed_copy(text: str, names: list[str], copy: int) -> str:
    """Every mention of an ability name, whatever its case and accents, followed by " K<copy>"."""
    folded = fold_aligned(text)
    assert len(folded) == len(text), "fold must keep offsets for this generator"
    marks: dict[int, int] = {}
    for name in names:
        for match in re.finditer(rf"(?<!\w){re.escape(fold_aligned(name))}(?!\w)", folded):
            if not any(start <= match.start() < end for start, end in marks.items()):
                marks[match.start()] = match.end()
    pieces, position = [], 0
    for start, end in sorted(marks.items()):
        pieces += [text[position:end], f" K{copy}"]
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def write_corpus(folder: Path, copies: int, games: int = 1) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    text = CHAPTER.read_text(encoding="utf-8")
    names = ability_names(text)
    (folder / "hell-dorado.toml").write_text(LEXICON.read_text(encoding="utf-8"), encoding="utf-8")
    manifest = []
    game_ids = [f"studio-{g}" for g in range(1, (copies if games > 1 else 1) + 1)]
    for game_id in game_ids:
        manifest += [f'[[game]]\nid = "{game_id}"\nname = "Studio {game_id[7:]}"\nlexicon = "hell-dorado.toml"\n']
    for copy in range(1, copies + 1):
        name = f"copy_{copy:04d}.txt"
        (folder / name).write_text(renamed_copy(text, names, copy), encoding="utf-8")
        game = game_ids[copy - 1] if games > 1 else game_ids[0]
        manifest.append(f'[[source]]\npath = "{name}"\ngame = "{game}"\nformat = "chapter"\nlanguage = "fr"\n'
                        '[source.categories]\n"Capacités des Personnages" = "character"\n"Capacités des armes" = "weapon"\n')
    path = folder / "corpus.toml"
    path.write_text("\n".join(manifest), encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--copies", type=int, default=100)
    parser.add_argument("--games", type=int, default=1, help="1: one game; more: one game per copy")
    args = parser.parse_args()
    print(write_corpus(args.out, args.copies, args.games))


if __name__ == "__main__":
    main()
