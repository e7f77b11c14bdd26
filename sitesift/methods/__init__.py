"""Site-level methods: the interface every one implements (``interface``).

The methods themselves still live in ``sitesift.compare`` (papers 000, 001, 003, 004) and
``sitesift.methods.visual.segmenter`` (paper 002); docs/architecture.md plans their move here, one
subpackage per method.
"""
