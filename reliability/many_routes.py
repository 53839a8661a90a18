"""10,000 routes in one app through the API (RELIABILITY.md): creates N routes with JSON-RPC batches of 100
`Routes.Create` calls (each its own write and transaction) while a reader checks that the server keeps
answering others, then checks the result. Exits 1 when any route failed, the app does not list exactly the
routes created, CanOpen.Check on the last route is wrong, or a read failed or took over 2 s.
usage: python3 many_routes.py BASE_URL TOKEN [N] [MAX_SECONDS] [SINCE] [APP]
SINCE (default 2.0) keeps the routes out of the AASA: version 1.0 is the live one. With 1.0 every route is in
the AASA, and writes are refused (FAILED_PRECONDITION) once it would pass Apple's 128 KB limit."""
import json
import sys
import threading
import time
import urllib.request

base, token = sys.argv[1], sys.argv[2]
count = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
max_seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 900
since = sys.argv[5] if len(sys.argv) > 5 else "2.0"
app = sys.argv[6] if len(sys.argv) > 6 else "many"
host = f"{app}.example.com"


def post(body, timeout=600):
    request = urllib.request.Request(base + "/rpc", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": "Bearer " + token})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read())


def call(method, params, timeout=600):
    answer = post({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}, timeout)
    if "error" in answer:
        raise SystemExit(f"many_routes: {method}: {answer['error']}")
    return answer["result"]


call("Apps.Create", {"app": {"id": app, "ios": {"appIds": [f"ABCDE12345.com.example.{app}"]},
                             "fallback": {"queryItem": "ul_fallback"}}})
call("Domains.Create", {"domain": {"host": host, "apps": [app]}})
call("Routes.Create", {"app": app, "route": {"id": "home", "pattern": {"path": "/home/*"}, "action": "open",
                                              "platforms": {"ios": {"since": "1.0"}}}})
call("Releases.Publish", {"app": app, "platform": "ios", "version": "1.0"})

# The reader: the AASA GET and a CanOpen.Check every 100 ms while the writes go on.
reads = {"count": 0, "failed": 0, "slowest": 0.0}
stop = threading.Event()


def reader():
    check = {"app": app, "platform": "ios", "version": "1.0", "url": f"https://{host}/home/x"}
    while not stop.is_set():
        started = time.monotonic()
        try:
            get = urllib.request.Request(base + "/.well-known/apple-app-site-association", headers={"Host": host})
            with urllib.request.urlopen(get, timeout=10) as response:
                ok = response.status == 200 and b'"applinks"' in response.read()
            ok = ok and call("CanOpen.Check", check, timeout=10)["decision"] == "open_in_app"
        except Exception:  # noqa: BLE001 - any failure of a read counts
            ok = False
        reads["count"] += 1
        reads["failed"] += 0 if ok else 1
        reads["slowest"] = max(reads["slowest"], time.monotonic() - started)
        stop.wait(0.1)


thread = threading.Thread(target=reader, daemon=True)
thread.start()
started = time.monotonic()
created, failures = 0, {}
while created < count and time.monotonic() - started < max_seconds:
    batch = [{"jsonrpc": "2.0", "id": i, "method": "Routes.Create",
              "params": {"app": app, "route": {"id": f"r{created + i}", "pattern": {"path": f"/p/{created + i}/*"},
                                                  "action": "open", "platforms": {"ios": {"since": since}}}}}
             for i in range(min(100, count - created))]
    for answer in post(batch):
        if "error" in answer:
            message = answer["error"].get("message", "?")[:80]
            failures[message] = failures.get(message, 0) + 1
    created += len(batch)
    if created % 1000 == 0:
        print(f"many_routes: {created} routes in {time.monotonic() - started:.1f} s", flush=True)
elapsed = time.monotonic() - started
stop.set()
thread.join()
print(f"many_routes: {created} routes requested in {elapsed:.1f} s ({created / elapsed:.0f}/s); failures {failures}")
print(f"many_routes: {reads['count']} reads during the writes, {reads['failed']} failed, "
      f"slowest {reads['slowest'] * 1000:.0f} ms")

listed, token_ = 0, ""
while True:
    page = call("Routes.List", {"app": app, "pageSize": 1000, "pageToken": token_})
    listed += len(page["routes"])
    token_ = page.get("nextPageToken", "")
    if not token_:
        break
t = time.monotonic()
last = call("CanOpen.Check", {"app": app, "platform": "ios", "version": since,
                              "url": f"https://{host}/p/{created - 1}/x"})
print(f"many_routes: Routes.List pages {listed} routes; CanOpen.Check {since} on the last route: "
      f"{last.get('decision')} ({last.get('route')}) in {(time.monotonic() - t) * 1000:.1f} ms")

problems = []
if created < count:
    problems.append(f"only {created} of {count} routes requested within {max_seconds:.0f} s")
if failures:
    problems.append(f"failed writes {failures}")
if listed != created + 1:
    problems.append(f"the app lists {listed} routes, expected {created + 1}")
if last.get("decision") != "open_in_app" or last.get("route") != f"r{created - 1}":
    problems.append(f"CanOpen.Check on the last route answered {last}")
if reads["count"] == 0 or reads["failed"] or reads["slowest"] > 2:
    problems.append(f"reads during the writes: {reads}")
for problem in problems:
    print(f"many_routes: FAIL: {problem}", file=sys.stderr)
print("many_routes: PASS" if not problems else "many_routes: FAIL")
sys.exit(1 if problems else 0)
