"""The template method (paper 000): pages of one site cluster by structure (``istm``,
``cluster``); what a cluster's pages share word for word is its template and is deleted from
each page's main block (``template``); a cluster read alike keeps a wrapper for its main text
(``wrapper``) and the places of its fields (``fields``). ``site`` puts the steps in order for
one site; ``profile`` is what is kept of it between runs."""
