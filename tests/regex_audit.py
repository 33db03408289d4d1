"""Every regular expression rulegraph applies to user text, fed long adversarial strings.

A pattern with nested or overlapping repetition (``\\s+(.+?)\\s*#*\\s*$``) can take quadratic or
exponential time on a string built to make it backtrack; the strings here are those shapes:
one character repeated, two alternating, a heading or bullet followed by a long run of spaces,
the pattern's own words repeated without what would let it finish. ``python -m tests.regex_audit``
prints the slowest cases; tests/test_regex_audit.py asserts a bound on each.
"""

from __future__ import annotations

import importlib
import itertools
import pkgutil
import re
import time
from collections.abc import Iterator

#: Modules whose module-level patterns read user text (readers, names, notes, TOML, queries).
MODULES = (
    "rulegraph.text", "rulegraph.names", "rulegraph.notes", "rulegraph.tomlfile", "rulegraph.queries",
    "rulegraph.commands.query", "rulegraph.extract.lexicon",
)
SINGLE = " \t\x0c#*_[]()`:-=>'.,;!?/\\\"<{}|~+1xaéA\u2028"
PAIRS = " a#*_[(:-'.="
PREFIXES = ("### a", "## ", "# ", "- a", "- ", "• ", "**", "*a", "_a", "__", "[g]", "[", "[a](", "`", "=>",
            "# param x (", "si ", "ne ", "n'", "de ", "la capacite ", "+", "(", "x/")
FILLERS = (" ", "a", "a ", "x ", "\t", "#", "*", "_", "[", "(", ":", "' ")
SUFFIXES = ("", "b", ":", "!")


def reader_patterns() -> dict[str, re.Pattern[str]]:
    """Module-level compiled patterns of every reader module and of the modules in MODULES."""
    import rulegraph.readers as readers

    names = [f"rulegraph.readers.{info.name}" for info in pkgutil.iter_modules(readers.__path__)]
    found: dict[str, re.Pattern[str]] = {}
    for module_name in (*names, *MODULES):
        try:
            module = importlib.import_module(module_name)
        except ImportError:  # a reader whose optional library is absent
            continue
        for name, value in vars(module).items():
            if isinstance(value, re.Pattern):
                found[f"{module_name}.{name}"] = value
    return found


def cue_patterns() -> dict[str, re.Pattern[str]]:
    """Every pattern of src/rulegraph/lang/fr/cues.toml: the cues, and the [language] table."""
    from rulegraph.extract.cues import default_cues, default_language

    found = {f"cues.toml cue #{index} ({cue.relation})": cue.pattern for index, cue in enumerate(default_cues(), start=1)}
    language = default_language()
    for name in language.__dataclass_fields__:
        value = getattr(language, name)
        if isinstance(value, re.Pattern):
            found[f"cues.toml [language] {name}"] = value
    return found


def adversarial(pattern: re.Pattern[str], length: int = 20_000, *, thorough: bool = True) -> Iterator[tuple[str, str]]:
    """(description, text) pairs of about ``length`` characters (single characters: ten times
    more, up to 10^5). ``thorough=False`` keeps fewer endings, for the test suite's budget."""
    for char in SINGLE:
        yield f"{char!r}*{min(length * 10, 100_000)}", char * min(length * 10, 100_000)
    for a, b in itertools.permutations(PAIRS, 2):
        yield f"({a + b!r})*{length // 2}", (a + b) * (length // 2)
    for prefix, filler, suffix in itertools.product(PREFIXES, FILLERS, SUFFIXES if thorough else SUFFIXES[:2]):
        yield f"{prefix!r}+{filler!r}*n+{suffix!r}", prefix + filler * (length // len(filler)) + suffix
    words = list(dict.fromkeys(re.findall(r"[a-z']{2,}", pattern.pattern)))[:12]
    for word in words:
        yield f"({word!r}+' ')*n", (word + " ") * (length // (len(word) + 1))
        yield f"({word!r}+',')*n", (word + ",") * (length // (len(word) + 1))
    for first, second in itertools.pairwise(words):
        unit = f"{first} {second} "
        yield f"({unit!r})*n", unit * (length // len(unit))
    if words:
        unit = "ne " + " ".join(words[:3]) + " "
        yield f"({unit!r})*n", unit * (length // len(unit))


def scan(pattern: re.Pattern[str], text: str) -> float:
    """Seconds to find every match, as ``finditer``/``sub``/``search`` from each position would."""
    started = time.perf_counter()
    for _ in pattern.finditer(text):
        pass
    return time.perf_counter() - started


def audit(patterns: dict[str, re.Pattern[str]], length: int = 20_000, *, thorough: bool = True) -> list[tuple[float, str, str]]:
    """(seconds, pattern name, input description) for every case, slowest first."""
    results = []
    for name, pattern in patterns.items():
        for description, text in adversarial(pattern, length, thorough=thorough):
            results.append((scan(pattern, text), name, description))
    return sorted(results, reverse=True)


if __name__ == "__main__":
    import sys

    which = sys.argv[1] if len(sys.argv) > 1 else "all"
    patterns = {**(reader_patterns() if which in ("all", "readers") else {}),
                **(cue_patterns() if which in ("all", "cues") else {})}
    started = time.perf_counter()
    results = audit(patterns)
    print(f"{len(patterns)} patterns, {len(results)} cases, {time.perf_counter() - started:.1f} s")
    for seconds, name, description in results[:25]:
        print(f"{seconds * 1000:9.1f} ms  {name}  {description}")
