"""The forum method (paper 001): URL structure clustering (USC, ``urls``) finds a forum's kinds
of pages; the Keyword Scoring Filter (KSF) learns the post rule that cuts a thread into posts
(``sitesift.fields.posts``, below every method because the page method reads a lone thread's
posts with it too); ``site`` puts both in order for one site (page types, posts); ``method``
is the forum behind the site-level interface (``sitesift.methods.interface``)."""
