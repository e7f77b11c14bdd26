"""Group pages: into templates by structure (paper 000), and into sites by shared template text.

Paper 000 clusters a site's pages hierarchically on ISTM similarity but gives neither the
linkage nor the cut; both were chosen on the dev sets (curves in docs/design/template.md).

With ``--site-key none`` the pages of many sites arrive mixed and the sites must be found
first. Structure is a *template* signal (two sites on one CMS look alike, one site has list and
article templates); the short strings a template prints on every page (menu entries, footer
lines, section names) are a *site* signal. So discovery runs in two stages: sites by shared
template strings (``discover_sites``), then templates by relaxed ISTM inside each site
(``discover_templates``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from lxml import etree
from scipy import sparse
from scipy.cluster.hierarchy import fcluster
from scipy.cluster.hierarchy import linkage as hierarchical_linkage
from scipy.spatial.distance import squareform

from sitesift.methods.template.features import PageFeatures, page_features, page_strings
from sitesift.methods.template.istm import similarity_matrix

__all__ = [
    "SITE_CUT",
    "SITE_EVIDENCE",
    "SITE_LINKAGE",
    "TEMPLATE_CUT",
    "TEMPLATE_LINKAGE",
    "cluster_pages",
    "discover_sites",
    "discover_templates",
    "string_similarity",
]

#: Linkage of the template clustering. Complete linkage: every two pages of a cluster are at
#: least 1 - TEMPLATE_CUT alike, which is what DeleteSame needs (each page of a cluster serves
#: as a reference for every other). With the cut below it is at the best ARI of all three dev
#: checks (big9 + cleanportal separated by structure alone 0.946; each big9 site's 2005 and
#: 2009 templates 0.937; each list-detail site's lists and articles 0.904); average linkage
#: peaks lower on the first (0.912).
TEMPLATE_LINKAGE = "complete"
#: Distance cut (1 - relaxed ISTM) of the template clustering: pages of one template share
#: more than about half of their weighted leaf paths.
TEMPLATE_CUT = 0.45

#: Linkage of the site clustering: average linkage, since a page's template strings overlap
#: some of its siblings' more than others' (sections, list pages); single linkage chains sites
#: of one publisher network, complete linkage splits sites with list and article pages.
SITE_LINKAGE = "average"
#: Distance cut of the site clustering: two groups of pages are one site when, on average,
#: more than a fifth of the repeated strings of their pages are shared. The ARI curves of the
#: big9 mix, zh-sites and list-detail all peak at or next to this cut (docs/design/template.md).
SITE_CUT = 0.8
#: Pseudo-count of strings added to every union: little evidence must not look like much. In a
#: small collection, two pages of different sites that share a single string ("Home") would
#: otherwise score 1/1; with 5 one shared string stays below the cut (1/6 < 0.2), two do not.
SITE_EVIDENCE = 5.0
def _features(pages: Sequence[etree._Element | PageFeatures]) -> list[PageFeatures]:
    feats = [p if isinstance(p, PageFeatures) else page_features(p, signatures=False)
             for p in pages]
    for f in feats:
        f.need("structure", "strings")
    return feats


def string_similarity(
    strings: Sequence[np.ndarray], *, evidence: float = SITE_EVIDENCE
) -> np.ndarray:
    """Site similarity of every pair of pages (n x n, ones on the diagonal).

    A Jaccard index of the pages' string sets in which a string counts only when at least two
    pages of the collection hold it: a string found in one page only is that page's content
    and says nothing about which site it belongs to, yet it would swell the union (list pages,
    long articles). What a page shares with no-one else is left out; what it shares with other
    pages but not with this one (its own site's template) still counts against the pair.
    ``evidence`` is added to every union (see SITE_EVIDENCE)."""
    n = len(strings)
    if n == 0:
        return np.zeros((0, 0))
    per_page = [np.unique(np.asarray(s, dtype=np.uint64)) for s in strings]
    rows = np.repeat(np.arange(n), [len(s) for s in per_page])
    _, columns = np.unique(np.concatenate(per_page), return_inverse=True)
    columns = columns.ravel()
    frequency = np.bincount(columns, minlength=1)
    repeated = frequency[columns] >= 2  # per (page, string) entry; strings are unique per page
    incidence = sparse.csr_matrix(
        (np.ones(int(repeated.sum())), (rows[repeated], columns[repeated])),
        shape=(n, frequency.size),
    )
    shared = (incidence @ incidence.T).toarray()
    sizes = np.diag(shared).copy()
    union = sizes[:, None] + sizes[None, :] - shared + evidence
    sim = np.divide(shared, union, out=np.zeros_like(shared), where=union > 0)
    np.fill_diagonal(sim, 1.0)
    return np.clip(sim, 0.0, 1.0)


def _relabel(raw: Sequence[object] | np.ndarray) -> np.ndarray:
    """Labels 0..k-1 in the order of each cluster's first page (any hashable raw labels)."""
    order: dict[object, int] = {}
    return np.array([order.setdefault(x, len(order)) for x in list(raw)], dtype=np.int64)


def cluster_pages(
    sim: np.ndarray, *, linkage: str = TEMPLATE_LINKAGE, threshold: float = TEMPLATE_CUT
) -> np.ndarray:
    """Cluster labels (0..k-1, numbered by each cluster's first page) of hierarchical
    clustering on the distance 1 - ``sim``, cut at ``threshold``.

    ``sim`` is any n x n similarity in [0, 1] (ISTM for templates, ``string_similarity`` for
    sites); it is read, not changed. Asymmetric input is averaged with its transpose; the
    diagonal is ignored. Pages with equal rows land together whatever the cut."""
    matrix = np.asarray(sim, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"similarity must be a square matrix, not of shape {matrix.shape}")
    if not np.isfinite(matrix).all():
        raise ValueError("similarity holds NaN or infinite values")
    n = matrix.shape[0]
    if n <= 1:
        return np.zeros(n, dtype=np.int64)
    distance = 1.0 - np.clip((matrix + matrix.T) / 2.0, 0.0, 1.0)
    np.fill_diagonal(distance, 0.0)
    tree = hierarchical_linkage(squareform(distance, checks=False), method=linkage)
    return _relabel(fcluster(tree, t=threshold, criterion="distance"))


def discover_sites(
    pages: Sequence[etree._Element | PageFeatures],
    *,
    linkage: str = SITE_LINKAGE,
    threshold: float = SITE_CUT,
) -> np.ndarray:
    """Site labels (0..k-1) of mixed pages given without URL or site: pages that share
    enough of their repeated short strings (``string_similarity``) are one site.

    A page without any visible string (a skeleton filled in by script, a broken page) gives no
    evidence and stays a site of its own. Falling back on structure between such pages was
    tried and dropped: their structure is as empty as their text (one leaf), so it put every
    empty page of every site together (l3s-gn1: ARI 0.649 -> 0.632)."""
    # Only the strings are needed here: a root is not walked for its structure.
    strings = []
    for page in pages:
        if isinstance(page, PageFeatures):
            page.need("strings")
            strings.append(page.strings)
        else:
            strings.append(page_strings(page))
    return cluster_pages(string_similarity(strings), linkage=linkage, threshold=threshold)


def discover_templates(
    pages: Sequence[etree._Element | PageFeatures],
    sites: Sequence[object] | np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(site labels, template labels) of mixed pages: sites by ``discover_sites`` unless
    ``sites`` gives them (any hashable per page: site keys, hosts), then templates by relaxed
    ISTM inside each site. Template labels are unique across sites, numbered by each
    template's first page."""
    feats = _features(pages)
    site_labels = discover_sites(feats) if sites is None else _relabel(sites)
    if len(site_labels) != len(feats):
        raise ValueError(f"{len(site_labels)} site labels for {len(feats)} pages")
    by_site: dict[int, list[int]] = {}
    for i, site in enumerate(site_labels.tolist()):
        by_site.setdefault(site, []).append(i)
    raw = np.zeros(len(feats), dtype=np.int64)
    offset = 0
    for members in by_site.values():
        sim = similarity_matrix([feats[i].structure for i in members], relaxed=True)
        local = cluster_pages(sim)
        raw[members] = local + offset
        offset += int(local.max()) + 1
    return site_labels, _relabel(raw)
