"""The apps phase of make bench (issue 31): what one app's writes cost with one app in the registry and with
twenty, each of 1,000 routes and 50 live iOS versions, seeded through the API. A write to one app should cost
that app, not the whole registry."""

import statistics

import seed

IOS = "ios"


def _plan(index, routes, live):
    name = f"app{index:02d}"
    return seed.Plan(name, [f"{name}.apps.example"], route_count=routes, live=live, seed=100 + index)


def sample(client, plan, n):
    """One of each write on `plan`'s app, and a Matrix.Get: their times in ms."""
    live = seed.versions(plan.live)
    newest = live[-1]
    route = next(r["id"] for r in plan.routes if r["action"] == "open")
    times = {}
    client.call("Releases.Retire", app=plan.app, platform=IOS, version=newest)
    _, seconds = client.timed_call("Releases.Publish", app=plan.app, platform=IOS, version=newest)
    times["publish_ms"] = seconds * 1000
    _, seconds = client.timed_call(
        "Routes.SwitchOff", app=plan.app, route=route, platform=IOS, versions=[newest], reason="bench")
    times["switch_off_ms"] = seconds * 1000
    client.call("Routes.SwitchOn", app=plan.app, route=route, platform=IOS, versions=[newest])
    extra = {"id": f"extra{n}", "pattern": {"path": f"/extra/{n}/*"}, "action": "open",
             "platforms": {IOS: {"since": live[0]}}}
    _, seconds = client.timed_call("Routes.Create", app=plan.app, route=extra)
    times["route_create_ms"] = seconds * 1000
    client.call("Routes.Delete", app=plan.app, route=f"extra{n}")
    _, seconds = client.timed_call("Matrix.Get", app=plan.app, platform=IOS)
    times["matrix_get_ms"] = seconds * 1000
    return times


def phase_apps(single, many, apps, routes, live, samples, log):
    """Two servers side by side: `single` holds the first app alone, `many` the same app and `apps - 1`
    others. The same writes on the first app then alternate between them, sample by sample (the order
    reversed every other sample), so both medians come from the same minutes of this shared machine."""
    plans = [_plan(i, routes, live) for i in range(apps)]
    seed.seed(single.client, plans[0])
    for plan in plans:
        seed.seed(many.client, plan)
        log(f"apps: seeded {plan.app}")
    runs = {"one": [], "many": []}
    for n in range(samples):
        order = [("one", single), ("many", many)]
        for name, registry in (order if n % 2 == 0 else order[::-1]):
            runs[name].append(sample(registry.client, plans[0], n))
    result = {"apps": apps, "routes": routes, "live": live, "samples": samples}
    for name, registry in (("one", single), ("many", many)):
        result[name] = {key: statistics.median(run[key] for run in runs[name]) for key in runs[name][0]}
        result[name]["rss_mb"] = registry.rss()["VmRSS"]
        log(f"apps: {name}: {result[name]}")
    return result
