"""The delivery watch in the console: a server whose watch observes a local stand-in for Apple's CDN (never the
internet). After 5.12.0 is published the CDN still serves 5.11.0's revision: the matrix marks lookalikes' ✓ for
5.12.0 "pending at Apple's CDN" (screenshot kept), the Documents page says one revision waits; once the CDN
serves the current revision, the mark goes."""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from selenium.webdriver.common.by import By

from conftest import run_server
from console import find, go, hover, matrix_cell, sign_in, wait

IOS_APP_ID = "ABCDE12345.com.badoo.Badoo"
HOST = "m.badoo.com"


class StandInCDN:
    """GET /a/v1/{host}: the bytes set for the host, else 404; statements:list: no statements."""

    def __init__(self):
        self.documents = {}
        documents = self.documents

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                if self.path.startswith("/a/v1/") and self.path[6:] in documents:
                    body, status = documents[self.path[6:]], 200
                elif self.path.startswith("/v1/statements:list"):
                    body, status = b'{"maxAge":"600s"}', 200
                else:
                    body, status = b"", 404
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.http.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}"

    def stop(self):
        self.http.shutdown()


@pytest.fixture(scope="module")
def cdn():
    stand_in = StandInCDN()
    yield stand_in
    stand_in.stop()


@pytest.fixture(scope="module")
def watched(cdn):
    yield from run_server(["--apple-cdn-url", cdn.url, "--asset-links-api-url", cdn.url, "--delivery-interval", "1"])


def delivery(api):
    return api("Associations.Delivery", host=HOST, kind="aasa")["documents"][0]


def wait_delivery(api, condition, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status = delivery(api)
        if condition(status):
            return status
        time.sleep(0.2)
    pytest.fail(f"delivery never reached the state: {delivery(api)}")


@pytest.fixture
def page(browser):
    """The shared browser, left on a blank page with its log drained: this module's server stops before the
    other modules' tests, and its open page's long poll must not fail in their logs."""
    yield browser
    browser.get("about:blank")
    browser.get_log("browser")


def test_pending_at_apples_cdn(watched, page, cdn, artifacts):
    api, url, d = watched["api"], watched["url"], page
    api("Apps.Create", app={"id": "badoo", "displayName": "Badoo", "ios": {"appIds": [IOS_APP_ID]}})
    api("Domains.Create", domain={"host": HOST, "apps": ["badoo"]})
    api("Routes.Create", app="badoo", route={"id": "profile", "pattern": {"path": "/u/*"}, "action": "open",
                                              "platforms": {"ios": {"since": "5.0"}}})
    api("Routes.Create", app="badoo", route={"id": "lookalikes", "pattern": {"path": "/l/a/*"}, "action": "open",
                                              "platforms": {"ios": {"since": "5.12.0"}}})
    api("Releases.Publish", app="badoo", platform="ios", version="5.11.0")
    old = api("Associations.Get", host=HOST)
    cdn.documents[HOST] = json.dumps(old["document"]).encode()
    wait_delivery(api, lambda s: s.get("revisionsBehind") == 0)
    api("Releases.Publish", app="badoo", platform="ios", version="5.12.0")
    status = wait_delivery(api, lambda s: s.get("revisionsBehind") == 1 and s.get("lastObservationTime"))
    assert status["servedRevision"] == old["revision"]

    secret = api.token_for("reader", "watcher")[0]
    sign_in(d, url, secret)
    go(d, url, "matrix/badoo/ios")
    wait(d).until(lambda drv: drv.find_element(By.ID, "matrix").get_attribute("data-pending") == "1")
    pending = matrix_cell(d, "lookalikes", "5.12.0")
    assert "cdn-pending" in pending.get_attribute("class")
    assert "pending at Apple's CDN" in pending.get_attribute("aria-label")
    assert "cdn-pending" not in matrix_cell(d, "profile", "5.12.0").get_attribute("class")
    hover(d, pending)
    wait(d).until(lambda drv: "Pending at Apple's CDN for" in drv.find_element(By.ID, "cell-reason").text)
    d.save_screenshot(str(artifacts / "matrix-pending.png"))

    go(d, url, f"documents/{HOST}")
    wait(d).until(lambda drv: "1 behind, pending at Apple's CDN" in drv.find_element(By.ID, "doc-delivery").text)
    assert f"revision {old['revision']}" in find(d, "#doc-delivery").text

    # The CDN catches up: the mark goes.
    current = api("Associations.Get", host=HOST)
    cdn.documents[HOST] = json.dumps(current["document"]).encode()
    wait_delivery(api, lambda s: s.get("revisionsBehind") == 0)
    go(d, url, "matrix/badoo/ios")
    wait(d).until(lambda drv: drv.find_element(By.ID, "matrix").get_attribute("data-pending") == "0")
    assert "cdn-pending" not in matrix_cell(d, "lookalikes", "5.12.0").get_attribute("class")
