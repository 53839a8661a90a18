"""The web console in headless Chromium (Debian's chromium + chromium-driver, Selenium from PyPI), against the
real `routereg serve` named by ROUTEREG_BIN with its embedded PostgreSQL. Nothing is downloaded at run time:
Selenium is pointed at /usr/bin/chromedriver, never at its driver manager.

Screenshots go to Tests/Console/artifacts/ (gitignored).
"""

import json
import os
import queue
import re
import secrets
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
STARTUP_SECONDS = 180
CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")

# Not a skip: without a server binary the browser suite is simply not part of the run (`make test` sets it).
collect_ignore_glob = [] if os.environ.get("ROUTEREG_BIN") else ["test_*.py"]


class RPCFailure(Exception):
    def __init__(self, error):
        super().__init__(f"{error.get('code')}: {error.get('message')}")
        self.code = error.get("code")
        self.error = error


class API:
    """JSON-RPC calls with a token: what the tests check the UI against."""

    def __init__(self, url, token):
        self.url, self.token = url, token

    def raw(self, method, params=None):
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}).encode()
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        request = urllib.request.Request(self.url + "/rpc", data=body, headers=headers)
        with urllib.request.urlopen(request, timeout=120) as response:
            return json.loads(response.read())

    def __call__(self, method, **params):
        answer = self.raw(method, params)
        if "error" in answer:
            raise RPCFailure(answer["error"])
        return answer["result"]

    def token_for(self, role, name):
        created = self("Tokens.Create", token={"displayName": name, "role": role})
        return created["secret"], created["token"]["id"]


def run_server(extra_args):
    """`routereg serve --listen 127.0.0.1:0` on a temporary data directory with `extra_args`; yields its URL, API
    and log; stopped (and its cluster) after."""
    admin_token = secrets.token_urlsafe(24)
    env = dict(os.environ, ROUTEREG_ADMIN_TOKEN=admin_token)
    data_dir = tempfile.mkdtemp(prefix="routereg-console-")
    os.chmod(data_dir, 0o711)  # the embedded cluster runs as `postgres` when the tests run as root
    process = subprocess.Popen(
        [os.environ["ROUTEREG_BIN"], "serve", "--listen", "127.0.0.1:0", "--data-dir", data_dir, "--quiet", *extra_args],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True, env=env)
    lines, log = queue.Queue(), []

    def drain():
        for line in process.stdout:
            log.append(line)
            lines.put(line)

    threading.Thread(target=drain, daemon=True).start()
    try:
        url, deadline = None, time.monotonic() + STARTUP_SECONDS
        while url is None:
            if time.monotonic() > deadline or process.poll() is not None:
                pytest.fail("routereg serve did not start:\n" + "".join(log[-40:]))
            try:
                match = re.search(r"listening on (http://\S+)", lines.get(timeout=1.0))
            except queue.Empty:
                continue
            if match:
                url = match.group(1).rstrip("/.,")
        yield {"url": url, "api": API(url, admin_token), "log": log}
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(data_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def server():
    """The console's server: never reaches Apple's CDN or Google (--no-delivery-watch)."""
    yield from run_server(["--no-delivery-watch"])


@pytest.fixture(scope="session")
def api(server):
    return server["api"]


@pytest.fixture(scope="session")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1440,900", "--force-device-scale-factor=1", "--lang=en-US"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
