"""The review loop in a notebook: the edges the typer was unsure of ("à vérifier") and three
answers, Accepter, Retyper and Supprimer, each appended to the manifest's curation file by the
library of ``rulegraph review`` (so the notebook and the command write the same entries, and an
existing entry is never rewritten). The next build applies the answers.

Every text from the glossaries (sentences, names, the typer's rule) is HTML-escaped before it
reaches a widget.
"""

from __future__ import annotations

import html
from pathlib import Path

import ipywidgets as widgets

from ..build import BuildResult, build
from ..errors import RulegraphError
from ..i18n import _, ngettext, quoted
from ..namespaces import INTERACTIONS
from ..review import ReviewItem, append_to_curation, confidence_text, curation_entry, proposal, review_items
from ..vocabulary import relation_label, relation_phrase
from .atlas import RELATION_COLOURS


class ReviewPanel(widgets.VBox):
    """The list of edges to review, the chosen edge's evidence, and the answer buttons.

    Its parts are attributes so a notebook (or a test) can drive it: ``choice`` (the list),
    ``accept``, ``relation`` and ``retype``, ``reason`` and ``remove``, ``message``; ``pending``
    holds the edges not answered yet and ``answers`` the curation blocks appended so far."""

    def __init__(self, manifest: Path, result: BuildResult, *, game: str | None = None, below: float | None = None):
        self.manifest = Path(manifest)
        self.corpus = result.corpus
        self.pending: list[ReviewItem] = review_items(result.statements, game=game, below=below)
        self.answers: list[str] = []
        self.heading = widgets.HTML()
        self.choice = widgets.Select(rows=min(10, max(3, len(self.pending))), layout=widgets.Layout(width="100%"))
        self.detail = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.accept = widgets.Button(description=_("Accept"), button_style="success", tooltip=_("keep the suggested relation"))
        self.relation = widgets.Dropdown(options=[(_named(name), name) for name in INTERACTIONS],
                                         description=_("Relation"))
        self.retype = widgets.Button(description=_("Retype"), button_style="info", tooltip=_("give the edge the chosen relation"))
        self.reason = widgets.Text(description=_("Reason"), placeholder=_("why (required to Remove)"),
                                   layout=widgets.Layout(width="60%"))
        self.remove = widgets.Button(description=_("Remove"), button_style="danger", tooltip=_("take the edge out (with a reason)"))
        self.message = widgets.HTML()
        self.choice.observe(lambda _change: self._show(), names="value")
        self.accept.on_click(lambda _button: self.answer("accept"))
        self.retype.on_click(lambda _button: self.answer("retype", relation=self.relation.value))
        self.remove.on_click(lambda _button: self.answer("remove"))
        super().__init__([
            self.heading, self.choice, self.detail,
            widgets.HBox([self.accept, self.relation, self.retype]),
            widgets.HBox([self.reason, self.remove]),
            self.message,
        ])
        self._refresh()

    @property
    def current(self) -> ReviewItem | None:
        return next((item for item in self.pending if item.id == self.choice.value), None)

    def answer(self, action: str, *, relation: str | None = None) -> Path | None:
        """Append the answer about the chosen edge to the curation file; say what was written,
        or why nothing was. Returns the curation file's path when an entry was appended."""
        item = self.current
        if item is None:
            self.message.value = "<b>" + html.escape(_("Choose an edge in the list first."), quote=False) + "</b>"
            return None
        reason = self.reason.value.strip() or None
        if action == "remove" and reason is None:
            self.message.value = _nothing_written(html.escape(_("to remove an edge, say why in “Reason”."), quote=False))
            return None
        try:
            block = curation_entry(item, action, relation=relation, reason=reason)
            path = append_to_curation(self.manifest, block, self.corpus)
        except RulegraphError as error:
            self.message.value = _nothing_written(html.escape(str(error)))
            return None
        self.answers.append(block)
        self.pending = [other for other in self.pending if other.id != item.id]
        self.reason.value = ""
        self._refresh()
        self.message.value = html.escape(_("Added to {path}; the next build applies it:"), quote=False).format(
            path=f"<code>{html.escape(str(path))}</code>") + f"<pre>{html.escape(block)}</pre>"
        return path

    def _refresh(self) -> None:
        count = len(self.pending)
        self.heading.value = "<b>" + html.escape(ngettext("To review: {count} edge", "To review: {count} edges", count).format(count=count), quote=False) + \
            "</b> " + html.escape(_("(least sure first)"), quote=False)
        self.choice.options = [(_item_label(item), item.id) for item in self.pending]
        self.choice.value = self.pending[0].id if self.pending else None
        for button in (self.accept, self.retype, self.remove):
            button.disabled = not self.pending
        self._show()

    def _show(self) -> None:
        item = self.current
        self.detail.value = _item_html(item) if item is not None else "<i>" + html.escape(_("Nothing to review."), quote=False) + "</i>"
        if item is not None:
            self.relation.value = item.suggested or item.statement.relation
            self.accept.disabled = item.suggested is None


def _named(relation: str) -> str:
    """"negates (annule les effets de)"; in English the name alone, which is its label."""
    label = relation_label(relation)
    return relation if label == relation else f"{relation} ({label})"


def _nothing_written(why: str) -> str:
    """``why`` is already HTML."""
    return "<b>" + html.escape(_("Nothing was written:"), quote=False) + "</b> " + why


def review_panel(manifest: str | Path, *, result: BuildResult | None = None, game: str | None = None,
                 below: float | None = None) -> ReviewPanel:
    """The review widget for a corpus: the edges left "à vérifier" (and with ``below``, the typed
    edges under that confidence); answers go to the curation file next to ``manifest``.
    ``result`` is that manifest's build, when already at hand."""
    manifest = Path(manifest)
    return ReviewPanel(manifest, result if result is not None else build(manifest), game=game, below=below)


def _item_label(item: ReviewItem) -> str:
    first, relation, second = proposal(item)
    return f"{item.id} · {confidence_text(item)} · " + _("{first} {relation} {second}?").format(
        first=first, relation=relation_phrase(relation), second=second)


def _item_html(item: ReviewItem) -> str:
    statement = item.statement
    first, relation, second = proposal(item)
    colour, caption = RELATION_COLOURS[relation], relation_phrase(relation)
    kind = _("the typer's suggestion") if item.suggested else _("typed relation ({relation})").format(relation=statement.relation)
    question = html.escape(_("{kind}: “{first}” {relation} “{second}”?"), quote=False).format(
        kind=html.escape(kind), first=html.escape(first), second=html.escape(second),
        relation=f'<span style="color:{colour};font-weight:600">{html.escape(caption)}</span>')
    sentence = html.escape(quoted(statement.sentence))
    where = " · ".join([f"{statement.source}:{statement.line}", _("confidence {value}").format(value=confidence_text(item)),
                        _("rule: {rule}").format(rule=statement.rule or "?"), _("review ID {id}").format(id=item.id)])
    return (
        '<div style="font-family:system-ui,sans-serif;font-size:13px;line-height:1.4;'
        'border:1px solid #e3e3e3;border-radius:4px;padding:6px 8px">'
        f"<div>{question}</div>"
        f"<div><i>{sentence}</i></div>"
        f'<div style="color:#777">{html.escape(where)}</div>'
        "</div>"
    )
