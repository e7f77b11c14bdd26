"""The API in-process (TestClient, work in threads): learning as pages arrive, the profile
summary, and a clear 4xx for each kind of bad input."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from service_pages import BOILERPLATE, page_json

pytest.importorskip("fastapi", reason="the service extra (fastapi) is not installed")

with warnings.catch_warnings():  # starlette's note that httpx will be replaced
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sitesift.options import Options
from sitesift.profiles.store import ProfileStore
from sitesift.service import ServiceSettings, create_app
from sitesift.service.memory import MemorySettings

SITE = "gazette.example"


@pytest.fixture
def store(tmp_path: Path) -> str:
    return str(tmp_path / "profiles.db")


@pytest.fixture
def client(store: str) -> Iterator[TestClient]:
    settings = ServiceSettings(profiles=store, workers=0, max_request_bytes=200_000,
                               memory=MemorySettings(min_learn_pages=3))
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def test_health_and_openapi_spec(client: TestClient) -> None:
    assert client.get("/health").json()["status"] == "ok"
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/extract", "/learn", "/sites", "/sites/{site}", "/health"} <= set(paths)


def test_a_site_is_learned_as_its_pages_arrive(client: TestClient, store: str) -> None:
    records = [client.post("/extract", json=page_json(i)).json() for i in range(5)]
    assert [r["method"] for r in records[:2]] == ["page", "page"]
    assert all(BOILERPLATE in r["text"] for r in records[:2])  # the page method keeps it
    # From the third page on the site has a profile: its shared line goes.
    assert all(r["method"] == "template" for r in records[2:])
    assert all(BOILERPLATE not in r["text"] and "story" in r["text"] for r in records[2:])
    assert all(r["site"] == SITE for r in records)
    with ProfileStore(store) as saved:
        assert saved.get(SITE) is not None

    listed = client.get("/sites").json()
    assert [(s["site"], s["profile"], s["recent"]) for s in listed] == [(SITE, True, 5)]
    summary = client.get(f"/sites/{SITE}").json()
    assert summary["pages"] >= 3 and summary["templates"]
    template = summary["templates"][0]
    assert template["template_subtrees"] > 0 and template["container"].startswith("/html/body")
    assert sum(summary["clusters"].values()) == 5 and len(summary["recent"]) == 5


def test_learn_batch_then_a_new_page_uses_the_profile(client: TestClient) -> None:
    out = client.post("/learn", json={"pages": [page_json(i) for i in range(4)]
                                      + [{"html": "<p>no site of its own</p>"}]}).json()
    assert out["unsited"] == 1 and out["sites"][0]["site"] == SITE
    assert out["sites"][0]["templates"] >= 1
    record = client.post("/extract", json=page_json(9)).json()
    assert record["method"] == "template" and BOILERPLATE not in record["text"]


def test_a_page_is_served_for_the_inspector_with_a_fresh_record(client: TestClient) -> None:
    for i in range(3):
        client.post("/extract", json=page_json(i))
    page_id = page_json(1)["url"]
    out = client.get(f"/sites/{SITE}/page", params={"id": page_id}).json()
    assert out["html"] == page_json(1)["html"] and out["record"]["method"] == "template"
    assert client.get(f"/sites/{SITE}/page", params={"id": "nope"}).status_code == 404
    assert client.get("/sites/unknown.example").status_code == 404


def test_a_page_without_site_is_extracted_and_not_kept(client: TestClient) -> None:
    record = client.post("/extract", json={"html": page_json(0)["html"]}).json()
    assert record["method"] == "page" and record["site"] is None
    assert client.get("/sites").json() == []


def test_fetched_dates_a_relative_date(client: TestClient) -> None:
    html = ("<html><head><title>Storm hits the coast</title></head><body><h1>Storm hits the "
            "coast</h1><p>By Jane Doe · 3 hours ago</p><p>" + "The storm reached the coast "
            "early in the morning, and the town closed its harbour. " * 8 + "</p></body></html>")
    page = {"html": html, "url": "https://news.example.com/storm"}
    assert client.post("/extract", json=page).json()["published"] is None
    record = client.post("/extract", json={**page, "fetched": "2026-11-26T10:00:00Z"}).json()
    assert record["published"] == "2026-11-26T07:00:00+00:00"
    assert client.post("/extract", json={**page, "fetched": "soon"}).status_code == 422


def test_a_page_over_a_limit_is_a_record_read_up_to_it(store: str) -> None:
    settings = ServiceSettings(profiles=store, workers=0, options=Options(max_page_bytes=500))
    with TestClient(create_app(settings)) as small:
        response = small.post("/extract", json=page_json(0))
    assert response.status_code == 200 and response.json()["error"] is None
    assert "exceeds the limit of 500" in response.json()["warnings"][0]


@pytest.mark.parametrize(
    ("body", "headers", "status", "says"),
    [
        (b'{"html": ', {"content-type": "application/json"}, 400, "not valid JSON"),
        (b"<html></html>", {"content-type": "text/html"}, 415, "application/json"),
        (b'{"html": "plain words"}', {"content-type": "application/json"}, 422, "not HTML"),
        (b'{"html": "   "}', {"content-type": "application/json"}, 422, "empty"),
        (b'{"url": "https://a.example/"}', {"content-type": "application/json"}, 422,
         "html: Field required"),
        (b'{"url": "http://[::1", "html": "<p>x</p>"}', {"content-type": "application/json"},
         422, "unusable URL"),
        (b'{"html": "<p>' + b"x" * 300_000 + b'</p>"}', {"content-type": "application/json"},
         413, "larger than the limit"),
    ],
)
def test_bad_input_gets_a_clear_4xx(
    client: TestClient, body: bytes, headers: dict[str, str], status: int, says: str
) -> None:
    response = client.post("/extract", content=body, headers=headers)
    assert response.status_code == status
    assert says in response.json()["detail"]


def test_a_body_too_large_without_content_length_is_refused(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"html": "<p>'
        for _ in range(30):
            yield b"x" * 10_000
        yield b'</p>"}'

    response = client.post("/extract", content=chunks(),
                           headers={"content-type": "application/json"})
    assert response.status_code == 413


def test_a_request_over_its_time_limit_gets_504(
    store: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def slow(job: object) -> None:
        time.sleep(0.6)

    monkeypatch.setattr("sitesift.service.app.run_job", slow)
    settings = ServiceSettings(profiles=store, workers=0, request_timeout=0.2)
    with TestClient(create_app(settings)) as slow_client:
        response = slow_client.post("/extract", json=page_json(0))
    assert response.status_code == 504 and "0.2 s" in response.json()["detail"]


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="workers"):
        ServiceSettings(workers=-1)


def test_a_lone_surrogate_in_a_json_string_reads_as_a_replacement_character(
    client: TestClient,
) -> None:
    """JSON may escape a lone surrogate; no UTF-8 text holds one (it was a 500)."""
    for extra in (b"", b', "id": "\\udfff"'):
        body = b'{"html": "<p>\\ud800 lone</p>"' + extra + b"}"
        response = client.post("/extract", content=body,
                               headers={"content-type": "application/json"})
        assert response.status_code == 200 and response.json()["text"] == "\ufffd lone"
