// Short links against the real registry (ROUTEREG_BIN): a campaign's links created in one batch whose answer is
// lost (the write committed, the pipeline never heard), retried with the one requestId: the first outcome comes
// back and no link exists twice; a rerun of the pipeline gets the same links; and landingData gives the buttons
// the registry's own landing page shows a phone.
import { test } from "node:test";
import assert from "node:assert/strict";
import { RegistryError, RouteRegistryClient, Status } from "../dist/esm/index.js";
import { request } from "./support/rpcServer.mjs";
import { startRegistry } from "./support/registry.mjs";

test("createLink batches a campaign, retries a lost answer idempotently, and landingData matches the landing page", async (t) => {
  const registry = await startRegistry();
  t.after(() => registry.cleanup());
  const admin = new RouteRegistryClient({ server: registry.url, token: registry.adminToken, timeoutMs: 30000 });
  await admin.appsCreate({
    app: {
      id: "badoo", displayName: "Badoo",
      ios: { appIds: ["ABCDE12345.com.badoo.Badoo"], appStoreId: "351331194" },
      android: { packageName: "com.badoo.mobile", sha256CertFingerprints: [Array(32).fill("AB").join(":")] },
    },
  });
  await admin.domainsCreate({ domain: { host: "m.badoo.com", apps: ["badoo"] } });
  await admin.domainsCreate({ domain: { host: "go.badoo.com", apps: ["badoo"], links: true } });
  await admin.routesCreate({ app: "badoo", route: { id: "profile", pattern: { path: "/u/*" }, platforms: { ios: { since: "5.0" } } } });
  await admin.releasesPublish({ app: "badoo", platform: "ios", version: "5.12.0" });

  // A pipeline whose first BatchCreate answer is lost on the way back, and which does not retry by itself.
  let lost = 0;
  const sent = [];
  const lossy = async (url, init) => {
    const body = JSON.parse(init.body);
    if (body.method === "Links.BatchCreate") sent.push(body.params.requestId);
    const response = await fetch(url, init);
    if (body.method === "Links.BatchCreate" && lost === 0) {
      lost += 1;
      await response.text();
      throw Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNRESET" } });
    }
    return response;
  };
  const pipeline = new RouteRegistryClient({ server: registry.url, token: registry.adminToken, timeoutMs: 30000, retries: 0, fetch: lossy });
  const campaign = [
    { target: "https://m.badoo.com/u/1", code: "summer-1", preview: { title: "Summer", description: "Say hi" } },
    { target: "https://m.badoo.com/u/2", code: "summer-2" },
    { target: "https://m.badoo.com/u/3" },
  ];
  const links = await pipeline.createLink("badoo", campaign, { requestId: "campaign-summer", backoffMs: 10 });
  assert.equal(lost, 1, "the first answer was lost");
  assert.deepEqual(sent, ["campaign-summer", "campaign-summer"], "the retry sent the same requestId");
  assert.deepEqual(links.map((l) => l.target), campaign.map((l) => l.target));
  assert.deepEqual(links.slice(0, 2).map((l) => l.shortUrl), ["https://go.badoo.com/summer-1", "https://go.badoo.com/summer-2"]);
  assert.match(links[2].code, /^[A-Za-z0-9]{7}$/, "a drawn code");

  const listed = await admin.linksList({ app: "badoo" });
  assert.equal(listed.links.length, 3, "written once");
  // The pipeline runs again (a crash after the call, say): the same key returns the first links, no new ones.
  const rerun = await admin.createLink("badoo", campaign, { requestId: "campaign-summer" });
  assert.deepEqual(rerun.map((l) => l.code), links.map((l) => l.code));
  assert.equal((await admin.linksList({ app: "badoo" })).links.length, 3);
  // Without a shared key the same batch is a new write: the custom codes are taken.
  await assert.rejects(admin.createLink("badoo", campaign.slice(0, 1)), (e) => e instanceof RegistryError && e.code === Status.ALREADY_EXISTS);
  const single = await admin.createLink("badoo", { target: "https://m.badoo.com/u/9" }, { requestId: "one-off" });
  assert.equal((await admin.createLink("badoo", { target: "https://m.badoo.com/u/9" }, { requestId: "one-off" })).code, single.code);

  // landingData: the buttons of the registry's own landing page for an iPhone, in order.
  const landing = await admin.linkLanding("go.badoo.com", "summer-1", { platform: "ios", version: "5.12.0" });
  assert.equal(landing.title, "Summer");
  assert.equal(landing.minVersion, "5.0.0");
  assert.equal(landing.minVersionSource, "route");
  assert.equal(landing.decision.decision, "open_in_app");
  const page = await request(Number(new URL(registry.url).port), "/summer-1", {
    headers: { host: "go.badoo.com", "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)" },
  });
  assert.equal(page.status, 200);
  const hrefs = [...page.body.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, "&"));
  assert.deepEqual(hrefs, [landing.openUrl, landing.storeUrl, landing.webUrl]);
  assert.ok(page.body.includes("<h1>Summer</h1>") && page.body.includes("<p>Say hi</p>"));
});
