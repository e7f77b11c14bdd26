"""Fixtures of the service tests: a live server shared by the session."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A real server on a free loopback port with two worker processes (as ``sitesift
    serve`` runs): its base URL and profile store path."""
    pytest.importorskip("uvicorn", reason="the service extra (uvicorn) is not installed")
    import uvicorn

    from sitesift.service import ServiceSettings, create_app

    store = str(tmp_path_factory.mktemp("live") / "profiles.db")
    app = create_app(ServiceSettings(profiles=store, workers=2))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the test server did not start")
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}", store
    server.should_exit = True
    thread.join(timeout=30)
