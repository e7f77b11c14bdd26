"""The ``serve`` fixture: a ``crawl_site.Site`` served on 127.0.0.1 for one test."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import pytest
from crawl_site import Server, Site, handler


@pytest.fixture
def serve() -> Iterator[Callable[[Site], Site]]:
    """Start a server for a ``Site`` on 127.0.0.1 (stopped after the test); sets ``site.base``."""
    servers: list[Server] = []

    def start(site: Site) -> Site:
        server = Server(("127.0.0.1", 0), handler(site))
        threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
        servers.append(server)
        site.base = f"http://127.0.0.1:{server.server_address[1]}"
        return site

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


