"""The manifest phase of make bench (issue 44): `routereg plan` of a 1,000-route manifest against an app of 1,000
routes, as a CI job runs it on every pull request: the registry read through the API, the plan computed, one
route's change found. Target: under 1 s end to end, the process start included."""

import json
import os
import statistics
import subprocess
import tempfile
import time

import seed


def phase_manifest(registry, binary, routes, samples, log):
    plan = seed.Plan("manifest", ["manifest.apps.example"], route_count=routes, live=10, seed=44)
    seed.seed(registry.client, plan)
    env = dict(os.environ, ROUTEREG_SERVER=f"http://127.0.0.1:{registry.port}", ROUTEREG_TOKEN=registry.token)
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "routereg.json")
        subprocess.run([binary, "export", plan.app, "--out", path], env=env, check=True, capture_output=True,
                       timeout=120)
        with open(path) as f:
            manifest = json.load(f)
        # One reviewed edit: a route's since moves on, so the plan has exactly one change to find.
        route = next(r for r in manifest["routes"] if (r.get("platforms") or {}).get("ios", {}).get("since"))
        route["platforms"]["ios"]["since"] = "99.0.0"
        with open(path, "w") as f:
            json.dump(manifest, f)
        seconds = []
        for _ in range(samples):
            started = time.monotonic()
            done = subprocess.run([binary, "plan", path, "--json", "--detailed-exitcode"], env=env,
                                  capture_output=True, timeout=120)
            seconds.append(time.monotonic() - started)
            if done.returncode != 2:
                raise RuntimeError(f"plan exited {done.returncode}: {done.stderr.decode()[:300]}")
        changes = len(json.loads(done.stdout)["changes"])
    result = {"routes": len(manifest["routes"]), "changes": changes, "samples": samples,
              "median_s": statistics.median(seconds), "max_s": max(seconds)}
    log(f"manifest: plan of {result['routes']} routes in {result['median_s'] * 1000:.0f} ms (median), "
        f"{changes} change(s)")
    return result
