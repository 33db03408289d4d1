"""``rulegraph lexicon suggest FILE… --game G``: a draft lexicon file for the designer to confirm."""

from __future__ import annotations

from pathlib import Path

from ..i18n import _
from .common import add_source_arguments


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("lexicon", help="write a draft lexicon file (states, sections, characteristics…)")
    actions = parser.add_subparsers(dest="lexicon_action", required=True, metavar="suggest")
    suggest = actions.add_parser(
        "suggest", help="guess a game's states, rule sections, equipment and characteristics from its texts",
        description="Read the glossary (FILE… --game G, or a manifest's game) and write a draft lexicon file: the "
                    "states, rule sections, equipment and characteristics its texts name, and the ability names "
                    "that are ordinary French words, each with where it was seen. Nothing is overwritten.")
    add_source_arguments(suggest)
    suggest.add_argument("--out", type=Path, help="file to write (default: print the draft)")
    suggest.set_defaults(run=run)


def run(args) -> int:
    from ..corpus import corpus_from_files, load_corpus
    from ..errors import RulegraphError
    from ..extract.suggest import format_lexicon_draft, suggest_lexicon
    from ..text import fold
    from .common import DEFAULT_MANIFEST

    if args.files:
        if not args.game:
            raise RulegraphError(_('building from files needs --game NAME'))
        options = {k: v for k, v in {"name_field": args.name_field, "text_field": args.text_field}.items() if v}
        corpus = corpus_from_files(args.files, game=args.game, format=args.format, options=options)
    else:
        corpus = load_corpus(args.manifest or DEFAULT_MANIFEST)
    games = list(corpus.games)
    if args.game and not args.files:
        games = [g for g in games if fold(args.game) in (fold(g), fold(corpus.games[g].name))]
        if not games:
            raise RulegraphError(_('no game {game!r} in the manifest').format(game=args.game))
    if len(games) != 1:
        raise RulegraphError(_('the manifest has several games ({games}); choose one with --game').format(games=', '.join(games)))
    game = games[0]
    draft = format_lexicon_draft(corpus.games[game].name, suggest_lexicon(corpus, game))
    if args.out is None:
        print(draft, end="")
        return 0
    if args.out.exists():
        raise RulegraphError(_('already exists; rulegraph never overwrites a lexicon file: choose another --out'), path=args.out)
    args.out.write_text(draft, encoding="utf-8")
    print(f"wrote {args.out}: check each line, then name it as the game's lexicon in corpus.toml")
    return 0
