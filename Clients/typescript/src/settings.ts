// Where `RouteRegistryClient.fromEnv` finds the server and token: the same places, in the same order, as the
// `routereg` CLI (Sources/routereg/CLI/ClientSettings.swift) and the Python client's `from_env`, so a machine
// set up for one works for the others.
import { readFileSync } from "node:fs";

/** The server a client talks to when nothing names one. */
export const DEFAULT_SERVER = "http://127.0.0.1:8080";

const EXPECTED = 'expected {"server": "...", "token": "..."}';

/** `$ROUTEREG_CONFIG`, else `$XDG_CONFIG_HOME/routereg/config.json`, else `$HOME/.config/routereg/config.json`. */
export function configPath(env: Record<string, string | undefined>): string | undefined {
  if (env.ROUTEREG_CONFIG) return env.ROUTEREG_CONFIG;
  if (env.XDG_CONFIG_HOME) return `${env.XDG_CONFIG_HOME}/routereg/config.json`;
  if (env.HOME) return `${env.HOME}/.config/routereg/config.json`;
  return undefined;
}

/** The config file's non-empty `server` and `token`; none when there is no file, an Error when it is malformed. */
export function readConfig(env: Record<string, string | undefined>): { server?: string; token?: string } {
  const path = configPath(env);
  if (path === undefined) return {};
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    // A missing file (or a missing directory on its path) is the usual case: the CLI and Python skip it too.
    const code = (error as { code?: unknown } | undefined)?.code;
    if (code === "ENOENT" || code === "ENOTDIR") return {};
    throw new Error(`config file ${path}: cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
  let content: unknown;
  try {
    content = JSON.parse(text);
  } catch (error) {
    throw new Error(`config file ${path}: ${EXPECTED} (${error instanceof Error ? error.message : String(error)})`);
  }
  if (typeof content !== "object" || content === null || Array.isArray(content)) {
    throw new Error(`config file ${path}: ${EXPECTED}`);
  }
  const fields = content as Record<string, unknown>;
  const settings: { server?: string; token?: string } = {};
  for (const key of ["server", "token"] as const) {
    const value = fields[key];
    if (value !== undefined && value !== null && typeof value !== "string") throw new Error(`config file ${path}: ${EXPECTED}`);
    if (value) settings[key] = value;
  }
  return settings;
}

/** `server` and `token`: the environment first, then the config file, then the default server. */
export function resolveSettings(env: Record<string, string | undefined>): { server: string; token?: string } {
  const file = readConfig(env);
  const token = env.ROUTEREG_TOKEN || file.token;
  return { server: env.ROUTEREG_SERVER || file.server || DEFAULT_SERVER, ...(token ? { token } : {}) };
}
