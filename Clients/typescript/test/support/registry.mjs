// Starts the real registry (ROUTEREG_BIN) for the suites that drive it: `serve --listen 127.0.0.1:0` on an embedded
// cluster in a temporary directory (or DATABASE_URL when set), with an admin token of its own.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const BIN = process.env.ROUTEREG_BIN;

/** Starts the registry and resolves once it prints `listening on http://HOST:PORT`. */
export async function startRegistry() {
  const adminToken = process.env.ROUTEREG_ADMIN_TOKEN ?? `ts-admin-${randomBytes(12).toString("hex")}`;
  const args = ["serve", "--listen", "127.0.0.1:0", "--no-delivery-watch"];
  let dataDir;
  if (!process.env.DATABASE_URL) {
    dataDir = mkdtempSync(path.join(tmpdir(), "routereg-ts-"));
    // As root the embedded cluster runs as `postgres`, which must reach the data directory (mkdtemp makes 0700).
    chmodSync(dataDir, 0o711);
    args.push("--data-dir", dataDir);
  }
  const child = spawn(BIN, args, {
    env: { ...process.env, ROUTEREG_ADMIN_TOKEN: adminToken },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const listening = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`routereg did not say where it listens within 120 s:\n${output}`)), 120000);
    const scan = (chunk) => {
      output += chunk.toString("utf8");
      const found = /listening on (http:\/\/[^\s/]+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stdout.on("data", scan);
    child.stderr.on("data", (chunk) => (output += chunk.toString("utf8")));
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`routereg exited (${code ?? signal}) before listening:\n${output}`));
    });
  });
  let url;
  try {
    url = await listening;
  } catch (error) {
    child.kill("SIGTERM");
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 30000);
    await exited;
    clearTimeout(timer);
  };
  const cleanup = async () => {
    await stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  return { url, adminToken, stop, cleanup, output: () => output };
}

