// createLink's batching and retries against a scripted caller, and landingData / fallbackUrl / store URLs as the
// registry's own landing page computes them (ShortLinkPages.content, StoreLinks, FallbackURL).
import { test } from "node:test";
import assert from "node:assert/strict";
import { RegistryError, Status, appStoreUrl, createLinkWith, fallbackUrl, landingData, playStoreUrl } from "../dist/esm/index.js";

/** A caller answering from `script` (one function per call) and recording every call. */
function scripted(script) {
  const calls = [];
  return {
    calls,
    async call(method, params, options) {
      calls.push({ method, params, options });
      const answer = script[calls.length - 1];
      if (!answer) throw new Error(`unexpected call ${calls.length}: ${method}`);
      return answer(method, params);
    },
  };
}

const created = (_method, params) => ({ links: params.links.map((l, i) => ({ ...l, code: l.code ?? `c${i}` })) });
const unavailable = () => { throw new RegistryError(Status.UNAVAILABLE, "Links.BatchCreate: registry unreachable"); };
const late = () => { throw new RegistryError(Status.DEADLINE_EXCEEDED, "deadline exceeded"); };

test("a batch whose outcome is unknown is retried with the one requestId until it answers", async () => {
  const caller = scripted([unavailable, late, created]);
  const links = [{ target: "https://m.badoo.com/u/1" }, { target: "https://m.badoo.com/u/2", code: "two" }];
  const out = await createLinkWith(caller, "badoo", links, { requestId: "summer-2026", backoffMs: 1 });
  assert.deepEqual(out.map((l) => l.code), ["c0", "two"]);
  assert.deepEqual(caller.calls.map((c) => c.method), ["Links.BatchCreate", "Links.BatchCreate", "Links.BatchCreate"]);
  assert.deepEqual(caller.calls.map((c) => c.params.requestId), ["summer-2026", "summer-2026", "summer-2026"]);
  assert.deepEqual(caller.calls[2].params, { app: "badoo", links, requestId: "summer-2026" });
});

test("a refusal is not retried, and attempts are bounded", async () => {
  const refused = scripted([() => { throw new RegistryError(Status.INVALID_ARGUMENT, "link.target"); }]);
  await assert.rejects(createLinkWith(refused, "badoo", [{ target: "https://evil.example/" }]), (e) => e.code === Status.INVALID_ARGUMENT);
  assert.equal(refused.calls.length, 1);
  const down = scripted([unavailable, unavailable]);
  await assert.rejects(createLinkWith(down, "badoo", { target: "https://m.badoo.com/u/1" }, { attempts: 2, backoffMs: 1 }), (e) => e.code === Status.UNAVAILABLE);
  assert.deepEqual(down.calls.map((c) => c.method), ["Links.Create", "Links.Create"]);
  assert.equal(down.calls[0].params.requestId, down.calls[1].params.requestId, "a random key, the same on both attempts");
  assert.match(down.calls[0].params.requestId, /^[A-Za-z0-9._:-]{1,64}$/);
});

test("more than 1000 links go in chunks of 1000, each with its own derived key", async () => {
  const caller = scripted([created, created, unavailable, created]);
  const links = Array.from({ length: 2500 }, (_, i) => ({ target: `https://m.badoo.com/u/${i}`, code: `k${i}` }));
  const out = await createLinkWith(caller, "badoo", links, { requestId: "campaign-7", backoffMs: 1 });
  assert.equal(out.length, 2500);
  assert.deepEqual(out.map((l) => l.code), links.map((l) => l.code), "in order");
  assert.deepEqual(caller.calls.map((c) => [c.params.requestId, c.params.links.length]),
    [["campaign-7.0", 1000], ["campaign-7.1", 1000], ["campaign-7.2", 500], ["campaign-7.2", 500]]);
  await assert.rejects(createLinkWith(caller, "badoo", links, { requestId: "x".repeat(63) }), RangeError);
  await assert.rejects(createLinkWith(caller, "badoo", links, { requestId: "has space" }), RangeError);
  assert.deepEqual(await createLinkWith(caller, "badoo", []), []);
});

const link = {
  domain: "go.badoo.com", code: "summer", target: "https://m.badoo.com/u/42", app: "badoo", shortUrl: "https://go.badoo.com/summer",
  preview: { title: "Summer", description: "Say hi", imageUrl: "https://m.badoo.com/i.png" },
  android: { fallbackUrl: "https://m.badoo.com/android-web" }, name: "domains/go.badoo.com/links/summer", etag: "\"1\"",
};
const app = {
  id: "badoo", displayName: "Badoo", ios: { appIds: ["ABCDE12345.com.badoo.Badoo"], appStoreId: "id351331194" },
  android: { packageName: "com.badoo.mobile", sha256CertFingerprints: [] }, fallback: { queryItem: "ul_fallback", value: "1" },
};

test("landingData gives the registry landing page's buttons for each visitor", () => {
  const ios = landingData({ link, app, platform: "ios" });
  assert.deepEqual(ios, {
    shortUrl: "https://go.badoo.com/summer", title: "Summer", hasOwnTitle: true, description: "Say hi",
    imageUrl: "https://m.badoo.com/i.png", appName: "Badoo", openUrl: "https://m.badoo.com/u/42",
    storeUrl: "https://apps.apple.com/app/id351331194?ct=go.badoo.com%2Fsummer&mt=8",
    webUrl: "https://m.badoo.com/u/42?ul_fallback=1", platform: "ios", skipLanding: false,
  });
  const android = landingData({ link, app, platform: "android" });
  assert.equal(android.storeUrl, "https://play.google.com/store/apps/details?id=com.badoo.mobile&referrer=link%3Dgo.badoo.com%2Fsummer");
  assert.equal(android.webUrl, "https://m.badoo.com/android-web", "the platform's own fallback wins");
  const desktop = landingData({ link: { ...link, preview: { imageUrl: "http://m.badoo.com/i.png" } }, app: { id: "badoo" } });
  assert.equal(desktop.title, "badoo");
  assert.equal(desktop.hasOwnTitle, false);
  assert.equal(desktop.imageUrl, undefined, "an image that is not https is left out");
  assert.equal(desktop.storeUrl, undefined);
  const resolved = landingData({
    link, app, platform: "ios",
    resolution: { target: link.target, app: "badoo", route: "profile", minVersion: "5.13.0", minVersionSource: "link",
      decision: { decision: "open_in_browser", reason: "unsupported_version", route: "profile", supportedSince: "5.13.0" } },
  });
  assert.equal(resolved.minVersion, "5.13.0");
  assert.equal(resolved.minVersionSource, "link");
  assert.equal(resolved.supportedSince, "5.13.0");
});

test("fallbackUrl and the store URLs encode as the server does", () => {
  assert.equal(fallbackUrl("https://m.badoo.com/l/a/42"), "https://m.badoo.com/l/a/42?ul_fallback=1");
  assert.equal(fallbackUrl("https://m.badoo.com/p?x=1&ul_fallback=&y=2#top"), "https://m.badoo.com/p?x=1&y=2&ul_fallback=1#top");
  assert.equal(fallbackUrl("https://m.badoo.com/p?%75l_fallback=0", { queryItem: "ul_fallback", value: "1" }), "https://m.badoo.com/p?ul_fallback=1");
  assert.equal(fallbackUrl("https://m.badoo.com/p", { queryItem: "web", value: "a b" }), "https://m.badoo.com/p?web=a%20b");
  assert.equal(appStoreUrl("351331194", "ü".repeat(30)), `https://apps.apple.com/app/id351331194?ct=${"%C3%BC".repeat(20)}&mt=8`);
  assert.equal(appStoreUrl("351331194", ""), "https://apps.apple.com/app/id351331194?mt=8");
  assert.equal(playStoreUrl("com.badoo.mobile", "utm_source=a&b=(c)"), "https://play.google.com/store/apps/details?id=com.badoo.mobile&referrer=utm_source%3Da%26b%3D%28c%29");
});
