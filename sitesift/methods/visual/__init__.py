"""The visual method (paper 002): a page rendered in the browser (``sitesift.render``) is cut
into visual blocks (``blocks``), pruned by the paper's rules (``prune``), and its title and time are
read from visual cues (``cues``); ``segmenter`` runs these steps over a rendering; ``draw``
paints the blocks on a screenshot of the page."""
