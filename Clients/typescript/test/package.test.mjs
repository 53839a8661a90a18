// The package as users install it: `require` from CommonJS and `import` from ES modules both load native
// code, the `./matcher` subpath resolves for Node and for TypeScript's moduleResolution node (which ignores
// "exports") and node16, and package.json can be published.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { packageDir, repoDir } from "./support/paths.mjs";

const manifest = JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8"));
const AASA = { applinks: { details: [{ appIDs: ["ABCDE12345.com.badoo.Badoo"], components: [{ "/": "/u/*" }] }] } };
const APP = "ABCDE12345.com.badoo.Badoo";

/** A project directory with the package installed (linked) under node_modules. */
function project() {
  const dir = mkdtempSync(path.join(tmpdir(), "routereg-consumer-"));
  mkdirSync(path.join(dir, "node_modules", "@routeregistry"), { recursive: true });
  symlinkSync(packageDir, path.join(dir, "node_modules", "@routeregistry", "client"), "dir");
  return dir;
}

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", timeout: 120000 });
  assert.equal(result.error, undefined, `${command}: ${result.error}`);
  assert.equal(result.status, 0, `${command} ${args.join(" ")} failed:\n${result.stdout}${result.stderr}`);
  return result.stdout.trim();
}

test("require() from CommonJS loads the CommonJS build, matcher subpath included", () => {
  const dir = project();
  try {
    writeFileSync(path.join(dir, "app.cjs"), `
      const registry = require("@routeregistry/client");
      const { evaluate } = require("@routeregistry/client/matcher");
      const { aasaHandler, RouteRegistryClient, RegistryError } = registry;
      console.log(JSON.stringify({
        handler: typeof aasaHandler, client: typeof RouteRegistryClient, error: typeof RegistryError,
        match: evaluate(${JSON.stringify(AASA)}, "${APP}", "https://m.badoo.com/u/1", "m.badoo.com"),
        file: require.resolve("@routeregistry/client"),
      }));`);
    const out = JSON.parse(run(process.execPath, ["app.cjs"], dir));
    assert.deepEqual({ ...out, file: undefined }, { handler: "function", client: "function", error: "function", match: "match", file: undefined });
    assert.match(out.file, /dist[/\\]cjs[/\\]index\.js$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("import from ES modules loads the ES build, matcher subpath included", () => {
  const dir = project();
  try {
    writeFileSync(path.join(dir, "app.mjs"), `
      import { aasaHandler, RouteRegistryClient } from "@routeregistry/client";
      import { evaluate } from "@routeregistry/client/matcher";
      console.log(JSON.stringify({
        handler: typeof aasaHandler, client: typeof RouteRegistryClient,
        match: evaluate(${JSON.stringify(AASA)}, "${APP}", "https://m.badoo.com/x", "m.badoo.com"),
        // The ES build's classes are not the CommonJS build's: this is the ES one.
        esm: (await import("@routeregistry/client/matcher")).evaluate === evaluate,
      }));`);
    const out = JSON.parse(run(process.execPath, ["app.mjs"], dir));
    assert.deepEqual(out, { handler: "function", client: "function", match: "no_match", esm: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

for (const resolution of ["node", "node16"]) {
  test(`TypeScript (module commonjs, moduleResolution ${resolution}) type-checks a consumer of both entry points and runs it`, () => {
    const dir = project();
    try {
      writeFileSync(path.join(dir, "consumer.ts"), `
        import { RouteRegistryClient, aasaHandler, type AASAHandler } from "@routeregistry/client";
        import { evaluate, type MatchOutcome } from "@routeregistry/client/matcher";
        const handler: AASAHandler = aasaHandler({ server: "http://127.0.0.1:1", hosts: ["m.badoo.com"], refresh: false, onError: () => {} });
        handler.close();
        const client = RouteRegistryClient.fromEnv({ server: "http://127.0.0.1:1" });
        const outcome: MatchOutcome = evaluate(${JSON.stringify(AASA)}, "${APP}", "https://m.badoo.com/u/7", "m.badoo.com");
        declare const console: { log(...values: unknown[]): void };
        void client;
        console.log(outcome);
      `);
      writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({
        compilerOptions: {
          module: resolution === "node" ? "commonjs" : "node16", moduleResolution: resolution, target: "ES2020",
          lib: ["ES2020"], types: [], strict: true, outDir: "out", skipLibCheck: false,
        },
        files: ["consumer.ts"],
      }));
      run(process.env.TSC ?? "tsc", ["-p", "."], dir);
      writeFileSync(path.join(dir, "out", "package.json"), JSON.stringify({ type: "commonjs" }));
      assert.equal(run(process.execPath, [path.join("out", "consumer.js")], dir), "match");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test("package.json is publishable: not private, Apache-2.0 with the repository's LICENSE, every entry point exists", () => {
  assert.notEqual(manifest.private, true);
  assert.equal(manifest.license, "Apache-2.0");
  assert.match(readFileSync(path.join(repoDir, "LICENSE"), "utf8"), /Apache License\s+Version 2\.0/);
  assert.match(manifest.scripts.prepack, /LICENSE/, "the LICENSE is copied into the package when it is packed");
  const targets = [manifest.main, manifest.module, manifest.types];
  const walk = (node) => (typeof node === "string" ? targets.push(node) : Object.values(node).forEach(walk));
  walk(manifest.exports);
  for (const target of targets) assert.ok(existsSync(path.join(packageDir, target)), `${target} exists`);
  // What is published is what "files" lists (and package.json): every entry point must be inside it.
  const published = (target) => target === "./package.json" || manifest.files.some((entry) => path.normalize(target).startsWith(`${entry}${path.sep}`));
  for (const target of targets) assert.ok(published(target), `${target} is inside "files", so it is published`);
  for (const entry of manifest.files.filter((f) => f !== "LICENSE")) assert.ok(existsSync(path.join(packageDir, entry)), `${entry} exists`);
  assert.equal(JSON.parse(readFileSync(path.join(packageDir, "dist", "cjs", "package.json"), "utf8")).type, "commonjs");
});
