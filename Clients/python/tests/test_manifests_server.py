"""Routes as code from Python against the real `routereg serve` (collected only when ROUTEREG_BIN is set):
manifests_plan answers the plan of an edited manifest, manifests_apply applies it as reviewed with its source, the
next plan has no changes, and a reviewed plan the registry moved away from is refused (FailedPrecondition)."""
import secrets

import pytest

from routeregistry import Client, FailedPrecondition

from test_scenario_server import server  # noqa: F401  (the module's registry)


def test_a_reviewed_plan_applies_once_and_a_moved_registry_refuses_it(server):  # noqa: F811
    app, host = f"badoo-{secrets.token_hex(4)}", f"m.{secrets.token_hex(4)}.com"
    admin = Client(server["url"], token=server["admin_token"], timeout=60)
    admin.apps_create({"id": app, "ios": {"appIds": ["ABCDE12345.com.badoo.Badoo"]}})
    admin.domains_create({"host": host, "apps": [app]})
    admin.routes_create(app, {"id": "profile", "pattern": {"path": "/u/*"}, "platforms": {"ios": {"since": "5.0"}}})

    manifest = {
        "app": {"id": app, "ios": {"appIds": ["ABCDE12345.com.badoo.Badoo"]}},
        "domains": [{"host": host}],
        "routes": [
            {"id": "chat", "pattern": {"path": "/c/*"}, "platforms": {"ios": {"since": "5.0"}}},
            {"id": "profile", "pattern": {"path": "/u/*"}, "platforms": {"ios": {"since": "5.0"}}},
        ],
    }
    plan = admin.manifests_plan(manifest)
    assert [f"{c['action']} {c['id']}" for c in plan["changes"]] == ["add chat"]
    applied = admin.manifests_apply(manifest, basis=plan["basis"], changes=plan["changes"], source="py-1")
    assert admin.manifests_plan(manifest)["changes"] == []
    assert [r["id"] for r in admin.iter_items("Routes.List", app=app)] == ["chat", "profile"]
    assert admin.routes_get(app, "chat")["managedBy"]["source"] == "py-1"
    assert applied["fingerprint"].startswith("sha256:")

    manifest["routes"][0]["platforms"]["ios"]["since"] = "5.1"
    reviewed = admin.manifests_plan(manifest)
    admin.routes_create(app, {"id": "later", "pattern": {"path": "/later/*"}})
    with pytest.raises(FailedPrecondition) as refused:
        admin.manifests_apply(manifest, basis=reviewed["basis"], changes=reviewed["changes"])
    assert "routes 2 → 3" in str(refused.value)
    assert admin.routes_get(app, "chat")["platforms"]["ios"]["since"] == "5.0"
