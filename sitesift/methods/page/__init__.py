"""The page method: one page alone, the base every site-level method runs first. ``content``
chooses and prunes the main block and the page type; ``records`` finds repeated records
(teasers, feed items), ``linked`` lists whose items link their own pages, ``thread`` a lone
thread's posts."""
