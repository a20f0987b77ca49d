"""Sphinx configuration of cardgen's user guide (Markdown pages read by MyST).

Built by the test suite with warnings as errors (`tests/test_docs.py`); by hand:
`python -m sphinx -W -b html docs output/docs`, then open `output/docs/index.html`.
"""

project = "cardgen"
author = "the cardgen developers"
copyright = "2026, the cardgen developers"

extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "images/*.md"]

myst_heading_anchors = 3  # `[text](page.md#a-heading)` links to headings down to ###
myst_enable_extensions = ["colon_fence"]
suppress_warnings = ["myst.header"]  # DEVELOPING.md and the measurements start their sections at level 2

html_theme = "alabaster"
html_title = "cardgen"
html_show_sourcelink = False
html_theme_options = {"page_width": "1100px", "sidebar_width": "240px"}
