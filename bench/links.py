"""The links phase of make bench (issue 28): a short link's 302 and its landing page against nginx serving
the same answers, and the links service at scale: Links.BatchCreate's rate, a single Links.Create's latency
among many links, the server's RSS with them, and its start-up to ready with them."""

import http.client
import http.server
import os
import statistics
import threading
import time

IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) " \
         "Version/17.4 Mobile/15E148 Safari/604.1"
TARGET = "https://www.lnk.example/p/1"
HOST = "go.lnk.example"
# A second app's link with no webhook, alternated with the first in the webhook phase: what a webhook costs
# a click, read from the same rounds (nginx's own rate moves by a tenth between phases).
PLAIN_TARGET = "https://www.lnq.example/p/1"
PLAIN_HOST = "go.lnq.example"


def seed_plain(client):
    """The control link of the webhook phase: an app of its own, which no webhook is subscribed to."""
    client.call("Apps.Create", app={"id": "lnq", "displayName": "Bench plain",
                                    "ios": {"appIds": ["ABCDE12345.com.bench.lnq"], "appStoreId": "123456780"}})
    client.call("Domains.Create", domain={"host": "www.lnq.example", "apps": ["lnq"]})
    client.call("Domains.Create", domain={"host": PLAIN_HOST, "apps": ["lnq"], "links": True})
    client.call("Links.Create", app="lnq", link={"code": "bench", "target": PLAIN_TARGET})


def get(port, path, host, agent=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Host": host}
    if agent:
        headers["User-Agent"] = agent
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, dict(response.getheaders()), body


def seed(client):
    client.call("Apps.Create", app={"id": "lnk", "displayName": "Bench",
                                    "ios": {"appIds": ["ABCDE12345.com.bench.lnk"], "appStoreId": "123456789"}})
    client.call("Domains.Create", domain={"host": "www.lnk.example", "apps": ["lnk"]})
    client.call("Domains.Create", domain={"host": HOST, "apps": ["lnk"], "links": True})
    client.call("Links.Create", app="lnk", link={
        "code": "bench", "target": TARGET, "preview": {"title": "Bench", "description": "A landing page"}})


class WebhookReceiver:
    """A receiver on loopback answering every POST 200, counting the events it was sent: the webhook the
    redirect's second run is measured with (issue 45: a subscribed webhook must not slow a click)."""

    def __init__(self):
        receiver = self
        self.posts = 0
        self.events = 0

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                receiver.posts += 1
                receiver.events += body.count(b'"type"')
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def phase_serving(registry, nginx_class, alternate, summarize, rounds, duration):
    """The 302 (a desktop visitor: wrk sends no User-Agent) and the landing page (an iPhone) from routereg as
    shipped, against nginx as Debian ships it answering the same (`return 302`; the landing page's bytes as a
    file with the same CSP), and nginx tuned beside it."""
    seed(registry.client)
    status, headers, _ = get(registry.port, "/bench", HOST)
    if status != 302 or headers.get("Location") != TARGET:
        raise RuntimeError(f"the short link answered {status} {headers}")
    status, headers, landing = get(registry.port, "/bench", HOST, IPHONE)
    if status != 200:
        raise RuntimeError(f"the landing page answered {status}")
    csp = headers.get("Content-Security-Policy", "")
    extra = (f'location = /bench {{ return 302 {TARGET}; }}\n'
             f'        location = /landing.html {{ default_type "text/html; charset=utf-8"; '
             f'add_header Content-Security-Policy "{csp}"; add_header Cache-Control "no-store"; }}')
    results = {"landing_bytes": len(landing)}
    receiver = None
    for label, path, nginx_path, env in (
            ("redirect", "/bench", "/bench", {"BENCH_HOST": HOST}),
            ("landing", "/bench", "/landing.html", {"BENCH_HOST": HOST, "BENCH_UA": IPHONE}),
            ("redirect_webhook", "/bench", "/bench", {"BENCH_HOST": HOST})):
        if label == "redirect_webhook":
            # Every click now becomes a link.clicked event for a subscribed receiver (the server must be
            # started with --webhook-private-hosts 127.0.0.1): the clicks are counted and delivered off the
            # request path, so the 302 should not notice.
            receiver = WebhookReceiver()
            registry.client.call("Webhooks.Create", app="lnk", webhook={
                "url": f"http://127.0.0.1:{receiver.port}/hook", "events": ["link.clicked"]})
            seed_plain(registry.client)
            status, headers, _ = get(registry.port, "/bench", PLAIN_HOST)
            if status != 302 or headers.get("Location") != PLAIN_TARGET:
                raise RuntimeError(f"the control link answered {status} {headers}")
        registry.rotate_log()
        nginxes = {"nginx": nginx_class({"/landing.html": landing}, extra=extra),
                   "nginx_tuned": nginx_class({"/landing.html": landing}, tuned=True, extra=extra)}
        try:
            targets = {"routereg": (registry.port, path, env)}
            pids = {"routereg": registry.process.pid}
            if label == "redirect_webhook":
                targets["routereg_plain"] = (registry.port, path, {"BENCH_HOST": PLAIN_HOST})
                pids["routereg_plain"] = registry.process.pid
            for name, server in nginxes.items():
                targets[name] = (server.port, nginx_path, env)
                pids[name] = server.process.pid
            runs = alternate(targets, rounds, duration, f"link {label}", pids)
        finally:
            for server in nginxes.values():
                server.stop()
        r = {name: summarize(value) for name, value in runs.items()}
        r["ratio"] = r["routereg"]["rps"] / r["nginx"]["rps"]
        r["tuned_ratio"] = r["routereg"]["rps"] / r["nginx_tuned"]["rps"]
        if "routereg_plain" in r:
            r["webhook_ratio"] = r["routereg"]["rps"] / r["routereg_plain"]["rps"]
        results[label] = r
    if receiver:
        # Clicks are flushed and their batches delivered every few seconds: wait for the last ones.
        deadline = time.time() + 30
        while time.time() < deadline and receiver.posts == 0:
            time.sleep(0.5)
        results["redirect_webhook"]["webhook"] = {"posts": receiver.posts, "events": receiver.events}
        receiver.stop()
    return results


def phase_scale(registry_factory, count, log):
    """`count` links created through Links.BatchCreate (1,000 a call), then single creates among them, the RSS,
    and a restart of the same server to ready."""
    registry = registry_factory()
    try:
        seed(registry.client)
        rss_before = registry.rss()["VmRSS"]
        started = time.time()
        batch_seconds = []
        for start in range(0, count, 1000):
            links = [{"code": f"s{n}", "target": f"{TARGET}?n={n}"} for n in range(start, min(count, start + 1000))]
            _, seconds = registry.client.timed_call("Links.BatchCreate", app="lnk", links=links)
            batch_seconds.append(seconds)
            if (start // 1000) % 100 == 99:
                log(f"links: {start + 1000:,} created, {(start + 1000) / (time.time() - started):,.0f}/s")
        created_seconds = time.time() - started
        singles = []
        for n in range(30):
            _, seconds = registry.client.timed_call("Links.Create", app="lnk", link={"target": f"{TARGET}?single={n}"})
            singles.append(seconds * 1000)
        rss = registry.rss()
        status, _, _ = get(registry.port, f"/s{count - 1}", HOST)
        restart_seconds = registry.restart()
        status_after, _, _ = get(registry.port, f"/s{count - 1}", HOST)
        return {
            "links": count, "batch_create_per_second": count / created_seconds,
            "batch_median_ms": statistics.median(batch_seconds) * 1000,
            "single_create_median_ms": statistics.median(singles), "single_create_max_ms": max(singles),
            "rss_mb": rss["VmRSS"], "rss_empty_mb": rss_before, "hwm_mb": rss["VmHWM"],
            "restart_to_listening_s": restart_seconds, "served_before_restart": status == 302,
            "served_after_restart": status_after == 302, "rss_after_restart_mb": registry.rss()["VmRSS"],
        }
    finally:
        registry.stop()
