"""``sitesift serve``: settings from the parsed arguments, then the server."""

from __future__ import annotations

import argparse
import sys

__all__ = ["run_serve"]


def run_serve(args: argparse.Namespace) -> int:
    """Serve until interrupted; 2 when the ``service`` extra is missing or a setting is bad."""
    try:
        from sitesift.service.app import ServiceSettings, serve
    except ImportError as exc:
        print(f"sitesift: error: serve needs the service extra "
              f"(pip install 'sitesift[service]'): {exc}", file=sys.stderr)
        return 2
    given = {
        "workers": args.workers,
        "request_timeout": args.request_timeout,
        "max_request_bytes": args.max_request_bytes,
    }
    try:
        settings = ServiceSettings(
            profiles=args.profiles, options=args.options,
            **{k: v for k, v in given.items() if v is not None},
        )
    except ValueError as exc:
        print(f"sitesift: error: {exc}", file=sys.stderr)
        return 2
    serve(settings, host=args.host, port=args.port)
    return 0
