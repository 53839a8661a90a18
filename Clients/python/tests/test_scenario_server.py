"""ARCHITECTURE.md "The reference scenario", driven from Python against the real `routereg serve` and PostgreSQL.

Collected only when ROUTEREG_BIN names the server binary (see conftest.py); DATABASE_URL, when set, is passed
through (otherwise the server runs its embedded cluster under a temporary data directory). Every result the
server returns is validated against its method's result schema in Schema/registry.openrpc.json.

Names carry a random suffix so the module can run again on the same database. The apps all name badoo's iOS
app ID, which the admin (for every app) shares between them on purpose (share_names).
"""

import http.client
import io
import json
import os
import queue
import re
import secrets
import shutil
import tempfile
import subprocess
import sys
import threading
import time
from collections import Counter
from urllib.parse import urlsplit

import pytest
from jsonschema import Draft202012Validator

from routeregistry import Client, InvalidArgument, NotFound, ProtocolError, RegistryError
from routeregistry.matcher import evaluate

from conftest import CLIENT_DIR

IOS_APP_ID = "ABCDE12345.com.badoo.Badoo"
STARTUP_SECONDS = 180


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """Starts `routereg serve --listen 127.0.0.1:0`, waits for `listening on http://...`, stops it after."""
    admin_token = secrets.token_urlsafe(24)
    env = dict(os.environ, ROUTEREG_ADMIN_TOKEN=admin_token)
    # The embedded cluster runs as the `postgres` user when the tests run as root: its data directory must be
    # reachable by that user (pytest's own tmp root is 0700), or the cluster is relocated outside it and
    # outlives the test's clean-up.
    data_dir = tempfile.mkdtemp(prefix="routereg-py-")
    os.chmod(data_dir, 0o711)
    process = subprocess.Popen(
        [os.environ["ROUTEREG_BIN"], "serve", "--listen", "127.0.0.1:0", "--data-dir", str(data_dir), "--no-delivery-watch"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True, env=env)
    lines: "queue.Queue[str]" = queue.Queue()
    log = []

    def drain():  # keeps the pipe flowing for the server's whole life
        for line in process.stdout:
            log.append(line)
            lines.put(line)

    threading.Thread(target=drain, daemon=True).start()
    url = None
    deadline = time.monotonic() + STARTUP_SECONDS
    try:
        while url is None:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or process.poll() is not None:
                time.sleep(0.2)
                pytest.fail("routereg serve did not print 'listening on http://...':\n" + "".join(log[-40:]))
            try:
                match = re.search(r"listening on (https?://\S+)", lines.get(timeout=min(remaining, 1.0)))
            except queue.Empty:
                continue
            if match:
                url = match.group(1).rstrip("/.,")
        wait_ready(url, deadline)
        yield {"url": url, "admin_token": admin_token, "log": log}
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(data_dir, ignore_errors=True)


def wait_ready(url, deadline):
    while time.monotonic() < deadline:
        try:
            status, _, _ = http_get(url, "/readyz")
            if status in (200, 404):
                return
        except OSError:
            pass
        time.sleep(0.2)


def http_get(url, path, headers=None):
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict((k.lower(), v) for k, v in response.getheaders()), response.read()
    finally:
        connection.close()


CALLED = set()  # methods that returned a result, for the coverage check at the end


@pytest.fixture(scope="module")
def validated(openrpc):
    """Wraps clients so every result is checked against the OpenRPC result schema of its method."""
    results = {m["name"]: Draft202012Validator({**m["result"]["schema"], "components": openrpc["components"]})
               for m in openrpc["methods"]}

    def wrap(client):
        original = client._transport.call

        def call(method, params, timeout=None):
            result = original(method, params, timeout)
            errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in results[method].iter_errors(result)]
            assert not errors, f"{method} result does not match Schema/registry.openrpc.json: {errors}"
            CALLED.add(method)
            return result

        client._transport.call = call
        return client

    return wrap


@pytest.fixture(scope="module")
def admin(server, validated):
    return validated(Client(server["url"], token=server["admin_token"], retries=2))


@pytest.fixture(scope="module")
def anonymous(server, validated):
    return validated(Client(server["url"], retries=2))


@pytest.fixture(scope="module")
def names():
    suffix = secrets.token_hex(3)
    return {"app": f"badoo-{suffix}", "root": f"badoo-{suffix}.com", "m": f"m.badoo-{suffix}.com"}


def aasa_paths(document, app_id=IOS_APP_ID):
    """The components of the app's detail, as (path, query, exclude) triples."""
    details = [d for d in document["applinks"]["details"] if app_id in d.get("appIDs", [])]
    assert len(details) == 1, document
    return [(c.get("/"), c.get("?"), bool(c.get("exclude"))) for c in details[0]["components"]]


def revision_of(result, host, kind="aasa"):
    refs = [r for r in result["revisions"] if r["host"] == host and r.get("kind", "aasa") == kind]
    assert len(refs) == 1, result["revisions"]
    return refs[0]


def test_design_scenario(server, admin, anonymous, validated, names):
    app, root, m = names["app"], names["root"], names["m"]

    # 1. The app, its domains, and a releaser token for the pipeline.
    created = admin.apps_create({
        "id": app, "displayName": "Badoo", "ios": {"appIds": [IOS_APP_ID]},
        "android": {"packageName": "com.badoo.mobile", "sha256CertFingerprints": [":".join(["AB"] * 32)]},
        "fallback": {"queryItem": "ul_fallback"}}, share_names=True)
    assert created["name"] == f"apps/{app}" and created["etag"]
    assert created["fallback"]["queryItem"] == "ul_fallback"
    for host in (root, m):
        domain = admin.domains_create({"host": host, "apps": [app]})
        assert domain["name"] == f"domains/{host}" and domain["apps"] == [app]
    issued = admin.tokens_create({"displayName": f"pipeline-{app}", "role": "releaser"})
    assert issued["secret"] and issued["token"]["role"] == "releaser"
    releaser = validated(Client(server["url"], token=issued["secret"], retries=2))

    # 2. profile /u/* since 5.0, help /help/* excluded (ahead of profile so it precedes an open rule).
    profile = releaser.routes_create(app, {"id": "profile", "pattern": {"path": "/u/*"}, "action": "open",
                                           "platforms": {"ios": {"since": "5.0"}}})
    assert profile["name"] == f"apps/{app}/routes/profile" and profile["position"] == 0
    help_route = releaser.routes_create(app, {"id": "help", "pattern": {"path": "/help/*"}, "action": "exclude"},
                                        before="profile")
    assert help_route["position"] == 0
    assert [r["id"] for r in releaser.iter_routes(app, page_size=1)] == ["help", "profile"]
    out = io.StringIO()
    published = releaser.publish_release(app, "ios", "5.11.0", out=out)
    assert published["release"]["state"] == "live"
    assert published["release"]["name"] == f"apps/{app}/platforms/ios/releases/5.11.0"
    assert f"{m} aasa revision" in out.getvalue()
    first = revision_of(published, m)
    assert first["changed"]

    # 3. The AASA: marker exclusion first, /help/* excluded, /u/*, and no /l/a/*.
    association = anonymous.associations_get(m)
    assert association["revision"] == first["revision"] and association["etag"] == first["etag"]
    document = association["document"]
    rules = aasa_paths(document)
    assert rules[0] == (None, {"ul_fallback": "?*"}, True)
    assert ("/help/*", None, True) in rules and ("/u/*", None, False) in rules
    assert all(path != "/l/a/*" for path, _, _ in rules)
    for url, expected in [(f"https://{m}/u/1", "match"), (f"https://{m}/help/faq", "exclude"),
                          (f"https://{m}/u/1?ul_fallback=1", "exclude"), (f"https://{m}/l/a/42", "no_match")]:
        assert evaluate(document, IOS_APP_ID, url, m) == expected, url
    status, headers, body = http_get(server["url"], "/.well-known/apple-app-site-association", {"Host": m})
    assert status == 200 and headers["content-type"].startswith("application/json")
    assert json.loads(body) == document
    assert http_get(server["url"], "/.well-known/apple-app-site-association",
                    {"Host": m, "If-None-Match": headers["etag"]})[0] == 304
    assert http_get(server["url"], "/apple-app-site-association", {"Host": m.upper()})[0] == 200
    assert http_get(server["url"], "/.well-known/apple-app-site-association", {"Host": "unknown.invalid"})[0] == 404

    # 4. lookalikes /l/a/* since 5.12.0: no live version handles it, so the AASA does not change.
    releaser.routes_create(app, {"id": "lookalikes", "pattern": {"path": "/l/a/*"}, "action": "open",
                                 "platforms": {"ios": {"since": "5.12.0", "until": None}}, "comment": "lookalikes"})
    unchanged = anonymous.associations_get(m)
    assert (unchanged["revision"], unchanged["etag"]) == (first["revision"], first["etag"])

    # 5. Publish 5.12.0: a new revision with /l/a/*; 5.11.0 falls back, 5.12.0 opens.
    published = releaser.publish_release(app, "ios", "5.12.0", out=None)
    second = revision_of(published, m)
    assert second["changed"] and second["revision"] == first["revision"] + 1
    document = anonymous.associations_get(m)["document"]
    assert ("/l/a/*", None, False) in aasa_paths(document)
    link = f"https://{m}/l/a/42"
    old = anonymous.can_open_check(app, "ios", "5.11.0", link)
    assert old["decision"] == "open_in_browser" and old["reason"] == "unsupported_version"
    assert old["fallbackUrl"] == f"https://{m}/l/a/42?ul_fallback=1"
    assert old["supportedSince"] == "5.12.0" and old["route"] == "lookalikes"
    new = anonymous.can_open_check(app, "ios", "5.12.0", link)
    assert new["decision"] == "open_in_app" and new["reason"] == "route" and new["route"] == "lookalikes"
    for url, decision, reason in [
        (f"https://{m}/u/7", "open_in_app", "route"),
        (f"https://{m}/help/faq", "open_in_browser", "excluded"),
        (f"https://{m}/u/7?ul_fallback=1", "open_in_browser", "fallback_marker"),
        (f"https://{m}/nothing/here", "open_in_browser", "no_route"),
    ]:
        got = anonymous.can_open_check(app, "ios", "5.11.0", url)
        assert (got["decision"], got.get("reason")) == (decision, reason), url
    assert anonymous.can_open_check(app, "ios", "5.11.0", "https://elsewhere.invalid/u/7")["decision"] == "not_associated"
    table = anonymous.can_open_get_table(app, "ios", "5.11.0")
    assert not table["notModified"] and table["table"]["version"] == "5.11.0"
    again = anonymous.can_open_get_table(app, "ios", "5.11.0", if_none_match=table["etag"])
    assert again["notModified"] and again["etag"] == table["etag"]
    matrix = admin.matrix_get(app, "ios")
    assert matrix["versions"] == ["5.11.0", "5.12.0"]
    cells = {row["route"]: {c["version"]: c["state"] for c in row["cells"]} for row in matrix["routes"]}
    assert cells["lookalikes"] == {"5.11.0": "fallback", "5.12.0": "open"}
    assert cells["profile"] == {"5.11.0": "open", "5.12.0": "open"}
    assert cells["help"] == {"5.11.0": "excluded", "5.12.0": "excluded"}

    # 6. 5.12.0 crashes on lookalikes: switch it off. 5.12.0 falls back; the AASA drops /l/a/*.
    watched = anonymous.associations_watch(m, if_none_match=second["etag"], timeout_ms=200)
    assert watched["notModified"] and watched["etag"] == second["etag"]
    switched = releaser.routes_switch_off(app, "lookalikes", "ios", ["5.12.0"], reason="crash in 5.12.0")
    assert [s["version"] for s in switched["switchedOff"]["ios"]] == ["5.12.0"]
    assert switched["switchedOff"]["ios"][0]["reason"] == "crash in 5.12.0"
    crashed = anonymous.can_open_check(app, "ios", "5.12.0", link)
    assert crashed["decision"] == "open_in_browser" and crashed["reason"] == "switched_off"
    assert crashed["fallbackUrl"] == f"https://{m}/l/a/42?ul_fallback=1"
    changed = anonymous.associations_watch(m, if_none_match=second["etag"], timeout_ms=5000)
    assert not changed["notModified"] and changed["etag"] != second["etag"]
    third = anonymous.associations_get(m)
    assert third["revision"] == second["revision"] + 1
    assert all(path != "/l/a/*" for path, _, _ in aasa_paths(third["document"]))
    assert evaluate(third["document"], IOS_APP_ID, link, m) == "no_match"
    diff = anonymous.associations_diff(m, second["revision"], third["revision"])
    assert diff["added"] == [] and diff["changed"] == []
    assert [(r["app"], r["rule"].get("/")) for r in diff["removed"]] == [(IOS_APP_ID, "/l/a/*")]
    # The server runs with --no-delivery-watch (tests never reach Apple's CDN): the AASA's delivery is unknown.
    delivery = anonymous.associations_delivery(m, "aasa")
    assert [(d["host"], d["currentRevision"], d["served"]) for d in delivery["documents"]] == [
        (m, third["revision"], "unknown")
    ]
    revisions = [r["revision"] for r in anonymous.iter_revisions(m, page_size=1)]
    assert revisions[:3] == [third["revision"], second["revision"], first["revision"]]
    rows = {row["route"]: {c["version"]: c["state"] for c in row["cells"]} for row in admin.matrix_get(app, "ios")["routes"]}
    assert rows["lookalikes"] == {"5.11.0": "fallback", "5.12.0": "switched_off"}

    # 7. Retire 5.11.0 (5.12.0 still handles /u/*, so the AASA stays the same); the audit shows every step.
    retired = releaser.releases_retire(app, "ios", "5.11.0")
    assert retired["release"]["state"] == "retired"
    assert not revision_of(retired, m)["changed"]
    assert [r["version"] for r in admin.iter_releases(app, platform="ios", state="live")] == ["5.12.0"]

    ours = [e for e in admin.iter_audit(page_size=7)
            if e["resource"].startswith((f"apps/{app}", f"domains/{root}", f"domains/{m}"))]
    performed = ["Apps.Create", "Domains.Create", "Domains.Create", "Routes.Create", "Routes.Create",
                 "Releases.Publish", "Routes.Create", "Releases.Publish", "Routes.SwitchOff", "Releases.Retire"]
    assert not Counter(performed) - Counter(e["method"] for e in ours), [e["method"] for e in ours]
    newest_first = [e["method"] for e in ours]
    position = 0
    for method in reversed(performed):  # the steps appear newest first, in order
        assert method in newest_first[position:], (method, newest_first)
        position = newest_first.index(method, position) + 1
    token = issued["token"]
    by_pipeline = [e for e in ours if e["method"] in ("Routes.Create", "Releases.Publish", "Routes.SwitchOff",
                                                      "Releases.Retire")]
    for entry in by_pipeline:
        assert token["displayName"] in entry["actor"] or token["id"] in entry["actor"], entry
    admin_entry = next(e for e in ours if e["method"] == "Apps.Create")
    assert admin_entry["actor"] != by_pipeline[0]["actor"]
    switch_entries = list(admin.iter_audit(resource=f"apps/{app}/routes/lookalikes"))
    assert {e["method"] for e in switch_entries} >= {"Routes.Create", "Routes.SwitchOff"}
    # Releases.List: newest version first (API.md).
    assert [r["version"] for r in admin.iter_releases(app)] == ["5.12.0", "5.11.0"]


def test_roles_and_authentication(server, admin, anonymous, validated, names):
    reader_secret = admin.tokens_create({"displayName": f"reader-{names['app']}", "role": "reader"})["secret"]
    reader = validated(Client(server["url"], token=reader_secret, retries=0))
    stranger = Client(server["url"], token="not-a-token", retries=0)
    cases = [
        (lambda: anonymous.apps_list(), 16, "UNAUTHENTICATED"),
        (lambda: stranger.apps_list(), 16, "UNAUTHENTICATED"),
        (lambda: reader.apps_create({"id": f"x{names['app']}"}), 7, "PERMISSION_DENIED"),
        (lambda: reader.releases_publish(names["app"], "ios", "9.0"), 7, "PERMISSION_DENIED"),
        (lambda: reader.tokens_list(), 7, "PERMISSION_DENIED"),
    ]
    for call, code, status in cases:
        with pytest.raises(RegistryError) as caught:
            call()
        assert (caught.value.code, caught.value.status) == (code, status)
    assert isinstance(reader.apps_list()["apps"], list)
    assert reader.tokens_who_am_i()["role"] == "reader"
    assert anonymous.rpc_discover()["info"]["title"] == "RouteRegistry"


def test_application_and_protocol_errors(server, admin, names, openrpc):
    app = f"err-{names['app']}"
    admin.apps_create({"id": app, "ios": {"appIds": [IOS_APP_ID]}}, share_names=True)
    host = f"err.{names['root']}"
    admin.domains_create({"host": host, "apps": [app]})

    def refused(call):
        with pytest.raises(RegistryError) as caught:
            call()
        return caught.value

    assert refused(lambda: admin.apps_get(f"missing-{app}")).status == "NOT_FOUND"
    assert refused(lambda: admin.apps_create({"id": app})).status == "ALREADY_EXISTS"
    assert refused(lambda: admin.apps_update({"id": app, "displayName": "x"}, etag="stale")).status == "ABORTED"
    assert refused(lambda: admin.apps_delete(app)).status == "FAILED_PRECONDITION"
    # A malformed value is refused naming the field, while decoding the params (-32602 naming INVALID_ARGUMENT)
    # or by validation (INVALID_ARGUMENT with field violations): one exception class either way, nothing written.
    with pytest.raises(InvalidArgument) as caught:
        admin.routes_create(app, {"id": "bad", "pattern": {"path": "/b/*"}, "platforms": {"ios": {"since": "5.x"}}})
    bad = caught.value
    assert bad.status == "INVALID_ARGUMENT" and "since" in bad.message + json.dumps(bad.details)
    five = refused(lambda: admin.releases_publish(app, "ios", "five"))
    assert isinstance(five, InvalidArgument) and five.code == 3 and "version" in str(five), five
    assert isinstance(refused(lambda: admin.apps_get(f"missing-{app}")), NotFound)
    with pytest.raises(RegistryError) as caught:
        admin.routes_get(app, "bad")
    assert caught.value.status == "NOT_FOUND"
    invalid = refused(lambda: admin.routes_create(app, {"id": "range", "pattern": {"path": "/r/*"},
                                                        "platforms": {"ios": {"since": "6.0", "until": "5.0"}}}))
    assert invalid.status == "INVALID_ARGUMENT" and invalid.details, invalid
    current = admin.apps_get(app)
    updated = admin.apps_update({**current, "displayName": "Renamed"}, etag=current["etag"])
    assert updated["displayName"] == "Renamed" and updated["etag"] != current["etag"]
    with pytest.raises(ProtocolError) as caught:
        admin.call("Nope.Method")
    assert caught.value.code == -32601
    served = {m["name"] for m in admin.rpc_discover()["methods"]}
    assert served == {m["name"] for m in openrpc["methods"]}
    assert refused(lambda: admin.releases_publish(f"missing-{app}", "ios", "1.0")).status == "NOT_FOUND"


def test_every_other_method_round_trip(server, admin, validated, names):
    app = f"full-{names['app']}"
    host = f"full.{names['root']}"
    admin.apps_create({"id": app, "ios": {"appIds": [IOS_APP_ID]}, "schemes": ["fullapp"]}, share_names=True)
    assert app in [a["id"] for a in admin.iter_apps(page_size=1)]
    current = admin.apps_get(app)
    assert admin.apps_update({**current, "displayName": "Full"}, etag=current["etag"])["displayName"] == "Full"
    admin.domains_create({"host": host, "apps": [app]})
    assert admin.domains_get(host)["apps"] == [app]
    assert [d["host"] for d in admin.iter_domains(app=app)] == [host]

    issued = admin.tokens_create({"displayName": f"full-{app}", "role": "releaser"})
    releaser = validated(Client(server["url"], token=issued["secret"], retries=0))
    for route_id, path in (("a", "/a/*"), ("b", "/b/*"), ("c", "/c/*")):
        releaser.routes_create(app, {"id": route_id, "pattern": {"path": path}, "platforms": {"ios": {"since": "1.0"}}})
    route = releaser.routes_get(app, "b")
    updated = releaser.routes_update(app, {**route, "pattern": {"path": "/bee/*"}, "comment": "renamed"},
                                     etag=route["etag"])
    assert updated["pattern"]["path"] == "/bee/*" and updated["etag"] != route["etag"]
    with pytest.raises(RegistryError) as caught:
        releaser.routes_update(app, {**route, "comment": "stale"}, etag=route["etag"])
    assert caught.value.status == "ABORTED"
    reordered = releaser.routes_reorder(app, ["c", "a", "b"])
    assert [(r["id"], r["position"]) for r in reordered["routes"]] == [("c", 0), ("a", 1), ("b", 2)]
    with pytest.raises(RegistryError) as caught:
        releaser.routes_reorder(app, ["c", "a"])
    assert caught.value.code in (3, 9)
    releaser.routes_switch_off(app, "a", "ios", ["1.0"])
    assert not releaser.routes_switch_on(app, "a", "ios", ["1.0"]).get("switchedOff", {}).get("ios")
    assert releaser.routes_delete(app, "c") == {}
    assert [r["id"] for r in releaser.iter_routes(app)] == ["a", "b"]

    def batch_route(route_id):
        return {"id": route_id, "pattern": {"path": f"/{route_id}/*"}, "platforms": {"ios": {"since": "1.0"}}}

    batch = releaser.routes_batch_create(app, [batch_route("d"), batch_route("e")], before="b")
    assert [(r["id"], r["position"], r["name"]) for r in batch["routes"]] == [
        ("d", 1, f"apps/{app}/routes/d"), ("e", 2, f"apps/{app}/routes/e")]
    assert [(r["id"], r["position"]) for r in releaser.iter_routes(app)] == [("a", 0), ("d", 1), ("e", 2), ("b", 3)]
    # All or nothing: a batch refused at its second route leaves its first one out as well.
    for second, status in (("f", "INVALID_ARGUMENT"), ("a", "ALREADY_EXISTS")):
        with pytest.raises(RegistryError) as caught:
            releaser.routes_batch_create(app, [batch_route("f"), batch_route(second)])
        assert caught.value.status == status and [d["field"] for d in caught.value.details] == ["routes[1].id"]
    with pytest.raises(RegistryError) as caught:
        releaser.routes_batch_create(app, [batch_route("f")], before="ghost")
    assert caught.value.status == "NOT_FOUND" and [d["field"] for d in caught.value.details] == ["before"]
    assert [r["id"] for r in releaser.iter_routes(app)] == ["a", "d", "e", "b"]

    draft = releaser.releases_create(app, "ios", "1.0")
    assert draft["state"] == "draft" and releaser.releases_get(app, "ios", "1.0")["state"] == "draft"
    preview = releaser.associations_preview(app, "ios", "1.0", "publish")
    documents = [d for d in preview["documents"] if d["host"] == host and d.get("kind", "aasa") == "aasa"]
    assert len(documents) == 1 and documents[0]["changed"]
    assert evaluate(documents[0]["document"], IOS_APP_ID, f"https://{host}/bee/1", host) == "match"
    assert releaser.releases_get(app, "ios", "1.0")["state"] == "draft"  # a preview writes nothing
    assert admin.matrix_get(app, "ios")["versions"] == []

    assert issued["token"]["id"] in [t["id"] for t in admin.iter_tokens()]
    revoked = admin.tokens_revoke(issued["token"]["id"])
    assert revoked["revokeTime"]
    with pytest.raises(RegistryError) as caught:
        releaser.routes_list(app)
    assert caught.value.status == "UNAUTHENTICATED"

    assert admin.domains_delete(host) == {}
    with pytest.raises(RegistryError) as caught:
        admin.domains_get(host)
    assert caught.value.status == "NOT_FOUND"
    gone = f"gone-{names['app']}"
    admin.apps_create({"id": gone})
    assert admin.apps_delete(gone, etag=admin.apps_get(gone)["etag"]) == {}
    with pytest.raises(RegistryError) as caught:
        admin.apps_get(gone)
    assert caught.value.status == "NOT_FOUND"


def test_readme_ci_example_publishes_a_release(server, admin, names, tmp_path):
    # README.md's CI job, as written, run the way a pipeline runs it: a script with the token in the environment.
    readme = (CLIENT_DIR / "README.md").read_text(encoding="utf-8")
    example = re.search(r"<!-- example: publish_release\.py -->\s*```python\n(.*?)```", readme, re.S)
    assert example, "README.md has the CI example"
    script = tmp_path / "publish_release.py"
    script.write_text(example.group(1), encoding="utf-8")
    app, host = f"ci-{names['app']}", f"ci.{names['root']}"
    admin.apps_create({"id": app, "ios": {"appIds": [IOS_APP_ID]}}, share_names=True)
    admin.domains_create({"host": host, "apps": [app]})
    admin.routes_create(app, {"id": "profile", "pattern": {"path": "/u/*"}, "platforms": {"ios": {"since": "5.0"}}})
    secret = admin.tokens_create({"displayName": f"ci-{app}", "role": "releaser"})["secret"]

    def run(*args, token=secret):
        env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "PYTHONPATH": str(CLIENT_DIR),
               "ROUTEREG_SERVER": server["url"], "ROUTEREG_TOKEN": token}
        return subprocess.run([sys.executable, str(script), *args], env=env, capture_output=True, text=True,
                              timeout=120)

    done = run(app, "ios", "5.0.0")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"published {app} ios 5.0.0: live" in done.stdout
    assert f"{app} ios 5.0.0 is live; new documents for: {host}" in done.stdout
    assert admin.releases_get(app, "ios", "5.0.0")["state"] == "live"
    bad = run(app, "ios", "five")
    assert bad.returncode == 2 and "bad release ios five" in bad.stderr, bad.stderr
    unknown = run(app, "windows", "5.0.0")
    assert unknown.returncode == 2 and "unknown platform windows" in unknown.stderr, unknown.stderr
    denied = run(app, "ios", "5.1.0", token="not-a-token")
    assert denied.returncode == 1 and "UNAUTHENTICATED" in denied.stderr, denied.stderr


def test_readme_more_example_runs_with_the_cli_config_file(server, admin, tmp_path):
    # README.md's second example, as written, with the server and token only where the routereg CLI keeps them
    # (~/.config/routereg/config.json). It names badoo and m.badoo.com, which no other test here creates.
    readme = (CLIENT_DIR / "README.md").read_text(encoding="utf-8")
    example = re.search(r"<!-- example: more\.py -->\s*```python\n(.*?)```", readme, re.S)
    assert example, "README.md has the second example"
    script = tmp_path / "more.py"
    script.write_text(example.group(1), encoding="utf-8")
    admin.apps_create({"id": "badoo", "ios": {"appIds": [IOS_APP_ID]}}, share_names=True)
    admin.domains_create({"host": "m.badoo.com", "apps": ["badoo"]})
    admin.routes_create("badoo", {"id": "lookalikes", "pattern": {"path": "/l/a/*"},
                                  "platforms": {"ios": {"since": "5.12.0"}}})
    admin.releases_publish("badoo", "ios", "5.11.0")
    config = tmp_path / "home" / ".config" / "routereg" / "config.json"
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps({"server": server["url"], "token": server["admin_token"]}))
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path / "home"), "PYTHONPATH": str(CLIENT_DIR)}
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "unsupported_version", lines  # /l/a/* opens from 5.12.0 on
    assert any(line.endswith(" Routes.Create") for line in lines[1:-2]), lines
    assert lines[-2].startswith("NOT_FOUND "), lines
    revisions = [r["revision"] for r in admin.iter_revisions("m.badoo.com")]
    assert revisions and lines[-1] == f"revisions of m.badoo.com: {revisions}", lines


def test_links_round_trip(server, admin, validated, names):
    # The links service from a pipeline: a batch of campaign links with one requestId, retried without
    # making any twice; each link read, listed, updated, resolved, counted and deleted.
    app = f"links-{names['app']}"
    web, links_host = f"www.{names['root']}", f"go.{names['root']}"
    admin.apps_create({"id": app, "ios": {"appIds": [IOS_APP_ID], "appStoreId": "351331194"}}, share_names=True)
    admin.domains_create({"host": web, "apps": [app]})
    admin.domains_create({"host": links_host, "apps": [app], "links": True})
    admin.routes_create(app, {"id": "offers", "pattern": {"path": "/offer/*"}, "platforms": {"ios": {"since": "2.0"}}})
    admin.releases_publish(app, "ios", "1.0")
    one = admin.links_create(app, {"code": "spring", "target": f"https://{web}/offer/1"})
    assert one["shortUrl"] == f"https://{links_host}/spring" and one["app"] == app
    campaign = [{"target": f"https://{web}/offer/{n}", "preview": {"title": f"Offer {n}"}} for n in range(3)]
    first = admin.links_batch_create(app, campaign, request_id=f"campaign-{names['app']}")
    again = admin.links_batch_create(app, campaign, request_id=f"campaign-{names['app']}")
    assert [l["code"] for l in again["links"]] == [l["code"] for l in first["links"]]
    assert len({l["code"] for l in first["links"]}) == 3
    assert admin.links_get(links_host, "spring")["target"] == f"https://{web}/offer/1"
    listed = [l["code"] for l in admin.links_list(app=app)["links"]]
    assert sorted(listed) == sorted(["spring"] + [l["code"] for l in first["links"]])
    current = admin.links_get(links_host, "spring")
    moved = admin.links_update({**current, "target": f"https://{web}/offer/9"}, etag=current["etag"])
    assert moved["target"] == f"https://{web}/offer/9"
    resolved = admin.links_resolve(f"https://{links_host}/spring", "ios", "1.0")
    assert resolved["route"] == "offers" and resolved["minVersion"] == "2.0.0"
    assert resolved["decision"]["reason"] == "unsupported_version"
    assert admin.links_stats(links_host, "spring")["total"] == 0
    qr = admin.links_qr_code(links_host, "spring")
    assert qr["url"] == f"https://{links_host}/spring?qr=1" and qr["svg"].startswith("<svg ")
    hook = admin.webhooks_create(app, {"url": "https://hooks.example.com/py", "events": ["link.clicked"]})
    assert hook["secret"].startswith("whsec_") and hook["events"] == ["link.clicked"]
    listed = admin.webhooks_list(app)["webhooks"]
    assert [h["id"] for h in listed] == [hook["id"]] and "secret" not in listed[0]
    assert admin.webhooks_deliveries(app, hook["id"])["deliveries"] == []
    assert admin.webhooks_delete(app, hook["id"]) == {}
    with pytest.raises(RegistryError) as caught:
        admin.links_create(app, {"target": "https://evil.example/"})
    assert caught.value.status == "INVALID_ARGUMENT" and [d["field"] for d in caught.value.details] == ["link.target"]
    assert admin.links_delete(links_host, "spring") == {}
    with pytest.raises(RegistryError) as caught:
        admin.links_get(links_host, "spring")
    assert caught.value.status == "NOT_FOUND"


def test_the_module_called_every_method(openrpc):
    # Last in the module: every method of the OpenRPC document answered once with a schema-valid result.
    assert {m["name"] for m in openrpc["methods"]} - CALLED == set()
