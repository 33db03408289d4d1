"""``rulegraph evaluate [GOLD.tsv MANIFEST.toml]``: score the extractor against a hand-written gold."""

from __future__ import annotations

from pathlib import Path

from ..i18n import _


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "evaluate", help="score the extracted edges against a hand-written gold file",
        description="Score the extracted ability-to-ability edges (after curation) against a hand-written gold "
                    "file. Without arguments, scores the annotated sets shipped with rulegraph "
                    "(the seeds and the invented glossaries of tests/gold and examples/).")
    parser.add_argument("gold", nargs="?", type=Path, help="gold TSV (game, subject, relation, object, line, evidence)")
    parser.add_argument("manifest", nargs="?", type=Path, help="corpus manifest (corpus.toml) of the glossary the gold annotates")
    parser.add_argument("--cross-validate", action="store_true",
                        help="leave one glossary out: score every shipped gold set with a typer trained without it, "
                             "and print the calibration of its confidence")
    parser.add_argument("--root", type=Path, default=Path("."),
                        help="the repository checkout holding tests/gold and examples (default: the current folder)")
    parser.set_defaults(run=run)


def run(args) -> int:
    from ..errors import RulegraphError
    from ..evaluation import default_sets, evaluate_manifest, format_evaluation

    if args.cross_validate:
        return _cross_validate(args)
    if (args.gold is None) != (args.manifest is None):
        raise RulegraphError(_('give both GOLD.tsv and MANIFEST.toml, or neither to score the shipped sets'))
    sets = {args.gold.stem: (args.gold, args.manifest)} if args.gold else default_sets(args.root)
    print("\n\n".join(format_evaluation(evaluate_manifest(name, gold, manifest)) for name, (gold, manifest) in sets.items()))
    return 0


def _cross_validate(args) -> int:
    from ..errors import RulegraphError
    from ..evaluation import cross_validate_sets, default_sets, format_cross_validation
    from .common import Progress

    if args.gold is not None:
        raise RulegraphError(_('--cross-validate scores the shipped gold sets; give no GOLD.tsv or MANIFEST.toml with it'))
    show = Progress()  # on a terminal only, as a build's progress: a pipe gets the figures alone

    def progress(done: int, total: int) -> None:
        show(_("analysing sentences with spaCy ({done}/{total}, cached after this run)").format(done=done, total=total))

    print(format_cross_validation(cross_validate_sets(default_sets(args.root), progress=progress)))
    show.done()
    return 0
