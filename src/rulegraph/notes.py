"""Designer notes (``=> à simplifier ?``): split them from rule text, find what they question."""

from __future__ import annotations

import re
from dataclasses import replace

from .lang import words as lang_words
from .model import Note, Paragraph
from .text import fold, split_sentences, tokenize

#: Spaces before the mark are trimmed off the rule instead: a leading ``\s*`` made the search
#: quadratic on a long run of spaces.
NOTE_MARK = re.compile(r"=>\s*")
#: The French words of a note (lang/fr/words.toml, [notes]).
_WORDS = lang_words("notes")
_LAST_PREFIX = _WORDS["last_prefix"]
_FIRST_PREFIX = _WORDS["first_prefix"]
_STOP = frozenset(_WORDS["stop_words"])
_EDIT_VERBS = frozenset(_WORDS["edit_verbs"])


def split_note(paragraph: Paragraph) -> tuple[Paragraph | None, Note | None]:
    """``Rule text. => question ?`` → the rule paragraph without the note, and the note."""
    match = NOTE_MARK.search(paragraph.text)
    if not match:
        return paragraph, None
    rule = paragraph.text[: match.start()].rstrip()
    question = paragraph.text[match.end():].strip()
    kept = replace(paragraph, text=rule) if rule else None
    return kept, Note(question, questioned_sentence(rule, question), paragraph.line_at(match.end()))


def questioned_sentence(rule: str, question: str) -> str:
    """The sentence a note is about: the one sharing its numbers and words, else the whole rule.

    "virer la limite à 3 ?" questions the sentence with "au-dessus de 3"; "virer la dernière
    précision ?" the last sentence (any word starting "derni", so a typo still counts);
    "à simplifier ?" names nothing, so the whole rule.
    """
    sentences = [s for _, s in split_sentences(rule)]
    if not sentences:
        return rule
    words = {fold(t.surface) for t in tokenize(question)} - _STOP
    if any(w.startswith(_LAST_PREFIX) for w in words):
        return sentences[-1]
    if any(w.startswith(_FIRST_PREFIX) for w in words):
        return sentences[0]
    numbers = {w for w in words if w.isdigit()}
    content = {t.key for t in tokenize(question) if len(t.key) > 3} - _EDIT_VERBS
    best, best_score = None, 0.0
    for sentence in sentences:
        tokens = tokenize(sentence)
        score = 2.0 * len(numbers & {t.surface for t in tokens}) + len(content & {t.key for t in tokens})
        if score > best_score:
            best, best_score = sentence, score
    return best if best is not None else rule
