"""What Python users of the client expect (issue 16): one exception family with a class per gRPC status,
per-call deadlines, `with Client(...)`, an asyncio client, idempotent retries of writes with a requestId,
`from_env` reading the CLI's config file, no printing unless asked, TLS mistakes not retried."""

import asyncio
import io
import json
import threading
import time

import pytest

import routeregistry
from routeregistry import (
    AlreadyExists, AsyncClient, Client, DeadlineExceeded, InvalidArgument, NotFound, ProtocolError, RegistryError,
    RouteRegistryError, Unavailable, error_for,
)
from routeregistry import _methods
from test_client_http import FakeRegistry, app_error, client, err, ok, publish_release  # noqa: F401 (a fixture)


@pytest.mark.parametrize("code, cls", [
    (1, "Cancelled"), (2, "Unknown"), (3, "InvalidArgument"), (4, "DeadlineExceeded"), (5, "NotFound"),
    (6, "AlreadyExists"), (7, "PermissionDenied"), (8, "ResourceExhausted"), (9, "FailedPrecondition"),
    (10, "Aborted"), (11, "OutOfRange"), (12, "Unimplemented"), (13, "Internal"), (14, "Unavailable"),
    (15, "DataLoss"), (16, "Unauthenticated"),
])
def test_each_status_raises_its_own_class(code, cls):
    status = routeregistry.status_name(code)
    with FakeRegistry(err(app_error(code, status, "no"))) as fake:
        with pytest.raises(RegistryError) as caught:
            client(fake.url, retries=0).apps_get("x")
    assert type(caught.value).__name__ == cls
    assert isinstance(caught.value, getattr(routeregistry, cls))
    assert (caught.value.code, caught.value.status) == (code, status)


def test_undecodable_params_are_invalid_argument_like_any_bad_input():
    # What the server answers for Releases.Publish with version "five": the protocol error -32602, whose data
    # names the status. It must be caught by the same `except InvalidArgument` as a bad route id.
    violation = [{"field": "version", "description": "must be 1 to 4 dot-separated numbers"}]
    answer = {"code": -32602, "message": "Invalid params: version: must be 1 to 4 dot-separated numbers",
              "data": {"status": "INVALID_ARGUMENT", "details": violation}}
    with FakeRegistry(err(answer)) as fake:
        with pytest.raises(InvalidArgument) as caught:
            client(fake.url).releases_publish("badoo", "ios", "five")
    e = caught.value
    assert isinstance(e, RegistryError) and isinstance(e, RouteRegistryError)
    assert (e.code, e.status, e.jsonrpc_code, e.details) == (3, "INVALID_ARGUMENT", -32602, violation)
    assert "version" in str(e)


def test_error_for_keeps_unknown_codes_generic():
    e = error_for(42, None, "future")
    assert type(e) is RegistryError and e.status == "CODE_42"
    assert isinstance(error_for(5, "NOT_FOUND", "x"), NotFound)


def slow(seconds, result):
    def script(request, n):
        time.sleep(seconds)
        return 200, {"jsonrpc": "2.0", "id": request["id"], "result": result}
    return script


def test_per_call_timeout_is_a_deadline_the_server_is_told():
    # The answer would take 10 s: failing well before proves the deadline (bounds leave room for a loaded machine).
    with FakeRegistry(slow(10.0, {"id": "x"})) as fake:
        c = client(fake.url, timeout=30)
        started = time.monotonic()
        with pytest.raises(DeadlineExceeded):
            c.apps_get("x", timeout=0.3)
        assert time.monotonic() - started < 5.0
        header = int(fake.requests[0]["headers"]["X-Request-Timeout-Ms"])
        assert 200 <= header <= 300
    with FakeRegistry(slow(0.5, {"id": "x"})) as fake:
        assert client(fake.url, timeout=0.1).apps_get("x", timeout=30) == {"id": "x"}  # the call's own deadline wins


def test_the_deadline_bounds_retries_too():
    with FakeRegistry(err(app_error(14, "UNAVAILABLE", "db down"))) as fake:
        # 100 retries 50-100 ms apart would take at least 5 s.
        c = Client(fake.url, retries=100, backoff=0.1, max_backoff=0.1)
        started = time.monotonic()
        # The last attempt's error, or the deadline itself when it ran out during an attempt (a loaded machine).
        with pytest.raises((Unavailable, DeadlineExceeded)):
            c.apps_get("x", timeout=0.5)
        assert time.monotonic() - started < 4.0
        assert 1 <= len(fake.requests) < 20


def test_with_client_closes_it():
    with FakeRegistry(ok({"apps": []})) as fake:
        with Client(fake.url) as c:
            assert c.apps_list() == {"apps": []}
        with pytest.raises(RuntimeError, match="closed"):
            c.apps_list()
    assert len(fake.requests) == 1


def with_request_id(monkeypatch, method):
    # The other writes gain a requestId param as the server learns them; until then, pretend for one.
    info = _methods.METHOD_INFO[method]
    monkeypatch.setitem(_methods.METHOD_INFO, method, info._replace(request_id=True))


def test_a_write_with_a_request_id_is_retried_with_the_same_id(monkeypatch):
    with_request_id(monkeypatch, "Releases.Publish")

    def script(request, n):
        if n in (1, 2):
            return 200, {"jsonrpc": "2.0", "id": request["id"], "error": app_error(14, "UNAVAILABLE", "db down")}
        if n == 3:
            return "drop"
        return 200, {"jsonrpc": "2.0", "id": request["id"], "result": {"release": {"state": "live"}}}

    with FakeRegistry(script) as fake:
        c = client(fake.url, retries=5)
        c.releases_publish("badoo", "ios", "5.12.0")
        c.releases_publish("badoo", "ios", "5.13.0")
    ids = [r["body"]["params"].get("requestId") for r in fake.requests]
    assert len(ids) == 5
    assert ids[0] and len(set(ids[:4])) == 1, "one logical call, one id on every attempt"
    assert ids[4] and ids[4] != ids[0], "another call gets another id"


def test_a_write_without_a_request_id_is_not_retried_after_sending(monkeypatch):
    info = _methods.METHOD_INFO["Apps.Create"]
    assert not info.read_only
    monkeypatch.setitem(_methods.METHOD_INFO, "Apps.Create", info._replace(request_id=False))
    with FakeRegistry(err(app_error(14, "UNAVAILABLE", "db down"))) as fake:
        with pytest.raises(Unavailable):
            client(fake.url, retries=3).apps_create({"id": "x"})
    assert len(fake.requests) == 1
    assert "requestId" not in fake.requests[0]["body"]["params"]


def test_a_caller_given_request_id_is_kept(monkeypatch):
    with_request_id(monkeypatch, "Releases.Publish")
    with FakeRegistry(ok({})) as fake:
        client(fake.url).call("Releases.Publish", app="badoo", platform="ios", version="5", requestId="ci-run-42")
    assert fake.requests[0]["body"]["params"]["requestId"] == "ci-run-42"


def test_https_to_a_plain_http_server_fails_at_once_and_clearly():
    with FakeRegistry(ok({})) as fake:
        c = client(fake.url.replace("http://", "https://"), retries=3)
        with pytest.raises(ProtocolError) as caught:
            c.apps_get("x")
    assert "TLS" in str(caught.value) and "http://" in str(caught.value)
    # Says which call failed, and no "HTTP None": there was no HTTP answer at all.
    assert str(caught.value).startswith("Apps.Get: TLS with 127.0.0.1:"), str(caught.value)
    assert "None" not in str(caught.value), str(caught.value)
    assert c.sleeps == [], "a TLS mistake is not retried"
    assert not isinstance(caught.value, Unavailable)


def test_async_https_to_a_plain_http_server_fails_at_once_naming_the_call():
    async def call(url):
        c = AsyncClient(url.replace("http://", "https://"), retries=3)
        sleeps = []

        async def record(delay):
            sleeps.append(delay)
        c._transport.sleep = record
        with pytest.raises(ProtocolError) as caught:
            await c.apps_get("x")
        return caught.value, sleeps

    with FakeRegistry(ok({})) as fake:
        error, sleeps = asyncio.run(call(fake.url))
    assert sleeps == [], "a TLS mistake is not retried"
    assert str(error).startswith("Apps.Get: TLS with 127.0.0.1:") and "http://" in str(error), str(error)
    assert "None" not in str(error), str(error)


def test_publish_release_prints_nothing_unless_asked(capsys, publish_release):
    result = {"release": {"state": "live"}, "revisions": [{"host": "m.badoo.com", "revision": 2, "changed": True}],
              "lint": []}

    def script(request, n):
        answer = {"documents": [], "lint": []} if request["method"] == "Associations.Preview" else result
        return 200, {"jsonrpc": "2.0", "id": request["id"], "result": answer}

    with FakeRegistry(script) as fake:
        publish_release(fake.url, "badoo", "ios", "5.12.0")
        assert capsys.readouterr().out == ""
        out = io.StringIO()
        publish_release(fake.url, "badoo", "ios", "5.12.0", out=out)
    assert "m.badoo.com aasa revision 2 (new revision)" in out.getvalue()


def write_config(tmp_path, content):
    path = tmp_path / "routereg" / "config.json"
    path.parent.mkdir(parents=True)
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


def test_from_env_reads_the_cli_config_file(tmp_path):
    write_config(tmp_path, {"server": "http://10.0.0.1:9000", "token": "from-file"})
    env = {"XDG_CONFIG_HOME": str(tmp_path), "HOME": "/nonexistent"}
    c = Client.from_env(env)
    assert (c.server, c._transport.token) == ("http://10.0.0.1:9000", "from-file")
    c = Client.from_env({**env, "ROUTEREG_SERVER": "http://127.0.0.1:1", "ROUTEREG_TOKEN": "from-env"})
    assert (c.server, c._transport.token) == ("http://127.0.0.1:1", "from-env")
    c = Client.from_env({"ROUTEREG_CONFIG": str(tmp_path / "routereg" / "config.json")}, timeout=3)
    assert (c.server, c._transport.timeout) == ("http://10.0.0.1:9000", 3)
    c = Client.from_env({"HOME": str(tmp_path / "nobody")})
    assert (c.server, c._transport.token) == ("http://127.0.0.1:8080", None)
    assert AsyncClient.from_env(env).server == "http://10.0.0.1:9000"


def test_from_env_refuses_a_malformed_config_file(tmp_path):
    path = write_config(tmp_path, "{not json")
    with pytest.raises(ValueError, match=str(path)):
        Client.from_env({"ROUTEREG_CONFIG": str(path)})


def test_async_client_calls_retries_and_decodes_errors():
    def script(request, n):
        if request["method"] == "Apps.Get" and n == 1:
            return 200, {"jsonrpc": "2.0", "id": request["id"], "error": app_error(14, "UNAVAILABLE", "db down")}
        if request["method"] == "Apps.Get":
            return 200, {"jsonrpc": "2.0", "id": request["id"], "result": {"id": request["params"]["app"]}}
        if request["method"] == "Domains.Create":
            return 200, {"jsonrpc": "2.0", "id": request["id"], "error": app_error(6, "ALREADY_EXISTS", "taken")}
        pages = {None: (["a"], "t1"), "t1": (["b"], "")}
        items, token = pages[request["params"].get("pageToken")]
        return 200, {"jsonrpc": "2.0", "id": request["id"],
                     "result": {"routes": [{"id": i} for i in items], "nextPageToken": token}}

    async def scenario(url):
        async with AsyncClient(url, token="t", backoff=0.01) as c:
            assert await c.apps_get("badoo") == {"id": "badoo"}
            with pytest.raises(AlreadyExists):
                await c.domains_create({"host": "m.badoo.com", "apps": ["badoo"]})
            ids = [r["id"] async for r in c.iter_items("Routes.List", app="badoo")]
        with pytest.raises(RuntimeError):
            await c.apps_get("badoo")
        return ids

    with FakeRegistry(script) as fake:
        assert asyncio.run(scenario(fake.url)) == ["a", "b"]
    assert fake.methods == ["Apps.Get", "Apps.Get", "Domains.Create", "Routes.List", "Routes.List"]
    assert fake.requests[0]["headers"]["Authorization"] == "Bearer t"


def test_async_client_deadline_and_concurrency():
    async def deadline(url):
        started = time.monotonic()
        with pytest.raises(DeadlineExceeded):
            await AsyncClient(url).apps_get("x", timeout=0.2)
        return time.monotonic() - started

    in_flight = {"now": 0, "most": 0}
    lock = threading.Lock()

    def overlapping(request, n):
        with lock:
            in_flight["now"] += 1
            in_flight["most"] = max(in_flight["most"], in_flight["now"])
        time.sleep(1.0)
        with lock:
            in_flight["now"] -= 1
        return 200, {"jsonrpc": "2.0", "id": request["id"], "result": {"id": request["params"]["app"]}}

    async def concurrently(url):
        c = AsyncClient(url)
        return await asyncio.gather(*(c.apps_get(str(i), timeout=60) for i in range(10)))

    with FakeRegistry(slow(10.0, {"id": "x"})) as fake:
        assert asyncio.run(deadline(fake.url)) < 5.0
    with FakeRegistry(overlapping) as fake:
        results = asyncio.run(concurrently(fake.url))
    assert results == [{"id": str(i)} for i in range(10)]
    assert in_flight["most"] >= 5, "the calls overlap: the client does not serialize them"


def test_publish_release_timeout_bounds_the_preview_and_the_publish_together(publish_release):
    # The preview answers in 0.5 s, the publish in 10 s: a 2 s budget lets the preview through, and the publish is
    # sent with what is left (told to the server, so it never applies the release after the job gave up), then
    # fails in time.
    def script(request, n):
        time.sleep(0.5 if request["method"] == "Associations.Preview" else 10.0)
        answer = {"documents": [], "lint": []} if request["method"] == "Associations.Preview" else {}
        return 200, {"jsonrpc": "2.0", "id": request["id"], "result": answer}

    with FakeRegistry(script) as fake:
        started = time.monotonic()
        with pytest.raises(DeadlineExceeded):
            publish_release(fake.url, "badoo", "ios", "5.12.0", timeout=2.0)
        assert time.monotonic() - started < 6.0
    assert fake.methods == ["Associations.Preview", "Releases.Publish"]
    preview_ms, publish_ms = (int(r["headers"]["X-Request-Timeout-Ms"]) for r in fake.requests)
    assert 1800 <= preview_ms <= 2000 and publish_ms <= 1500, (preview_ms, publish_ms)


def test_publish_release_does_not_publish_once_its_deadline_passed(publish_release):
    def script(request, n):
        time.sleep(0.6)
        return 200, {"jsonrpc": "2.0", "id": request["id"], "result": {"documents": [], "lint": []}}

    with FakeRegistry(script) as fake:
        with pytest.raises(DeadlineExceeded):
            publish_release(fake.url, "badoo", "ios", "5.12.0", timeout=0.3)
    assert fake.methods == ["Associations.Preview"]


def test_the_package_imports_only_the_standard_library():
    # "Standard library only" (the asyncio client included): every absolute import names a stdlib module.
    import ast
    import sys
    from conftest import CLIENT_DIR
    imported = set()
    for path in (CLIENT_DIR / "routeregistry").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    assert {"asyncio", "http", "json"} <= imported
    assert imported - set(sys.stdlib_module_names) - {"__future__"} == set()


@pytest.mark.parametrize("helper, method, args, params", [
    ("iter_apps", "Apps.List", (), {}),
    ("iter_domains", "Domains.List", ("badoo",), {"app": "badoo"}),
    ("iter_routes", "Routes.List", ("badoo",), {"app": "badoo"}),
    ("iter_releases", "Releases.List", ("badoo", "ios", "live"), {"app": "badoo", "platform": "ios", "state": "live"}),
    ("iter_revisions", "Associations.ListRevisions", ("m.badoo.com", "aasa"), {"host": "m.badoo.com", "kind": "aasa"}),
    ("iter_tokens", "Tokens.List", (), {}),
    ("iter_audit", "Audit.List", ("apps/badoo",), {"resource": "apps/badoo"}),
])
def test_the_async_client_has_every_named_pagination_helper(helper, method, args, params):
    key = _methods.METHOD_INFO[method].page_items

    def script(request, n):
        token = request["params"].get("pageToken")
        items, following = ([{"n": 1}, {"n": 2}], "t1") if token is None else ([{"n": 3}], "")
        return 200, {"jsonrpc": "2.0", "id": request["id"], "result": {key: items, "nextPageToken": following}}

    async def collect(url):
        async with AsyncClient(url) as c:
            return [item async for item in getattr(c, helper)(*args, page_size=2)]

    with FakeRegistry(script) as fake:
        from_async = asyncio.run(collect(fake.url))
        from_sync = list(getattr(client(fake.url), helper)(*args, page_size=2))
    assert from_async == from_sync == [{"n": 1}, {"n": 2}, {"n": 3}]
    assert fake.methods == [method] * 4
    sent = [r["body"]["params"] for r in fake.requests]
    assert sent[:2] == [{**params, "pageSize": 2}, {**params, "pageSize": 2, "pageToken": "t1"}]
    assert sent[2:] == sent[:2], "the async helper sends what the blocking one sends"


@pytest.mark.parametrize("asynchronous", [False, True], ids=["Client", "AsyncClient"])
@pytest.mark.parametrize("helper, args", [("iter_routes", ("badoo",)), ("iter_items", ("Routes.List",))])
def test_pagination_helpers_take_a_per_call_timeout(asynchronous, helper, args):
    # Each page is one call, bounded by the helper's timeout= (the client's default is 30 s here).
    async def drain(url):
        async with AsyncClient(url, timeout=30) as c:
            return [item async for item in getattr(c, helper)(*args, timeout=0.3)]

    with FakeRegistry(slow(10.0, {"routes": []})) as fake:
        started = time.monotonic()
        with pytest.raises(DeadlineExceeded):
            if asynchronous:
                asyncio.run(drain(fake.url))
            else:
                list(getattr(client(fake.url, timeout=30), helper)(*args, timeout=0.3))
        assert time.monotonic() - started < 5.0
    assert int(fake.requests[0]["headers"]["X-Request-Timeout-Ms"]) <= 300
