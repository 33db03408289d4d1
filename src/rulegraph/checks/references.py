"""undefined-reference: a name used as an ability that its game does not define.

Every place it is used is listed (the ability whose text uses it, file:line), with the closest
names the game does define and, marked as such, those of other games: often the name exists
elsewhere under another spelling, or in the other game the rules were adapted from.
"""

from __future__ import annotations

import difflib
from collections import defaultdict

from rdflib import RDF, Graph, URIRef

from ..catalogue import abilities, game_of, label_of, statements
from ..i18n import _
from ..namespaces import RG
from ..text import closest, fold
from .finding import CheckId, Finding
from .records import TextLocator, place

UNDEFINED_REFERENCE = CheckId("RG002", "undefined-reference")
HINTS = 3
#: Names of other games must be closer than the same game's (difflib ratio on folded names):
#: a loose match across games is noise, a close one is often the name the rule was adapted from.
OTHER_GAME_CUTOFF = 0.8


def check_undefined_references(graph: Graph) -> list[Finding]:
    defined = abilities(graph)
    locator = TextLocator(defined)
    labels_by_game: dict[str, list[str]] = defaultdict(list)
    for ability in defined:
        labels_by_game[ability.game].append(ability.label)
    uses: dict[URIRef, list[tuple[str, int, str]]] = defaultdict(list)
    for item in statements(graph):
        for node in (item.subject, item.object):
            if (node, RDF.type, RG.UndefinedAbility) in graph:
                user = locator.ability_at(item.source, item.line)
                name = user.label if user else ""
                if name and item.edition:
                    name += f" [{item.edition}]"
                uses[node].append((item.source, item.line, name))
    findings = []
    for undefined in graph.subjects(RDF.type, RG.UndefinedAbility):
        if not isinstance(undefined, URIRef):
            continue
        node = undefined
        label = label_of(graph, node)
        game = game_of(graph, node)[1]
        places = sorted(set(uses.get(node, [])))
        where = ", ".join(f"{user} ({place(source, line)})" if user else place(source, line)
                          for source, line, user in places)
        if where:
            message = _("“{name}” is used as an ability but {game} does not define it; used in: {places}.").format(
                name=label, game=game, places=where)
        else:
            message = _("“{name}” is used as an ability but {game} does not define it.").format(name=label, game=game)
        hints = _hints(label, game, labels_by_game)
        if hints:
            message += " " + _("Close names: {names}.").format(names=hints)
        first = places[0] if places else (None, None, "")
        findings.append(UNDEFINED_REFERENCE.finding("warning", label, game, message, first[0], first[1]))
    return findings


def _hints(label: str, game: str, labels_by_game: dict[str, list[str]]) -> str:
    """Close names in the same game first, then other games' names with the game in brackets."""
    own = closest(label, labels_by_game.get(game, []), limit=HINTS)
    others = []
    for other_game, labels in sorted(labels_by_game.items()):
        if other_game == game:
            continue
        for name in closest(label, labels, limit=HINTS):
            if difflib.SequenceMatcher(None, fold(name), fold(label)).ratio() >= OTHER_GAME_CUTOFF:
                others.append(_("{name} (other game: {game})").format(name=name, game=other_game))
    return ", ".join([*own, *others[:HINTS]])
