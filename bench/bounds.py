"""The `bounds` phase of `make bench` (issue 41): what the worst `CanOpen.Check` the write-time limits allow
costs, next to an ordinary one, and what two of them running without pause do to another tenant's AASA GET.

A second app `rt` writes, on its own domain, the costliest patterns the limits let through (the values of one
pattern's variable tokens add up to 256, an app's routes on one domain to 1,024, each value at most 64
characters, a value with `*` or `?` counting one per character), and the Checks send URLs of the longest
length the API allows (8,192 characters) built to make the matcher read as much as it can, against all of
them in turn. `badoo` is an ordinary app on its own domain.

    python3 bench/bench.py --skip-build --phases bounds --no-report     # on its own, about a minute
"""

import statistics
import threading
import time

from rpc import Client, RPCError

BADOO_HOST = "m.badoo.example"
RT_HOST = "m.rt.example"
URL_LIMIT = 8192

# rt's routes, all on the path /x, so that one URL is checked against every one of them in turn (none
# matches: each pattern ends in a letter the URLs lack). Each is at the per-pattern bound (256 values in all)
# and together they are at the per-app bound on one domain (1,024):
# - "issue": the row cut to the bound: 5 tokens of a 51-value variable (255);
# - "walk", "walk2": one variable of 64 values a, aa, … (64 characters at most), 4 tokens (256), after a `*`:
#   every position of an 8 KB run of `a` starts every token, and each walk reads 64 bytes;
# - "wild": a value with wildcards, 64 characters long (counting 64), used 4 times (256): walked on its own at
#   every token.
ROUTES = [
    ("issue", "$(v)" * 5 + "z"),
    ("walk", "*" + "$(w)" * 4 + "b"),
    ("wild", "$(x)" * 4 + "b"),
    ("walk2", "*" + "$(w)" * 4 + "c"),
]
VARIABLES = {"v": [f"v{i}" for i in range(51)], "w": ["a" * k for k in range(1, 65)], "x": ["*a" * 32]}
# The URLs sent, at the API's longest: a run the values follow, and a run of `a`.
URLS = {"v1-run": lambda n: "v1" * (n // 2 + 1), "a-run": lambda n: "a" * n}


def _url(make):
    prefix = f"https://{RT_HOST}/x?"
    return (prefix + make(URL_LIMIT - len(prefix)))[:URL_LIMIT]


def seed(client):
    client.call("Apps.Create", app={"id": "badoo", "ios": {"appIds": ["ABCDE12345.com.badoo.Badoo"]}})
    client.call("Domains.Create", domain={"host": BADOO_HOST, "apps": ["badoo"]})
    client.call("Routes.Create", app="badoo", route={"id": "lookalikes", "pattern": {"path": "/l/a/*"},
                                                    "platforms": {"ios": {"since": "1.0"}}})
    client.call("Releases.Publish", app="badoo", platform="ios", version="1.0")
    client.call("Apps.Create", app={"id": "rt", "ios": {"appIds": ["RTRTRT1234.com.rt.app"]}})
    client.call("Domains.Create", domain={"host": RT_HOST, "apps": ["rt"], "substitutionVariables": VARIABLES})
    for route, pattern in ROUTES:
        client.call("Routes.Create", app="rt", route={
            "id": route, "pattern": {"path": "/x", "query": pattern}, "platforms": {"ios": {"since": "1.0"}}})
    client.call("Releases.Publish", app="rt", platform="ios", version="1.0")
    # A pattern over the bound, and one more route over the app's total, are refused: the bounds are real.
    for route, pattern in (("over", "$(v)" * 6), ("fifth", "$(w)")):
        try:
            client.call("Routes.Create", app="rt", route={
                "id": route, "pattern": {"path": "/x", "query": pattern}, "platforms": {"ios": {"since": "1.0"}}})
            raise RuntimeError(f"{route}: a pattern over the bounds was accepted")
        except RPCError as error:
            if error.code != 3:
                raise


def _time_checks(client, app, url, count):
    """Milliseconds per call (round trip on loopback), `count` calls in a row."""
    times = []
    for _ in range(count):
        _, seconds = client.timed_call("CanOpen.Check", app=app, platform="ios", version="1.0", url=url)
        times.append(seconds * 1000)
    return times


def phase_bounds(registry, wrk, summarize, rounds, duration, log):
    client = registry.client
    seed(client)
    results = {"url_chars": URL_LIMIT, "shapes": {}}
    ordinary = _time_checks(client, "badoo", f"https://{BADOO_HOST}/l/a/42", 200)
    results["ordinary_ms"] = statistics.median(ordinary)
    worst = None
    for name, make in URLS.items():
        url = _url(make)
        assert len(url) == URL_LIMIT, len(url)
        times = _time_checks(client, "rt", url, 30)
        entry = {"median_ms": statistics.median(times), "max_ms": max(times)}
        results["shapes"][name] = entry
        log(f"bounds: worst-case Check '{name}': median {entry['median_ms']:.2f} ms, max {entry['max_ms']:.2f} ms")
        if worst is None or entry["median_ms"] > results["shapes"][worst]["median_ms"]:
            worst = name
    results["worst_shape"] = worst
    results["worst_ms"] = results["shapes"][worst]["median_ms"]
    log(f"bounds: ordinary Check median {results['ordinary_ms']:.3f} ms; worst '{worst}' {results['worst_ms']:.2f} ms")
    # The over-long URL is refused by the document's maxLength, before any matching.
    try:
        client.call("CanOpen.Check", app="rt", platform="ios", version="1.0", url=_url(URLS["a-run"]) + "a")
        raise RuntimeError("a URL over 8192 characters was accepted")
    except RPCError as error:
        results["over_long_url_code"] = error.code

    # badoo's AASA GET alone, then with two clients sending the worst Check back to back (rounds alternating).
    url_path = "/.well-known/apple-app-site-association"
    worst_url = _url(URLS[worst])
    alone, beside = [], []
    checks_done = [0]
    for r in range(rounds):
        for mode in (("alone", "beside") if r % 2 == 0 else ("beside", "alone")):
            stop = threading.Event()
            workers = []
            if mode == "beside":
                def hammer():
                    own = Client(registry.port, registry.token)
                    try:
                        while not stop.is_set():
                            own.call("CanOpen.Check", app="rt", platform="ios", version="1.0", url=worst_url)
                            checks_done[0] += 1
                    finally:
                        own.close()
                workers = [threading.Thread(target=hammer, daemon=True) for _ in range(2)]
                for worker in workers:
                    worker.start()
                time.sleep(0.5)
            try:
                result = wrk(f"http://127.0.0.1:{registry.port}{url_path}", duration, env={"BENCH_HOST": BADOO_HOST})
            finally:
                stop.set()
                for worker in workers:
                    worker.join(timeout=30)
            (alone if mode == "alone" else beside).append(result)
            log(f"bounds: AASA GET {mode} round {r + 1}: {result['rps']:.0f} rps, p99 {result['p99_ms']:.2f} ms")
    results["aasa_alone"] = summarize(alone)
    results["aasa_beside_worst"] = summarize(beside)
    results["worst_checks_during_gets"] = checks_done[0]
    return results
