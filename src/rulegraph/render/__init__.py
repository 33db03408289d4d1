"""Everything a user reads, rendered in one place: results in, strings out.

- :mod:`~rulegraph.render.answers`: the text of ``interactions``, ``resolve``, ``impact``,
  ``complexity`` and the build summary;
- :mod:`~rulegraph.render.diffs`: word diffs, edition and revision comparisons;
- :mod:`~rulegraph.render.tables`: plain-text and HTML tables, CSV cells;
- :mod:`~rulegraph.render.report`: the consistency report as text, Markdown, HTML and JSON.

Renderers never print and never read the graph: the commands, the notebooks and the build call
them with the results the library computed.
"""
