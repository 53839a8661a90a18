// The committed dist/ must be exactly what `node scripts/build.mjs` (tsc, once as ES modules and once as
// CommonJS) emits from src/: rebuild into a temporary directory and compare every file both ways.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { packageDir, repoDir } from "./support/paths.mjs";

function listFiles(dir, prefix = "") {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? listFiles(full, path.join(prefix, name)) : [path.join(prefix, name)];
  }).sort();
}

test("dist/ is the current build of src/", () => {
  const out = mkdtempSync(path.join(tmpdir(), "routereg-ts-build-"));
  try {
    const script = path.join(packageDir, "scripts", "build.mjs");
    const result = spawnSync(process.execPath, [script, "--out", out], { encoding: "utf8" });
    assert.equal(result.error, undefined, `running the build: ${result.error}`);
    assert.equal(result.status, 0, `the build failed:\n${result.stdout}${result.stderr}`);
    const dist = path.join(packageDir, "dist");
    const built = listFiles(out);
    for (const file of ["esm/index.js", "esm/index.d.ts", "cjs/index.js", "cjs/index.d.ts", "cjs/package.json"]) {
      assert.ok(built.includes(file), `the build emits ${file}`);
    }
    assert.deepEqual(listFiles(dist), built, "dist/ holds exactly the emitted files (run `npm run build`)");
    for (const file of built) {
      assert.equal(readFileSync(path.join(dist, file), "utf8"), readFileSync(path.join(out, file), "utf8"), `dist/${file} is stale: run \`npm run build\``);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("src/generated/api.ts is current with Schema/registry.openrpc.json (scripts/generate-clients --check)", () => {
  const generator = path.join(repoDir, "scripts", "generate-clients");
  const result = spawnSync("python3", [generator, "--check"], { encoding: "utf8" });
  assert.equal(result.error, undefined, `running ${generator}: ${result.error}`);
  assert.equal(result.status, 0, `${result.stderr}run \`make generate\``);
});
