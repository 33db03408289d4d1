"""rulegraph: tabletop-game rules glossaries → a knowledge graph of abilities and interactions.

Importing the package does no work and pulls in neither rdflib, pyvis nor IPython; the modules
are imported where they are used (``rulegraph.build``, ``rulegraph.views``, ``rulegraph.checks``…).
"""

__version__ = "0.1.0"
