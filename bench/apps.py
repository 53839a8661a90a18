"""The apps phase of make bench (issue 31): what one app's writes cost with one app in the registry and with
twenty, each of 1,000 routes and 50 live iOS versions, seeded through the API. A write to one app should cost
that app, not the whole registry."""

import statistics

import seed

IOS = "ios"


def _plan(index, routes, live):
    name = f"app{index:02d}"
    return seed.Plan(name, [f"{name}.apps.example"], route_count=routes, live=live, seed=100 + index)


def measure(client, plan, samples):
    """Medians over `samples` of each write on `plan`'s app, and Matrix.Get's."""
    live = seed.versions(plan.live)
    newest = live[-1]
    route = next(r["id"] for r in plan.routes if r["action"] == "open")
    publish, switch_off, create, matrix = [], [], [], []
    for n in range(samples):
        client.call("Releases.Retire", app=plan.app, platform=IOS, version=newest)
        _, seconds = client.timed_call("Releases.Publish", app=plan.app, platform=IOS, version=newest)
        publish.append(seconds * 1000)
        _, seconds = client.timed_call(
            "Routes.SwitchOff", app=plan.app, route=route, platform=IOS, versions=[newest], reason="bench")
        switch_off.append(seconds * 1000)
        client.call("Routes.SwitchOn", app=plan.app, route=route, platform=IOS, versions=[newest])
        extra = {"id": f"extra{n}", "pattern": {"path": f"/extra/{n}/*"}, "action": "open",
                 "platforms": {IOS: {"since": live[0]}}}
        _, seconds = client.timed_call("Routes.Create", app=plan.app, route=extra)
        create.append(seconds * 1000)
        client.call("Routes.Delete", app=plan.app, route=f"extra{n}")
        _, seconds = client.timed_call("Matrix.Get", app=plan.app, platform=IOS)
        matrix.append(seconds * 1000)
    return {"publish_ms": statistics.median(publish), "switch_off_ms": statistics.median(switch_off),
            "route_create_ms": statistics.median(create), "matrix_get_ms": statistics.median(matrix)}


def phase_apps(registry, apps, routes, live, samples, log):
    """One app seeded and measured, then `apps - 1` more seeded and the first measured again."""
    plans = [_plan(i, routes, live) for i in range(apps)]
    seed.seed(registry.client, plans[0])
    one = measure(registry.client, plans[0], samples)
    one["rss_mb"] = registry.rss()["VmRSS"]
    log(f"apps: 1 app: {one}")
    for plan in plans[1:]:
        seed.seed(registry.client, plan)
        log(f"apps: seeded {plan.app}")
    many = measure(registry.client, plans[0], samples)
    many["rss_mb"] = registry.rss()["VmRSS"]
    log(f"apps: {apps} apps: {many}")
    return {"apps": apps, "routes": routes, "live": live, "samples": samples, "one": one, "many": many}
