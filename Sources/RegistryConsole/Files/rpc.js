// The console's only way to the registry: JSON-RPC 2.0 on POST /rpc with the signed-in token as a bearer
// header. The token lives in sessionStorage (gone with the tab), never in a URL or a cookie.

const KEY = "routereg.console.token";

export const session = {
  get token() { return sessionStorage.getItem(KEY); },
  set token(value) {
    if (value) sessionStorage.setItem(KEY, value);
    else sessionStorage.removeItem(KEY);
  },
};

const STATUS = { 3: "INVALID_ARGUMENT", 4: "DEADLINE_EXCEEDED", 5: "NOT_FOUND", 6: "ALREADY_EXISTS",
  7: "PERMISSION_DENIED", 9: "FAILED_PRECONDITION", 10: "ABORTED", 13: "INTERNAL", 14: "UNAVAILABLE",
  16: "UNAUTHENTICATED" };

/** A JSON-RPC error: code (gRPC status number or -326xx), the server's message, and its data. */
export class RPCError extends Error {
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data;
  }
  get status() { return this.data?.status ?? STATUS[this.code] ?? `error ${this.code}`; }
  /** Field violations as "field: description" lines. */
  get violations() {
    return (this.data?.details ?? []).flatMap((d) => d.fieldViolations ?? [d])
      .filter((v) => v && v.field).map((v) => `${v.field}: ${v.description ?? ""}`);
  }
  get text() { return [`${this.status}: ${this.message}`, ...this.violations].join("\n"); }
}

let nextId = 1;
const listeners = new Set();
/** Called with every RPCError (the app signs out on UNAUTHENTICATED). */
export const onError = (fn) => listeners.add(fn);

/** Calls one method and returns its result; throws RPCError. */
export async function call(method, params = {}, { signal } = {}) {
  const headers = { "Content-Type": "application/json" };
  const token = session.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch("/rpc", {
      method: "POST", headers, signal, credentials: "omit", cache: "no-store",
      body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new RPCError(14, "the server cannot be reached");
  }
  const body = await response.json().catch(() => null);
  if (!body) throw new RPCError(13, `HTTP ${response.status} without a JSON-RPC answer`);
  if (body.error) {
    const error = new RPCError(body.error.code, body.error.message, body.error.data);
    listeners.forEach((fn) => fn(error, method));
    throw error;
  }
  return body.result;
}

/** Every item of a paginated list method (key: the result's array field). */
export async function listAll(method, params, key) {
  const items = [];
  let pageToken;
  do {
    const page = await call(method, { ...params, pageSize: 1000, ...(pageToken ? { pageToken } : {}) });
    items.push(...(page[key] ?? []));
    pageToken = page.nextPageToken;
  } while (pageToken);
  return items;
}
