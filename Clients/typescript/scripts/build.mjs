// Builds the package twice from src/: ES modules with declarations into dist/esm, CommonJS with declarations
// into dist/cjs (marked "type": "commonjs" so Node and TypeScript read those files as CommonJS), so that both
// `import` and `require` get native code. `node scripts/build.mjs [--out DIR]` (default: dist).
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outIndex = process.argv.indexOf("--out");
const out = path.resolve(outIndex > 0 ? process.argv[outIndex + 1] : path.join(packageDir, "dist"));
const tsc = process.env.TSC ?? "tsc";

rmSync(out, { recursive: true, force: true });
for (const [flavor, flags] of [["esm", []], ["cjs", ["--module", "commonjs"]]]) {
  const result = spawnSync(tsc, ["-p", packageDir, "--outDir", path.join(out, flavor), ...flags], { stdio: "inherit" });
  if (result.error) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
}
mkdirSync(path.join(out, "cjs"), { recursive: true });
writeFileSync(path.join(out, "cjs", "package.json"), `${JSON.stringify({ type: "commonjs" }, null, 2)}\n`);
