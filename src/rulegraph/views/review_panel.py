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
from ..namespaces import INTERACTIONS
from ..review import ReviewItem, append_to_curation, curation_entry, review_items, suggested_ends
from ..vocabulary import relation_label, relation_phrase
from .atlas import LANGUAGE, RELATION_COLOURS


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
        self.accept = widgets.Button(description="Accepter", button_style="success", tooltip="garder la relation suggérée")
        self.relation = widgets.Dropdown(options=[(f"{name} ({relation_label(name, LANGUAGE)})", name) for name in INTERACTIONS],
                                         description="Relation")
        self.retype = widgets.Button(description="Retyper", button_style="info", tooltip="donner à l'arête la relation choisie")
        self.reason = widgets.Text(description="Raison", placeholder="pourquoi (obligatoire pour Supprimer)",
                                   layout=widgets.Layout(width="60%"))
        self.remove = widgets.Button(description="Supprimer", button_style="danger", tooltip="retirer l'arête (avec une raison)")
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
            self.message.value = "<b>Choisissez d'abord une arête dans la liste.</b>"
            return None
        reason = self.reason.value.strip() or None
        if action == "remove" and reason is None:
            self.message.value = "<b>Rien n'a été écrit :</b> pour supprimer une arête, dites pourquoi dans « Raison »."
            return None
        try:
            block = curation_entry(item, action, relation=relation, reason=reason)
            path = append_to_curation(self.manifest, block, self.corpus)
        except RulegraphError as error:
            self.message.value = f"<b>Rien n'a été écrit :</b> {html.escape(str(error))}"
            return None
        self.answers.append(block)
        self.pending = [other for other in self.pending if other.id != item.id]
        self.reason.value = ""
        self._refresh()
        self.message.value = (
            f"Ajouté à <code>{html.escape(str(path))}</code> ; la prochaine construction l'applique :"
            f"<pre>{html.escape(block)}</pre>"
        )
        return path

    def _refresh(self) -> None:
        count = len(self.pending)
        self.heading.value = f"<b>À vérifier : {count} arête{'s' if count > 1 else ''}</b> (la moins sûre d'abord)"
        self.choice.options = [(_item_label(item), item.id) for item in self.pending]
        self.choice.value = self.pending[0].id if self.pending else None
        for button in (self.accept, self.retype, self.remove):
            button.disabled = not self.pending
        self._show()

    def _show(self) -> None:
        item = self.current
        self.detail.value = _item_html(item) if item is not None else "<i>Rien à vérifier.</i>"
        if item is not None:
            self.relation.value = item.suggested or item.statement.relation
            self.accept.disabled = item.suggested is None


def review_panel(manifest: str | Path, *, result: BuildResult | None = None, game: str | None = None,
                 below: float | None = None) -> ReviewPanel:
    """The review widget for a corpus: the edges left "à vérifier" (and with ``below``, the typed
    edges under that confidence); answers go to the curation file next to ``manifest``.
    ``result`` is that manifest's build, when already at hand."""
    manifest = Path(manifest)
    return ReviewPanel(manifest, result if result is not None else build(manifest), game=game, below=below)


def _proposal(item: ReviewItem) -> tuple[str, str, str]:
    """(subject, relation, object) the designer is asked about: the suggestion, or the typed edge."""
    statement = item.statement
    if item.suggested:
        first, second = suggested_ends(statement.subject.label, statement.object.label, item.suggested_edge or "")
        return first, item.suggested, second
    return statement.subject.label, statement.relation, statement.object.label


def _confidence(item: ReviewItem) -> str:
    value = item.statement.confidence
    return "?" if value is None else f"{value:.2f}".replace(".", ",")


def _item_label(item: ReviewItem) -> str:
    first, relation, second = _proposal(item)
    return f"{item.id} · {_confidence(item)} · {first} {relation_phrase(relation, LANGUAGE)} {second} ?"


def _item_html(item: ReviewItem) -> str:
    statement = item.statement
    first, relation, second = _proposal(item)
    colour, caption = RELATION_COLOURS[relation], relation_phrase(relation, LANGUAGE)
    kind = "suggestion du typeur" if item.suggested else f"relation typée ({statement.relation})"
    return (
        '<div style="font-family:system-ui,sans-serif;font-size:13px;line-height:1.4;'
        'border:1px solid #e3e3e3;border-radius:4px;padding:6px 8px">'
        f"<div>{html.escape(kind)} : « {html.escape(first)} » "
        f'<span style="color:{colour};font-weight:600">{html.escape(caption)}</span> « {html.escape(second)} » ?</div>'
        f"<div><i>« {html.escape(statement.sentence)} »</i></div>"
        f'<div style="color:#777">{html.escape(statement.source)}:{statement.line} · confiance {_confidence(item)}'
        f" · règle : {html.escape(statement.rule or '?')} · ID de revue {item.id}</div>"
        "</div>"
    )
