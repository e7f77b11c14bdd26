"""The sibling method (paper 004): a block of a page that nearly reappears in pages of the same
URL directory is noise (``site``: same-layer pages, node strings, the matching state machine,
the verdicts, and the cleaning of the page extractor's main block; ``method``: the same behind
the site-level interface, ``sitesift.methods.interface``)."""
