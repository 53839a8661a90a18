"""create_link against a scripted registry: one idempotency key per call, sent again only when the outcome is
unknown, batches of 1000 keyed {request_id}.{n}; the asyncio client the same."""
import asyncio

import pytest

from routeregistry import AsyncClient, InvalidArgument, RegistryError
from routeregistry._links import MAX_BATCH

from test_client_http import FakeRegistry, app_error, client


def batch_answer(request):
    links = request["params"].get("links") or [request["params"]["link"]]
    created = [{**link, "code": link.get("code", f"c{i}"), "domain": "go.badoo.com"} for i, link in enumerate(links)]
    result = {"links": created} if "links" in request["params"] else created[0]
    return 200, {"jsonrpc": "2.0", "id": request["id"], "result": result}


def failing_first(*errors):
    """Answers with `errors` in turn (a JSON-RPC error or "drop"), then creates."""
    def script(request, n):
        if n <= len(errors):
            error = errors[n - 1]
            return error if error == "drop" else (200, {"jsonrpc": "2.0", "id": request["id"], "error": error})
        return batch_answer(request)
    return script


def test_a_batch_whose_outcome_is_unknown_is_sent_again_with_its_one_key():
    links = [{"target": "https://m.badoo.com/u/1"}, {"target": "https://m.badoo.com/u/2", "code": "two"}]
    script = failing_first(app_error(4, "DEADLINE_EXCEEDED", "deadline"), "drop", app_error(10, "ABORTED", "x"))
    with FakeRegistry(script) as fake:
        c = client(fake.url, retries=0)
        out = c.create_link("badoo", links, "summer-2026", backoff=0)
    assert [link["code"] for link in out] == ["c0", "two"]
    assert fake.methods == ["Links.BatchCreate"] * 4
    assert {r["body"]["params"]["requestId"] for r in fake.requests} == {"summer-2026"}
    assert fake.requests[-1]["body"]["params"] == {"app": "badoo", "links": links, "requestId": "summer-2026"}


def test_a_refusal_is_not_sent_again_and_attempts_are_bounded():
    with FakeRegistry(failing_first(app_error(3, "INVALID_ARGUMENT", "link.target"))) as fake:
        with pytest.raises(InvalidArgument):
            client(fake.url, retries=0).create_link("badoo", [{"target": "https://evil.example/"}], backoff=0)
    assert len(fake.requests) == 1
    down = app_error(14, "UNAVAILABLE", "db down")
    with FakeRegistry(failing_first(down, down, down)) as fake:
        with pytest.raises(RegistryError) as caught:
            client(fake.url, retries=0).create_link("badoo", {"target": "https://m.badoo.com/u/1"}, attempts=2,
                                                    backoff=0)
    assert caught.value.code == 14
    assert fake.methods == ["Links.Create", "Links.Create"]
    keys = {r["body"]["params"]["requestId"] for r in fake.requests}
    assert len(keys) == 1, "a random key, the same on both attempts"


def test_more_than_1000_links_go_in_batches_with_derived_keys():
    links = [{"target": f"https://m.badoo.com/u/{i}", "code": f"k{i}"} for i in range(2 * MAX_BATCH + 500)]
    with FakeRegistry(lambda request, n: batch_answer(request)) as fake:
        out = client(fake.url).create_link("badoo", links, "campaign-7")
    assert [link["code"] for link in out] == [link["code"] for link in links]
    assert [(r["body"]["params"]["requestId"], len(r["body"]["params"]["links"])) for r in fake.requests] == [
        ("campaign-7.0", 1000), ("campaign-7.1", 1000), ("campaign-7.2", 500)]
    with pytest.raises(ValueError):
        client(fake.url).create_link("badoo", links, "x" * 63)
    with pytest.raises(ValueError):
        client(fake.url).create_link("badoo", links, "has space")


def test_the_asyncio_client_retries_with_the_same_key():
    async def run(url):
        async with AsyncClient(url, retries=0) as c:
            return await c.create_link("badoo", [{"target": "https://m.badoo.com/u/1"}], "async-1", backoff=0)

    with FakeRegistry(failing_first(app_error(14, "UNAVAILABLE", "db down"))) as fake:
        out = asyncio.run(run(fake.url))
    assert [link["code"] for link in out] == ["c0"]
    assert [r["body"]["params"]["requestId"] for r in fake.requests] == ["async-1", "async-1"]
