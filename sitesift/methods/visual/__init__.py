"""The visual method (paper 002): a page rendered in the browser (``sitesift.render``) is cut
into visual blocks, and its body, title and time are read from them (``segmenter``); ``draw``
paints the blocks on a screenshot of the page."""
