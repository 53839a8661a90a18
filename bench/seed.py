"""Seeds a registry through the JSON-RPC API and writes the request bodies the load runs replay.

The rules mirror what a large app's routes look like (the RouteCore benchmark corpus has the same mix):
mostly literal prefixes with a trailing `/*`, exclusions carving out of them, fixed-width segments,
`?`-dictionary and fragment rules, case-insensitive rules; versions handled from a `since` spread over
the live versions, some with an `until`, a few switched off. Deterministic for a given seed.
"""

import json
import random

from rpc import RPCError

WORDS = [
    "u", "profile", "l", "a", "help", "shop", "buy", "item", "chat", "feed", "photos", "video", "events",
    "search", "settings", "invite", "offer", "promo", "blog", "news", "live", "stories", "match", "likes",
    "encounters", "premium", "verify", "reset", "login", "signup", "gift", "pay", "cart", "orders", "track",
]


def versions(count):
    """`count` ascending dotted versions: 5.0.0, 5.1.0, ..."""
    return [f"5.{i}.0" for i in range(count)]


class Plan:
    """What to create: one app, its hosts, `route_count` routes spread over the hosts, `live` versions."""

    def __init__(self, app, hosts, route_count, live, seed=42):
        self.app = app
        self.hosts = hosts
        self.route_count = route_count
        self.live = live
        self.random = random.Random(seed)
        self.prefixes = {host: [] for host in hosts}
        self.samples = {host: [] for host in hosts}
        self.routes = [self._route(i) for i in range(route_count)]

    def _word(self):
        return self.random.choice(WORDS)

    def _token(self):
        return self._word() + str(self.random.randrange(1000))

    def _route(self, i):
        r = self.random
        host = self.hosts[i % len(self.hosts)]
        prefix = f"/{self._word()}/{self._token()}{i}"
        self.prefixes[host].append(prefix)
        roll = r.randrange(100)
        pattern = {"path": prefix + "/*"}
        action = "open"
        self.samples[host].append((prefix, roll))
        if roll < 55:
            pass
        elif roll < 65:
            pattern = {"path": prefix + "/private/*"}
            action = "exclude"
        elif roll < 75:
            pattern = {"path": prefix + "/????"}
        elif roll < 83:
            pattern = {"path": prefix + "/*", "query": {"ref": "?*"}}
        elif roll < 90:
            pattern = {"path": prefix.upper() + "/*", "caseSensitive": False}
        elif roll < 96:
            pattern = {"path": prefix + "/*/edit"}
        else:
            pattern = {"path": prefix, "fragment": "?*"}
        route = {"id": f"r{i}", "pattern": pattern, "action": action}
        if len(self.hosts) > 1:
            route["domains"] = [host]
        if action == "open":
            # Most routes are old (every live version handles them); newer ones start at a later version.
            since_index = 0 if r.random() < 0.5 else r.randrange(self.live)
            rng = {"since": versions(self.live)[since_index]}
            if r.random() < 0.05 and since_index + 2 < self.live:
                rng["until"] = versions(self.live)[r.randrange(since_index + 1, self.live)]
            route["platforms"] = {"ios": rng}
        return route

    def app_resource(self):
        return {
            "id": self.app,
            "displayName": self.app.capitalize(),
            "ios": {"appIds": [f"ABCDE12345.com.example.{self.app}"]},
            "android": {
                "packageName": f"com.example.{self.app}",
                "sha256CertFingerprints": [":".join(["AB"] * 32)],
            },
            "fallback": {"queryItem": "ul_fallback"},
        }

    def _matching_url(self, r, host, prefix, kind, token):
        """A URL the route made with `prefix` and roll `kind` matches."""
        if kind < 55:
            return f"https://{host}{prefix}/{token}?utm_source=mail&id={r.randrange(100000)}"
        if kind < 65:
            return f"https://{host}{prefix}/private/{token}"
        if kind < 75:
            return f"https://{host}{prefix}/{r.randrange(1000, 9999)}"
        if kind < 83:
            return f"https://{host}{prefix}/{token}?ref=mail"
        if kind < 90:
            return f"https://{host}{prefix.lower()}/{token}"
        if kind < 96:
            return f"https://{host}{prefix}/{token}/edit"
        return f"https://{host}{prefix}#{token}"

    def check_urls(self, count=4096):
        """Link URLs as apps see them: 60 % made to match a random route (so early and late rules, open and
        excluded ones), the rest fallback markers, excluded sub-paths, unknown paths and upper-case
        variants, with tracking query items."""
        r = random.Random(7)
        urls = []
        while len(urls) < count:
            host = r.choice(self.hosts)
            base = r.choice(self.prefixes[host]) if self.prefixes[host] else "/x"
            token = r.choice(WORDS) + str(r.randrange(1000))
            roll = r.randrange(10)
            if roll < 6 and self.samples[host]:
                prefix, kind = r.choice(self.samples[host])
                urls.append(self._matching_url(r, host, prefix, kind, token))
                continue
            roll = r.choice([5, 7, 7, 8, 9])
            if roll < 5:
                url = f"https://{host}{base}/{token}?utm_source=mail&id={r.randrange(100000)}"
            elif roll == 5:
                url = f"https://{host}{base}/private/{token}"
            elif roll == 6:
                url = f"https://{host}{base}/{token}/edit"
            elif roll == 7:
                url = f"https://{host}{base}/{token}?ul_fallback=1"
            elif roll == 8:
                url = f"https://{host}/{r.choice(WORDS)}/{token}/{token}"
            else:
                url = f"https://{host}{base.upper()}/12/{token}"
            urls.append(url)
        return urls


def call_batch(client, calls):
    """Sends up to 100 calls in one JSON-RPC batch; raises on the first error that is not ALREADY_EXISTS."""
    body = [{"jsonrpc": "2.0", "id": i, "method": m, "params": p} for i, (m, p) in enumerate(calls)]
    status, raw = client._post(json.dumps(body).encode())
    if status != 200:
        raise RPCError("batch", {"code": status, "message": raw[:200].decode(errors="replace")})
    for answer in json.loads(raw):
        error = answer.get("error")
        if error and error.get("code") != 6:
            raise RPCError(calls[answer["id"]][0], error)


# Routes per Routes.BatchCreate call while seeding (the server takes up to 5,000).
IMPORT_CHUNK = 1000


def seed(client, plan, batch=50, progress=None):
    """Creates the app, its domains, the routes (in order, Routes.BatchCreate) and publishes every live version.
    Routes go before releases so each route write regenerates files of a registry without live versions
    yet; each publish then regenerates with the full rule list (the expensive, measured case)."""
    try:
        client.call("Apps.Create", app=plan.app_resource())
    except RPCError as error:
        if error.code != 6:
            raise
    for host in plan.hosts:
        try:
            client.call("Domains.Create", domain={"host": host, "apps": [plan.app]})
        except RPCError as error:
            if error.code != 6:
                raise
    for start in range(0, len(plan.routes), IMPORT_CHUNK):
        chunk = plan.routes[start : start + IMPORT_CHUNK]
        try:
            client.call("Routes.BatchCreate", app=plan.app, routes=chunk)
        except RPCError as error:
            if error.code != 6:
                raise
            # Some already exist (a registry seeded before): create one at a time, skipping those.
            for first in range(0, len(chunk), batch):
                calls = [("Routes.Create", {"app": plan.app, "route": r}) for r in chunk[first : first + batch]]
                call_batch(client, calls)
        if progress:
            progress(f"routes {start + len(chunk)}/{len(plan.routes)}")
    publish_times = []
    for version in versions(plan.live):
        _, seconds = client.timed_call("Releases.Publish", app=plan.app, platform="ios", version=version)
        publish_times.append(seconds)
        if progress and len(publish_times) % 10 == 0:
            progress(f"live versions {len(publish_times)}/{plan.live}")
    return publish_times


def check_bodies(plan, count=4096):
    """JSON-RPC bodies of `CanOpen.Check` over the plan's URLs and live versions."""
    r = random.Random(11)
    live = versions(plan.live)
    bodies = []
    for i, url in enumerate(plan.check_urls(count)):
        params = {"app": plan.app, "platform": "ios", "version": r.choice(live), "url": url}
        bodies.append(json.dumps({"jsonrpc": "2.0", "id": i, "method": "CanOpen.Check", "params": params}))
    return bodies
