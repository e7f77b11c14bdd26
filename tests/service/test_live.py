"""A real server with worker processes: concurrent requests of several sites at once."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from service_pages import page_json

from sitesift.profiles.store import ProfileStore

SITES = ["a-gazette.example", "b-herald.example"]


def test_concurrent_requests_of_several_sites(live_server: tuple[str, str]) -> None:
    base, store = live_server

    async def post_all() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=base, timeout=60) as client:
            jobs = [client.post("/extract", json=page_json(i, site=site))
                    for i in range(4) for site in SITES]
            return await asyncio.gather(*jobs)

    responses = asyncio.run(post_all())
    assert [r.status_code for r in responses] == [200] * len(responses)
    records = [r.json() for r in responses]
    assert all(r["error"] is None and "story" in r["text"] for r in records)
    assert {r["site"] for r in records} == set(SITES)
    with ProfileStore(store) as saved:
        for site in SITES:  # every site learned, every profile whole
            profile = saved.get(site)
            assert profile is not None and profile.templates, site
    health = httpx.get(f"{base}/health").json()
    assert health["workers"] == 2 and health["sites_in_memory"] >= len(SITES)


def test_sites_listing_matches_the_store(live_server: tuple[str, str]) -> None:
    base, store = live_server
    listed = {s["site"]: s for s in httpx.get(f"{base}/sites").json()}
    with ProfileStore(store) as saved:
        rows = saved.sites()
    for row in rows:
        assert listed[row["site"]]["profile"] and listed[row["site"]]["pages"] == row["pages"]
    if not rows:
        pytest.fail("no profile saved")
