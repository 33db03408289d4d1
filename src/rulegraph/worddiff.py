"""A word-level diff of two rule texts, readable by a designer: words keep what glues to them
(d’un, Toxique/X), the apostrophe's typography is ignored, a short unchanged run between two
changes is folded into one replaced phrase. Nothing here knows about graphs or editions: the
edition and revision diffs (:mod:`rulegraph.editions`) and the renderers use it."""

from __future__ import annotations

import difflib
import html
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .text import normalize_apostrophes

#: A word with what glues to it inside (d’un, Toxique/X, 3.5, Mort-vivant), or one punctuation
#: mark; each token keeps the whitespace after it so that the chunks rebuild the text exactly.
_DIFF_TOKEN = re.compile(r"(?:^\s+)?(?:[^\W_]+(?:['’ʼ/.\-][^\W_]+)*['’ʼ]?|\S)\s*")
#: An unchanged run this short between two changes is folded into them: "[-un Dé-] [-:-]" reads
#: worse than one replaced phrase.
_MERGE_EQUAL_TOKENS = 2
#: One piece of a word diff: ``{op, old, new}``.
Chunk = dict[str, str]


@dataclass(frozen=True, slots=True)
class _Word:
    surface: str
    key: str


def _words(text: str) -> list[_Word]:
    """Diff tokens; the key ignores the apostrophe's typography and the trailing whitespace,
    except a line break (the end of the text counts as one), so that a sentence end is not
    matched with a paragraph end."""
    matches = list(_DIFF_TOKEN.finditer(text))
    words = []
    for index, match in enumerate(matches):
        surface = match.group()
        stripped = surface.rstrip()
        breaks = "\n" in surface[len(stripped):] or index == len(matches) - 1
        words.append(_Word(surface, normalize_apostrophes(stripped.lstrip()) + ("\n" if breaks else "")))
    return words


def word_diff(old: str, new: str) -> list[Chunk]:
    """A word-level diff as readable chunks ``{op, old, new}``, op being equal, insert, delete
    or replace; joining the ``old`` parts gives the old text back, the ``new`` parts the new."""
    old_words, new_words = _words(old), _words(new)
    matcher = difflib.SequenceMatcher(None, [w.key for w in old_words], [w.key for w in new_words], autojunk=False)
    chunks: list[_Piece] = []
    for tag, i1, i2, j1, j2 in _slide_past_punctuation(matcher.get_opcodes(), old_words, new_words):
        chunks.append(_Piece(
            equal=tag == "equal",
            old="".join(w.surface for w in old_words[i1:i2]),
            new="".join(w.surface for w in new_words[j1:j2]),
            size=i2 - i1,
        ))
    merged = _merge_short_equals(chunks)
    return [_labelled(chunk) for chunk in merged]


def _same_mark(words: list[_Word], change: list[Any], following: list[Any], start: int) -> bool:
    """The change starts with the punctuation mark that starts the unchanged run after it."""
    if following[start] >= following[start + 1]:
        return False
    first, after = words[change[start]].key.rstrip("\n"), words[following[start]].key.rstrip("\n")
    return first == after and not first[:1].isalnum()


def _slide_past_punctuation(opcodes: Iterable[tuple[str, int, int, int, int]], old_words: list[_Word],
                            new_words: list[_Word]) -> list[list[Any]]:
    """Move a pure insertion or deletion right while it starts with the punctuation mark that
    also starts the unchanged run after it, so that it reads as whole sentences:
    "particulier. [-Cette capacité annule…-]" rather than "particulier[-. Cette capacité annule…-]."."""
    ops: list[list[Any]] = [list(op) for op in opcodes]
    for index in range(1, len(ops) - 1):
        previous, change, following = ops[index - 1], ops[index], ops[index + 1]
        if change[0] not in ("insert", "delete") or previous[0] != "equal" or following[0] != "equal":
            continue
        words, start = (old_words, 1) if change[0] == "delete" else (new_words, 3)
        while _same_mark(words, change, following, start):
            previous[2] += 1
            previous[4] += 1
            change[1:] = [change[1] + 1, change[2] + 1, change[3] + 1, change[4] + 1]
            following[1] += 1
            following[3] += 1
    return [op for op in ops if op[1] < op[2] or op[3] < op[4]]


@dataclass(slots=True)
class _Piece:
    """A run of the diff while it is being merged: unchanged or not, both sides, its length in tokens."""

    equal: bool
    old: str
    new: str
    size: int


def _merge_short_equals(chunks: list[_Piece]) -> list[_Piece]:
    """Fold a short unchanged run that sits between two changes into one replaced phrase (and
    join changes left side by side when sliding emptied the run between them)."""
    out: list[_Piece] = []
    for chunk in chunks:
        if out and not out[-1].equal and not chunk.equal:
            out[-1].old += chunk.old
            out[-1].new += chunk.new
            continue
        out.append(_Piece(chunk.equal, chunk.old, chunk.new, chunk.size))
        while len(out) >= 3 and not out[-1].equal and not out[-3].equal and out[-2].equal:
            middle = out[-2]
            if middle.size > _MERGE_EQUAL_TOKENS or "\n" in middle.old:
                break
            first, _, last = out[-3], out.pop(-2), out.pop()
            first.old = f"{first.old}{middle.old}{last.old}"
            first.new = f"{first.new}{middle.new}{last.new}"
    return out


def _labelled(chunk: _Piece) -> Chunk:
    old, new = chunk.old, chunk.new
    if chunk.equal:
        op = "equal"
    elif not old:
        op = "insert"
    elif not new:
        op = "delete"
    else:
        op = "replace"
    return {"op": op, "old": old, "new": new}


def diff_segments(text_diff: list[dict[str, str]]) -> list[tuple[str, str]]:
    """The diff as ``(kind, text)`` runs to display, kind being equal, delete or insert; the
    whitespace after a change is put outside it, so that markers hug the words."""
    segments: list[tuple[str, str]] = []
    for chunk in text_diff:
        old, new = chunk["old"].rstrip(), chunk["new"].rstrip()
        spaces = max(chunk["old"][len(old):], chunk["new"][len(new):], key=len)
        if chunk["op"] == "equal":
            segments.append(("equal", new + spaces))
            continue
        if old:
            segments.append(("delete", old))
        if new:
            segments.append(("insert", new))
        if spaces:
            segments.append(("equal", spaces))
    return segments


def diff_html(text_diff: list[dict[str, str]]) -> str:
    """The diff as HTML: removed words in ``<del>``, added ones in ``<ins>``, all text escaped."""
    styles = {
        "delete": ("<del style=\"background:#fdd; color:#900\">", "</del>"),
        "insert": ("<ins style=\"background:#dfd; color:#060; text-decoration: none\">", "</ins>"),
        "equal": ("", ""),
    }
    body = "".join(f"{styles[kind][0]}{html.escape(text)}{styles[kind][1]}" for kind, text in diff_segments(text_diff))
    return f'<div class="rulegraph-diff" style="white-space: pre-wrap; line-height: 1.5">{body}</div>'


def text_changed(old: str, new: str) -> bool:
    """True when the texts differ by more than whitespace or the apostrophe's typography."""
    return [w.key for w in _words(old)] != [w.key for w in _words(new)]


def word_count(text: str) -> int:
    """How many diff tokens (words and punctuation marks) the text has."""
    return len(_words(text))
