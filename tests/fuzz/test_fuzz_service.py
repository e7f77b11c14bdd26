"""Property-based fuzzing of the HTTP service in-process: whatever the body, headers or path,
the answer is a 2xx or a 4xx with a reason, never a 5xx; a page that is extracted gives a
record whose error (if any) says what was wrong."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator

import pytest
from fuzz_inputs import ERROR, FUZZ, IDS, MARKUP, ODD_TEXT, PAGE_BYTES, counted
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("fastapi", reason="the service extra (fastapi) is not installed")

with warnings.catch_warnings():  # starlette's note that httpx will be replaced
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sitesift.service import ServiceSettings, create_app

JSON_TEXT = ODD_TEXT | st.just("\ud800 lone surrogate")
URLS = st.none() | st.sampled_from(["http://a.fuzz.test/1", "https://b.fuzz.test/x?y=1",
                                    "/relative", "http://[::1", "http://a.test:99999/", ""])
PAGE = st.fixed_dictionaries(
    {"html": MARKUP | JSON_TEXT | st.tuples(MARKUP, JSON_TEXT, MARKUP).map("".join)},
    optional={"id": IDS, "url": URLS | JSON_TEXT, "site": st.none() | JSON_TEXT,
              "extra": JSON_TEXT},
)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    store = str(tmp_path_factory.mktemp("fuzz-service") / "profiles.db")
    settings = ServiceSettings(profiles=store, workers=0, max_request_bytes=100_000)
    with TestClient(create_app(settings), raise_server_exceptions=False) as test_client:
        yield test_client


def body_of(value: object, ascii_only: bool) -> bytes:
    return json.dumps(value, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")


@FUZZ
@given(page=PAGE, ascii_only=st.booleans())
def test_extract_answers_every_json_page(client: TestClient, page: dict,
                                         ascii_only: bool) -> None:
    response = client.post("/extract", content=body_of(page, ascii_only),
                           headers={"content-type": "application/json"})
    assert response.status_code < 500, response.text
    if response.status_code == 200:
        record = response.json()
        assert record["error"] is None or ERROR.match(record["error"]), record["error"]
    else:
        assert 400 <= response.status_code < 500 and response.json()["detail"]
    counted("service_extract", 1)


@FUZZ
@given(body=PAGE_BYTES | st.binary(max_size=300),
       kind=st.sampled_from(["application/json", "text/html", "", "application/x+json",
                             "multipart/form-data"]),
       path=st.sampled_from(["/extract", "/learn", "/sites", "/sites/x", "/sites/%00/page",
                             "/health", "/nope"]),
       method=st.sampled_from(["POST", "GET", "PUT"]))
def test_any_request_is_answered_without_a_server_error(
    client: TestClient, body: bytes, kind: str, path: str, method: str,
) -> None:
    headers = {"content-type": kind} if kind else {}
    response = client.request(method, path, content=body, headers=headers)
    assert response.status_code < 500, response.text
    counted("service_requests", 1)


@FUZZ
@given(pages=st.lists(PAGE, max_size=4), ascii_only=st.booleans())
def test_learn_answers_every_batch(client: TestClient, pages: list[dict],
                                   ascii_only: bool) -> None:
    response = client.post("/learn", content=body_of({"pages": pages}, ascii_only),
                           headers={"content-type": "application/json"})
    assert response.status_code < 500, response.text
    counted("service_learn", len(pages))
