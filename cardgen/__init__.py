"""cardgen: YAML card databases → cut-ready print-and-play PDFs, checked against the rulebooks and proven by play."""

from cardgen import native

__version__ = "0.1.0"

native.install()  # the engines' compiled modules, unless their sources changed since (`native`)
