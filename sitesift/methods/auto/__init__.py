"""``auto``: a policy over the methods, not a paper. Per page it keeps the answer the methods
agree on (``choose``: stages voted by text overlap), and the site's pages show which lines the
page extractor kept are fields, not story (``slots``), which lines recur alike on other pages
(``recurrence``) and what it left out that is story (``restore``); a page the
forum method reads as a thread is answered with its posts only where they hold its text
(``threads``)."""
