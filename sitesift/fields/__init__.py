"""Fields of a record, read from a page by every method: title (``titles``, placed by
``title_place``; from the site's list pages, paper 003, ``list_titles``), publication time
(``dates``, from ``declared_dates`` and ``printed_dates``), author (``authors``;
Chinese bylines ``zh_bylines``), the page's own declarations (``metadata``, ``jsonld``,
``declared``) and a thread's posts (``posts``, the post rules of paper 001's KSF)."""
