"""Times creating N routes in one app through the API (JSON-RPC batches of 100), with a live release so
every route is in the AASA. Reports progress every 1,000 routes; stops at --max-seconds.
usage: python3 many_routes.py BASE_URL TOKEN [N] [MAX_SECONDS] [SINCE] [APP]
SINCE (default 1.0, the live version) puts every route in the AASA; a later one (2.0) keeps them out of it."""
import json
import sys
import time
import urllib.request

base, token = sys.argv[1], sys.argv[2]
count = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
max_seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 900
since = sys.argv[5] if len(sys.argv) > 5 else "1.0"
app = sys.argv[6] if len(sys.argv) > 6 else "many"


def post(body):
    request = urllib.request.Request(base + "/rpc", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": "Bearer " + token})
    with urllib.request.urlopen(request, timeout=600) as response:
        return json.loads(response.read())


def call(method, params):
    answer = post({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
    if "error" in answer:
        raise SystemExit(f"{method}: {answer['error']}")
    return answer["result"]


call("Apps.Create", {"app": {"id": app, "ios": {"appIds": [f"ABCDE12345.com.example.{app}"]},
                             "fallback": {"queryItem": "ul_fallback"}}})
call("Domains.Create", {"domain": {"host": f"{app}.example.com", "apps": [app]}})
call("Releases.Publish", {"app": app, "platform": "ios", "version": "1.0"})
started = time.monotonic()
created, failures = 0, {}
while created < count and time.monotonic() - started < max_seconds:
    batch = [{"jsonrpc": "2.0", "id": i, "method": "Routes.Create",
              "params": {"app": app, "route": {"id": f"r{created + i}", "pattern": {"path": f"/p/{created + i}/*"},
                                                  "action": "open", "platforms": {"ios": {"since": since}}}}}
             for i in range(min(100, count - created))]
    for answer in post(batch):
        if "error" in answer:
            failures[answer["error"].get("message", "?")[:80]] = failures.get(answer["error"].get("message", "?")[:80], 0) + 1
    created += len(batch)
    if created % 1000 == 0:
        print(f"routes: {created} in {time.monotonic() - started:.1f} s", flush=True)
elapsed = time.monotonic() - started
print(f"routes: {created} requested in {elapsed:.1f} s ({created / elapsed:.0f}/s); failures {failures}")
t = time.monotonic()
check = call("CanOpen.Check", {"app": app, "platform": "ios", "version": "1.0",
                               "url": f"https://{app}.example.com/p/{created - 1}/x"})
print(f"routes: CanOpen.Check on the last route: {check.get('decision')} in {(time.monotonic() - t) * 1000:.1f} ms")
