"""The client's HTTP handling against a tiny scripted JSON-RPC server (http.server in a thread): result and
error decoding, headers, retries (and the writes that must not be retried), pagination, publish_release."""

import asyncio
import io
import json
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from routeregistry import AsyncClient, Client, LintFailure, ProtocolError, RegistryError, TransportError


class FakeRegistry:
    """Answers each POST with `script(request, n)` -> (http status, body dict/bytes/None) or "drop"."""

    def __init__(self, script):
        self.script = script
        self.requests = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length))
                fake.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                answer = fake.script(body, len(fake.requests))
                if answer == "drop":  # read the request, then hang up without answering
                    self.close_connection = True
                    return
                status, payload = answer
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        class Server(ThreadingHTTPServer):
            def handle_error(self, request, client_address):
                # A client that gave up (its deadline passed) is expected; anything else is still reported.
                if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
                    super().handle_error(request, client_address)

        self.server = Server(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()

    @property
    def methods(self):
        return [r["body"]["method"] for r in self.requests]


def ok(result):
    return lambda request, n: (200, {"jsonrpc": "2.0", "id": request["id"], "result": result})


def app_error(code, status, message, details=None):
    data = {"status": status}
    if details is not None:
        data["details"] = details
    return {"code": code, "message": message, "data": data}


def err(error):
    return lambda request, n: (200, {"jsonrpc": "2.0", "id": request["id"], "error": error})


def client(url, **kw):
    c = Client(url, token=kw.pop("token", None), retries=kw.pop("retries", 3), timeout=kw.pop("timeout", 5), **kw)
    c.sleeps = []
    c._transport.sleep = c.sleeps.append  # no real waiting in tests; the delays are recorded
    return c


def test_result_request_shape_and_headers():
    with FakeRegistry(ok({"id": "badoo", "name": "apps/badoo"})) as fake:
        result = client(fake.url, token="s3cret").apps_get("badoo")
    assert result == {"id": "badoo", "name": "apps/badoo"}
    request = fake.requests[0]
    assert request["path"] == "/rpc"
    assert request["headers"]["Authorization"] == "Bearer s3cret"
    assert request["headers"]["Content-Type"] == "application/json"
    assert request["body"]["jsonrpc"] == "2.0"
    assert request["body"]["method"] == "Apps.Get"
    assert request["body"]["params"] == {"app": "badoo"}


def test_absent_optionals_are_not_sent_and_names_are_camel_case():
    with FakeRegistry(ok({"routes": [], "nextPageToken": ""})) as fake:
        c = client(fake.url)
        c.routes_list("badoo", page_size=10)
        c.associations_diff("m.badoo.com", 2, 3)
        c.routes_switch_off("badoo", "lookalikes", "android", [51200], reason=None)
    assert fake.requests[0]["body"]["params"] == {"app": "badoo", "pageSize": 10}
    assert fake.requests[1]["body"]["params"] == {"host": "m.badoo.com", "fromRevision": 2, "toRevision": 3}
    switch_off = dict(fake.requests[2]["body"]["params"])
    assert switch_off.pop("requestId")  # a write carries a fresh idempotency key
    assert switch_off == {"app": "badoo", "route": "lookalikes", "platform": "android", "versions": ["51200"]}


def test_no_auth_header_without_token_and_rpc_discover_has_no_params():
    with FakeRegistry(ok({"openrpc": "1.2.6"})) as fake:
        assert client(fake.url).rpc_discover() == {"openrpc": "1.2.6"}
    assert "Authorization" not in fake.requests[0]["headers"]
    assert "params" not in fake.requests[0]["body"]


def test_application_error_is_decoded():
    details = [{"field": "route.platforms.ios.since", "description": "must be 1 to 4 dot-separated numbers"}]
    with FakeRegistry(err(app_error(3, "INVALID_ARGUMENT", "route.platforms.ios.since: bad", details))) as fake:
        with pytest.raises(RegistryError) as caught:
            client(fake.url).routes_create("badoo", {"id": "x", "pattern": {"path": "/x"}})
    e = caught.value
    assert (e.code, e.status, e.message, e.details) == (3, "INVALID_ARGUMENT", "route.platforms.ios.since: bad", details)
    assert "route.platforms.ios.since: must be 1 to 4" in str(e)
    assert "Routes.Create" in str(e)
    assert not isinstance(e, TransportError)


def test_unknown_code_and_missing_data_still_decode():
    with FakeRegistry(err({"code": 42, "message": "future"})) as fake:
        with pytest.raises(RegistryError) as caught:
            client(fake.url).apps_get("x")
    assert (caught.value.code, caught.value.status, caught.value.details) == (42, "CODE_42", [])


@pytest.mark.parametrize("code", [-32700, -32600, -32601, -32602, -32603])
def test_protocol_errors(code):
    with FakeRegistry(err({"code": code, "message": "nope", "data": {"x": 1}})) as fake:
        with pytest.raises(ProtocolError) as caught:
            client(fake.url).call("Apps.Get", app="x")
    assert (caught.value.code, caught.value.message, caught.value.data) == (code, "nope", {"x": 1})
    assert len(fake.requests) == 1


def test_non_json_rpc_http_answers():
    with FakeRegistry(lambda r, n: (415, b"unsupported")) as fake:
        with pytest.raises(ProtocolError) as caught:
            client(fake.url).apps_get("x")
    assert caught.value.code is None and caught.value.http_status == 415
    with FakeRegistry(lambda r, n: (200, b"<html>")) as fake:
        with pytest.raises(ProtocolError) as caught:
            client(fake.url).apps_get("x")
    assert caught.value.code == -32700


def test_answer_with_another_id_is_refused():
    with FakeRegistry(lambda r, n: (200, {"jsonrpc": "2.0", "id": r["id"] + 1000, "result": {}})) as fake:
        with pytest.raises(ProtocolError, match="id"):
            client(fake.url).apps_get("x")


def test_reads_are_retried_on_unavailable_with_growing_backoff():
    def script(request, n):
        if n < 3:
            return 200, {"jsonrpc": "2.0", "id": request["id"], "error": app_error(14, "UNAVAILABLE", "db down")}
        return 200, {"jsonrpc": "2.0", "id": request["id"], "result": {"id": "badoo"}}

    with FakeRegistry(script) as fake:
        c = client(fake.url, retries=3, backoff=1.0, max_backoff=100)
        assert c.apps_get("badoo") == {"id": "badoo"}
    assert fake.methods == ["Apps.Get"] * 3
    assert len(c.sleeps) == 2
    assert 0.5 <= c.sleeps[0] <= 1.0 and 1.0 <= c.sleeps[1] <= 2.0
    ids = [r["body"]["id"] for r in fake.requests]
    assert len(set(ids)) == 3


def test_retries_give_up_after_the_limit():
    with FakeRegistry(err(app_error(14, "UNAVAILABLE", "db down"))) as fake:
        c = client(fake.url, retries=2)
        with pytest.raises(RegistryError) as caught:
            c.can_open_check("badoo", "ios", "5.11.0", "https://m.badoo.com/x")
    assert caught.value.code == 14 and caught.value.message == "db down"
    assert len(fake.requests) == 3


def test_a_write_without_a_request_id_is_not_retried_on_unavailable():
    # Tokens.Create is the one write without a requestId (replaying it would mean storing the secret).
    with FakeRegistry(err(app_error(14, "UNAVAILABLE", "db down"))) as fake:
        c = client(fake.url, retries=3)
        with pytest.raises(RegistryError) as caught:
            c.tokens_create({"displayName": "ci", "role": "reader"})
    assert caught.value.code == 14
    assert len(fake.requests) == 1 and c.sleeps == []


def test_a_write_with_a_request_id_is_retried_with_the_same_one_on_unavailable():
    with FakeRegistry(err(app_error(14, "UNAVAILABLE", "db down"))) as fake:
        c = client(fake.url, retries=2)
        with pytest.raises(RegistryError):
            c.releases_publish("badoo", "ios", "5.12.0")
    keys = {r["body"]["params"]["requestId"] for r in fake.requests}
    assert len(fake.requests) == 3 and len(keys) == 1


def test_a_route_batch_is_sent_as_one_list_and_repeated_only_with_its_request_id():
    # Repeated after the server may have committed it, an import would fail ALREADY_EXISTS on its own routes;
    # with the same requestId the server answers the first outcome instead.
    routes = ({"id": "a", "pattern": {"path": "/a/*"}}, {"id": "b", "pattern": {"path": "/b/*"}})
    with FakeRegistry(lambda r, n: "drop") as fake:
        with pytest.raises(TransportError) as caught:
            client(fake.url, retries=2).routes_batch_create("badoo", routes)
    assert caught.value.sent and set(fake.methods) == {"Routes.BatchCreate"}
    sent = [dict(r["body"]["params"]) for r in fake.requests]
    assert len({p.pop("requestId") for p in sent}) == 1
    assert all(p == {"app": "badoo", "routes": list(routes)} for p in sent)


def test_other_errors_are_never_retried():
    with FakeRegistry(err(app_error(5, "NOT_FOUND", "apps/x not found"))) as fake:
        with pytest.raises(RegistryError):
            client(fake.url).apps_get("x")
    assert len(fake.requests) == 1


def test_dropped_connection_after_sending_retries_reads_and_keyed_writes_only():
    with FakeRegistry(lambda r, n: "drop") as fake:
        c = client(fake.url, retries=2)
        with pytest.raises(TransportError) as caught:
            c.apps_get("x")
        assert caught.value.sent and caught.value.code == 14
        assert len(fake.requests) == 3
        with pytest.raises(TransportError) as caught:
            c.tokens_create({"displayName": "ci", "role": "reader"})
        assert caught.value.sent
        assert fake.methods.count("Tokens.Create") == 1


def test_gateway_errors_are_unavailable():
    def script(request, n):
        if n == 1:
            return 503, b"upstream down"
        return 200, {"jsonrpc": "2.0", "id": request["id"], "result": {"apps": []}}

    with FakeRegistry(script) as fake:
        assert client(fake.url).apps_list() == {"apps": []}
    assert len(fake.requests) == 2


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_writes_are_retried_when_connecting_failed():
    port = free_port()  # nothing listens there: every connection is refused before anything is sent
    c = client(f"http://127.0.0.1:{port}", retries=2)
    with pytest.raises(TransportError) as caught:
        c.releases_publish("badoo", "ios", "5.12.0")
    assert not caught.value.sent
    assert caught.value.status == "UNAVAILABLE"
    assert len(c.sleeps) == 2


def test_connection_refused_then_server_up():
    # A write whose first connection is refused goes through once the server answers.
    port = free_port()
    fake = FakeRegistry(ok({"release": {"state": "live"}, "revisions": [], "lint": []}))
    fake.server.server_close()
    c = client(f"http://127.0.0.1:{port}", retries=3)

    def start_server(_delay):
        c._transport.sleep = lambda d: None
        fake.server = type(fake.server)(("127.0.0.1", port), fake.server.RequestHandlerClass)
        fake.thread = threading.Thread(target=fake.server.serve_forever, args=(0.02,), daemon=True)
        fake.thread.start()

    c._transport.sleep = start_server
    try:
        assert c.releases_publish("badoo", "ios", "5.12.0")["release"]["state"] == "live"
    finally:
        fake.__exit__()
    assert fake.methods == ["Releases.Publish"]


def test_server_url_forms():
    with FakeRegistry(ok({})) as fake:
        client(fake.url + "/rpc").apps_list()
        client(fake.url + "/base/").apps_list()
    assert [r["path"] for r in fake.requests] == ["/rpc", "/base/rpc"]
    with pytest.raises(ValueError):
        Client("ftp://example.com")


def test_pagination_follows_tokens():
    pages = {None: (["a", "b"], "t1"), "t1": (["c"], "t2"), "t2": (["d"], "")}

    def script(request, n):
        items, token = pages[request["params"].get("pageToken")]
        return 200, {"jsonrpc": "2.0", "id": request["id"],
                     "result": {"routes": [{"id": i} for i in items], "nextPageToken": token}}

    with FakeRegistry(script) as fake:
        ids = [r["id"] for r in client(fake.url).iter_routes("badoo", page_size=2)]
    assert ids == ["a", "b", "c", "d"]
    assert [r["body"]["params"] for r in fake.requests] == [
        {"app": "badoo", "pageSize": 2}, {"app": "badoo", "pageSize": 2, "pageToken": "t1"},
        {"app": "badoo", "pageSize": 2, "pageToken": "t2"}]


def test_pagination_stops_on_a_repeated_token():
    with FakeRegistry(ok({"entries": [{"id": "1"}], "nextPageToken": "same"})) as fake:
        with pytest.raises(ProtocolError, match="twice"):
            list(client(fake.url).iter_audit())
    assert len(fake.requests) == 2


PUBLISHED = {"release": {"name": "apps/badoo/platforms/ios/releases/5.12.0", "state": "live"},
             "revisions": [{"host": "m.badoo.com", "kind": "aasa", "revision": 3, "etag": "e3", "changed": True},
                           {"host": "badoo.com", "kind": "aasa", "revision": 2, "etag": "e2", "changed": False}],
             "lint": [{"severity": "warning", "code": "legacy_unreachable", "message": "cannot be expressed"}]}


def scripted(preview_lint, publish=PUBLISHED):
    def script(request, n):
        if request["method"] == "Associations.Preview":
            result = {"documents": [], "lint": preview_lint}
        else:
            result = publish
        return 200, {"jsonrpc": "2.0", "id": request["id"], "result": result}
    return script


@pytest.fixture(params=["Client", "AsyncClient"])
def publish_release(request):
    """`publish_release(url, ...)` of the blocking client, or of the asyncio one run to completion: both clients
    publish with the same semantics, so every publish_release test runs against each."""
    if request.param == "Client":
        return lambda url, *args, **kw: client(url).publish_release(*args, **kw)

    async def run(url, *args, **kw):
        async with AsyncClient(url, retries=3, timeout=5) as c:
            return await c.publish_release(*args, **kw)
    return lambda url, *args, **kw: asyncio.run(run(url, *args, **kw))


def test_publish_release_prints_revisions(publish_release):
    out = io.StringIO()
    with FakeRegistry(scripted([])) as fake:
        result = publish_release(fake.url, "badoo", "ios", "5.12.0", out=out)
    assert result == PUBLISHED
    assert fake.methods == ["Associations.Preview", "Releases.Publish"]
    assert fake.requests[0]["body"]["params"] == {"app": "badoo", "platform": "ios", "version": "5.12.0",
                                                  "action": "publish"}
    text = out.getvalue()
    assert "published badoo ios 5.12.0: live" in text
    assert "m.badoo.com aasa revision 3 (new revision) etag e3" in text
    assert "badoo.com aasa revision 2 (unchanged) etag e2" in text
    assert "lint warning legacy_unreachable" in text


def test_publish_release_stops_before_publishing_on_preview_lint(publish_release):
    lint = [{"severity": "error", "code": "shadowed_rule", "message": "/l/a/* can never match", "route": "lookalikes"},
            {"severity": "warning", "code": "size_near_limit", "message": "120 KB of 128 KB"}]
    with FakeRegistry(scripted(lint)) as fake:
        with pytest.raises(LintFailure) as caught:
            publish_release(fake.url, "badoo", "ios", "5.12.0", out=None)
    assert fake.methods == ["Associations.Preview"]
    failure = caught.value
    assert not failure.published and failure.failing == lint[:1]
    lines = str(failure).splitlines()
    assert lines[0] == "lint failed for badoo ios 5.12.0: 1 finding of severity error (nothing was published)"
    assert lines[1] == "  FAIL error   shadowed_rule [route lookalikes]: /l/a/* can never match"
    assert lines[2] == "       warning size_near_limit: 120 KB of 128 KB"


def test_publish_release_fail_on_warnings_checks_the_publish_too(publish_release):
    with FakeRegistry(scripted([])) as fake:
        with pytest.raises(LintFailure) as caught:
            publish_release(fake.url, "badoo", "ios", "5.12.0", fail_on=("error", "warning"), out=None)
    assert fake.methods == ["Associations.Preview", "Releases.Publish"]
    assert caught.value.published and caught.value.result == PUBLISHED
    assert "(it WAS published)" in str(caught.value)


def test_watch_stretches_the_socket_timeout():
    with FakeRegistry(ok({"etag": "e", "notModified": True})) as fake:
        c = client(fake.url, timeout=1)
        seen = []
        original = c._transport._post
        c._transport._post = lambda body, timeout: seen.append(timeout) or original(body, timeout)
        c.associations_watch("m.badoo.com", if_none_match="e", timeout_ms=45000)
        c.apps_list()
    assert seen == [pytest.approx(55.0, abs=0.1), pytest.approx(1, abs=0.1)]
