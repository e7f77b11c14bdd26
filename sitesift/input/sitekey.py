"""Which site a page belongs to: the key that groups pages for site-level methods.

Mode ``auto`` takes, in order:

1. the site the input gave (a manifest's ``site`` field), as given;
2. the registrable domain of the URL ("eTLD+1", from the Public Suffix List shipped offline by
   ``publicsuffixlist``): ``news.bbc.co.uk`` -> ``bbc.co.uk``, ``a.b.example.com`` ->
   ``example.com``, ``alice.github.io`` stays whole (private suffixes count, so each hosted
   blog is its own site). IP addresses, ``localhost``, single-label hosts and hosts that are
   themselves a public suffix stay as they are; ports, user info and a trailing dot are dropped;
3. the name of the folder input the page came from: pages of one folder input without URLs
   form one site named after that folder (``crawl/example.com/`` -> ``example.com``). A
   ``source`` that is not an existing folder (a manifest, a WARC file, ``-``) is ignored: a
   list of pages or a crawl file says nothing about which site a page belongs to;
4. None: unknown, left to clustering.

Mode ``none`` always gives None, so later clustering has to find the sites.
"""

from __future__ import annotations

import functools
import ipaddress
import re
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from sitesift.errors import UsageError
from sitesift.options import SITE_KEYS

__all__ = ["registrable_domain", "site_key", "url_problem"]

#: A URL scheme; group 1 is set when an authority ("//host") follows. "example.com:8080/a"
#: is a host and port, not a scheme, hence the digit look-ahead.
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:(?!\d)(//)?")


if TYPE_CHECKING:
    from publicsuffixlist import PublicSuffixList


@functools.cache
def _suffix_list() -> PublicSuffixList:
    """The Public Suffix List, parsed once per process (~40 ms) and only read afterwards;
    imported here, as pages whose input names their site never need it (10 ms of start-up)."""
    from publicsuffixlist import PublicSuffixList

    return PublicSuffixList()


def site_key(
    url: str | None, given: str | None, source: str | None, *, mode: str = "auto"
) -> str | None:
    """The site key of a page (see the module docstring); None when unknown or mode is none."""
    if mode not in SITE_KEYS:
        raise UsageError(f"unknown site key mode {mode!r}; choose one of {', '.join(SITE_KEYS)}")
    if mode == "none":
        return None
    if given is not None and str(given).strip():
        return str(given).strip()
    if url:
        domain = registrable_domain(url)
        if domain:
            return domain
    if source:
        return _folder_name(source)
    return None


def registrable_domain(url: str) -> str | None:
    """The registrable domain of ``url``'s host, the host itself where there is none, or None."""
    host = _host(url)
    if not host:
        return None
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        return host
    if "." not in host:
        return host
    return _suffix_list().privatesuffix(host) or host


def url_problem(url: str | None) -> str | None:
    """Why ``url`` cannot be used (``urlsplit`` rejects it: an unbalanced "[" of an IPv6
    literal, a bad port), or None. Every later stage splits page URLs."""
    if url is None:
        return None
    try:
        urlsplit(url).port  # noqa: B018 - reading the port checks it
    except ValueError as exc:
        return f"unusable URL {url[:200]!r}: {exc}"
    return None


def _host(url: str) -> str | None:
    text = url.strip()
    scheme = _SCHEME.match(text)
    if scheme is None:
        # "example.com/path" has no scheme; urlsplit would read the host as a path.
        text = "//" + text
    elif not scheme.group(1):
        return None  # mailto:, data:, javascript: ... name no host
    try:
        host = urlsplit(text).hostname
    except ValueError:  # e.g. an unbalanced "[" in an IPv6 literal
        return None
    if not host:
        return None
    host = host.strip(".").lower()
    return host or None


def _folder_name(source: str) -> str | None:
    path = Path(source)
    if not path.is_dir():
        return None
    name = path.name or path.resolve().name
    return name or None
