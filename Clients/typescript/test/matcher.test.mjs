import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { evaluate, parseLinkURL, percentDecode } from "../dist/esm/index.js";
import { conformanceFile, routeVectorsFile, upstreamConformanceFile } from "./support/paths.mjs";

function runVectors(file) {
  const { cases } = JSON.parse(readFileSync(file, "utf8"));
  assert.ok(Array.isArray(cases), `${file} has a cases array`);
  return cases;
}

test("conformance vectors (aasa-matching.json)", async (t) => {
  const cases = runVectors(conformanceFile);
  assert.ok(cases.length > 0, "the conformance file holds cases");
  for (const c of cases) {
    await t.test(c.name, () => {
      assert.equal(evaluate(c.aasa, c.appId, c.url, c.domain), c.expect);
    });
  }
});

test("project vectors (route-vectors.json)", async (t) => {
  for (const c of runVectors(routeVectorsFile)) {
    await t.test(c.name, () => {
      assert.equal(evaluate(c.aasa, c.appId, c.url, c.domain), c.expect);
    });
  }
});

const APP = "ABCDE12345.com.example.app";
const components = (rules, extra = {}) => ({ applinks: { ...extra, details: [{ appIDs: [APP], components: rules }] } });

test("legacy dictionary details are read per app ID", () => {
  const aasa = { applinks: { apps: [], details: { [APP]: { paths: ["NOT /private/*", "/*"] } } } };
  assert.equal(evaluate(aasa, APP, "https://example.com/a", "example.com"), "match");
  assert.equal(evaluate(aasa, APP, "https://example.com/private/x", "example.com"), "exclude");
  assert.equal(evaluate(aasa, "Z.other", "https://example.com/a", "example.com"), "no_match");
});

test("details[].defaults apply between the rule and applinks.defaults", () => {
  const aasa = { applinks: { defaults: { percentEncoded: true }, details: [{ appIDs: [APP], defaults: { percentEncoded: false }, components: [{ "/": "/a b" }] }] } };
  assert.equal(evaluate(aasa, APP, "https://example.com/a%20b", "example.com"), "match");
});

test("repeated slashes collapse on both sides", () => {
  assert.equal(evaluate(components([{ "/": "/a//b" }]), APP, "https://example.com//a/b", "example.com"), "match");
});

test("port and trailing dot on the URL's host are ignored", () => {
  assert.equal(evaluate(components([{ "/": "/x" }]), APP, "https://Example.com.:443/x", "example.com"), "match");
});

test("the first of several details listing the app decides first", () => {
  const aasa = { applinks: { details: [
    { appIDs: ["Z.other"], components: [{ "/": "/a", exclude: true }] },
    { appIDs: [APP], components: [{ "/": "/a" }] },
  ] } };
  assert.equal(evaluate(aasa, APP, "https://example.com/a", "example.com"), "match");
});

test("percentEncoded false decodes query items and fragments too", () => {
  const aasa = components([{ "?": { q: "a b" }, "#": "x y", percentEncoded: false }]);
  assert.equal(evaluate(aasa, APP, "https://example.com/?q=a%20b#x%20y", "example.com"), "match");
  assert.equal(evaluate(components([{ "?": { q: "a b" } }]), APP, "https://example.com/?q=a%20b", "example.com"), "no_match");
});

test("a pathological wildcard pattern still answers", () => {
  const aasa = components([{ "/": "/*a*a*a*a*a*a*a*a*b" }]);
  assert.equal(evaluate(aasa, APP, "https://example.com/" + "a".repeat(2000), "example.com"), "no_match");
});

test("parseLinkURL keeps the URL as written", () => {
  assert.deepEqual(parseLinkURL("HTTPS://user@Host.COM:8443/a%2fb?x=%41#F"), {
    scheme: "https", host: "host.com", path: "/a%2fb", query: "x=%41", fragment: "F",
  });
  assert.deepEqual(parseLinkURL("badoo://offer/1"), { scheme: "badoo", host: "offer", path: "/1" });
  assert.equal(parseLinkURL("no scheme"), undefined);
});

test("percentDecode decodes UTF-8 and keeps what it cannot decode", () => {
  assert.equal(percentDecode("caf%C3%A9%20%2F"), "café /");
  assert.equal(percentDecode("%zz%C3"), "%zz%C3");
});

test("the conformance copy is byte-identical to ../shared", (t) => {
  if (!existsSync(upstreamConformanceFile)) {
    t.skip("../shared/conformance/aasa-matching.json is absent (a clone on its own)");
    return;
  }
  assert.ok(readFileSync(conformanceFile).equals(readFileSync(upstreamConformanceFile)),
    "Tests/Conformance/aasa-matching.json differs from ../shared: copy it again");
});
