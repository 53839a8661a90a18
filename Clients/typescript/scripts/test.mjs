// Runs the package's tests with `node --test`. The files named server*.test.mjs drive a real routereg server and
// are included only when ROUTEREG_BIN names the server binary; without it they are not run at all.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const testDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "test");
const files = readdirSync(testDir)
  .filter((name) => name.endsWith(".test.mjs"))
  .filter((name) => !name.startsWith("server") || Boolean(process.env.ROUTEREG_BIN))
  .sort()
  .map((name) => path.join(testDir, name));

const result = spawnSync(process.execPath, ["--test", ...files], { stdio: "inherit" });
process.exit(result.status ?? 1);
