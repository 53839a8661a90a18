// Routes as code from TypeScript against the real registry (ROUTEREG_BIN): Manifests.Plan answers the plan of an
// edited manifest, Manifests.Apply applies it as reviewed (basis and changes) with its source, the next plan has
// no changes, and a reviewed plan the registry moved away from is refused with FAILED_PRECONDITION.
import { test } from "node:test";
import assert from "node:assert/strict";
import { RegistryError, RouteRegistryClient, Status } from "../dist/esm/index.js";
import { startRegistry } from "./support/registry.mjs";

test("manifestsPlan and manifestsApply apply a reviewed plan once and refuse one the registry moved away from", async (t) => {
  const registry = await startRegistry();
  t.after(() => registry.cleanup());
  const admin = new RouteRegistryClient({ server: registry.url, token: registry.adminToken, timeoutMs: 30000 });
  await admin.appsCreate({ app: { id: "badoo", ios: { appIds: ["ABCDE12345.com.badoo.Badoo"] } } });
  await admin.domainsCreate({ domain: { host: "m.badoo.com", apps: ["badoo"] } });
  await admin.routesCreate({ app: "badoo", route: { id: "profile", pattern: { path: "/u/*" }, platforms: { ios: { since: "5.0" } } } });

  const manifest = {
    app: { id: "badoo", ios: { appIds: ["ABCDE12345.com.badoo.Badoo"] } },
    domains: [{ host: "m.badoo.com" }],
    routes: [
      { id: "profile", pattern: { path: "/u/*" }, platforms: { ios: { since: "5.1" } } },
      { id: "chat", pattern: { path: "/c/*" }, platforms: { ios: { since: "5.0" } } },
    ],
  };
  const plan = await admin.manifestsPlan({ manifest });
  assert.deepEqual(plan.changes.map((c) => `${c.action} ${c.id}`), ["change profile", "add chat"]);
  const applied = await admin.manifestsApply({ manifest, basis: plan.basis, changes: plan.changes, source: "ts-1" });
  assert.match(applied.fingerprint, /^sha256:[0-9a-f]{64}$/);
  const again = await admin.manifestsPlan({ manifest });
  assert.deepEqual(again.changes, []);
  assert.equal(again.basis.fingerprint, applied.fingerprint);
  const chat = await admin.routesGet({ app: "badoo", route: "chat" });
  assert.equal(chat.managedBy.source, "ts-1");

  // Reviewed, then changed by hand before the apply: refused, naming what moved.
  manifest.routes[1].platforms.ios.since = "5.2";
  const reviewed = await admin.manifestsPlan({ manifest });
  await admin.routesCreate({ app: "badoo", route: { id: "later", pattern: { path: "/later/*" } } });
  await assert.rejects(
    admin.manifestsApply({ manifest, basis: reviewed.basis, changes: reviewed.changes }),
    (error) => error instanceof RegistryError && error.code === Status.FAILED_PRECONDITION && /routes 2 → 3/.test(error.message),
  );
});
