// Minimal ambient declarations for the few runtime globals this package uses. `@types/node` cannot be
// installed here (no npm registry, no Debian package), and the public API deliberately names none of these
// types, so the emitted .d.ts files stay usable with or without `@types/node` / the DOM library.

declare function setTimeout(callback: () => void, ms?: number): unknown;
declare function clearTimeout(handle: unknown): void;

interface AbortSignal {
  readonly aborted: boolean;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}
declare class AbortController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}

interface FetchResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  text(): Promise<string>;
}
interface FetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}
declare function fetch(url: string, init?: FetchInit): Promise<FetchResponse>;

declare const console: { warn(...args: unknown[]): void; error(...args: unknown[]): void };

declare class TextEncoder {
  encode(input: string): { byteLength: number };
}

// The one Node module the package imports: `fromEnv` reads the CLI's config file.
declare module "node:fs" {
  export function readFileSync(path: string, encoding: "utf8"): string;
}
