"""The HTTP service (``sitesift serve``) and its web inspector.

``app.create_app`` builds the FastAPI application; ``memory`` keeps the recent pages of each
site and decides when a site is learned again; ``work`` is what runs in the worker pool, off
the event loop; ``static/`` holds the inspector page. Needs the ``service`` extra
(``pip install 'sitesift[service]'``)."""

from __future__ import annotations

__all__ = ["ServiceSettings", "create_app", "serve"]


def __getattr__(name: str) -> object:
    # FastAPI is an optional dependency: importing sitesift.service alone must not need it.
    if name in __all__:
        from sitesift.service import app

        return getattr(app, name)
    raise AttributeError(name)
