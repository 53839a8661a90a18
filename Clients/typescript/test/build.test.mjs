// The committed dist/ must be exactly what `tsc -p .` emits from src/: recompile to a temporary directory
// and compare every file both ways.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { packageDir } from "./support/paths.mjs";

function listFiles(dir, prefix = "") {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? listFiles(full, path.join(prefix, name)) : [path.join(prefix, name)];
  }).sort();
}

test("dist/ is the current build of src/", () => {
  const out = mkdtempSync(path.join(tmpdir(), "routereg-ts-build-"));
  try {
    const tsc = process.env.TSC ?? "tsc";
    const result = spawnSync(tsc, ["-p", packageDir, "--outDir", out], { encoding: "utf8" });
    assert.equal(result.error, undefined, `running ${tsc}: ${result.error}`);
    assert.equal(result.status, 0, `tsc failed:\n${result.stdout}${result.stderr}`);
    const dist = path.join(packageDir, "dist");
    const built = listFiles(out);
    assert.ok(built.includes("index.js") && built.includes("index.d.ts"), "the build emits JavaScript and declarations");
    assert.deepEqual(listFiles(dist), built, "dist/ holds exactly the emitted files (run `npm run build`)");
    for (const file of built) {
      assert.equal(readFileSync(path.join(dist, file), "utf8"), readFileSync(path.join(out, file), "utf8"), `dist/${file} is stale: run \`npm run build\``);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
