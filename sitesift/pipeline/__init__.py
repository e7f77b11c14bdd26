"""From pages to records: the one place that runs extractors and turns failures into records.

``Extractor`` owns the options of a run. ``extract`` handles one page with the single-page
method; ``extract_many`` a batch, in input order, one record per page whatever happens to it.
With a site-level method (``template``) the batch is grouped by site first: a site's pages are
learned together, then each page is cleaned with the template of its cluster. The ``visual``
method renders pages in a browser pool (kept open until ``close()``) and segments each rendering.

The ``Extractor`` is in ``extractor``; each method's path through it in its own module, the
methods behind the site-level interface (``sitesift.methods.interface``) run by
``site_method`` (docs/design/architecture.md)."""

from sitesift.pipeline.extractor import Extractor, extract_html

__all__ = ["Extractor", "extract_html"]
