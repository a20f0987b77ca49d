"""cardgen: YAML card databases → cut-ready print-and-play PDFs, checked against the rulebooks and proven by play."""

__version__ = "0.1.0"
