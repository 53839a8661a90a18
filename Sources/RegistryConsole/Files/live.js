// Live refresh: one Associations.Watch long poll per domain; when a document's etag changes, the page
// reloads its data, so two people looking at one app see the same matrix.
import { call } from "./rpc.js";

const sleep = (ms, signal) => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  signal.addEventListener("abort", () => { clearTimeout(timer); resolve(); });
});

/** Watches hosts (at most 4: each holds a connection); returns a function that stops watching. */
export function watchDomains(hosts, onChange) {
  const stop = new AbortController();
  for (const host of hosts.slice(0, 4)) poll(host, onChange, stop.signal);
  return () => stop.abort();
}

async function poll(host, onChange, signal) {
  let etag = null;
  while (!signal.aborted) {
    try {
      const params = { host, timeoutMs: 25000, ...(etag ? { ifNoneMatch: etag } : {}) };
      const answer = await call("Associations.Watch", params, { signal });
      if (!answer.notModified && etag && answer.etag !== etag) onChange(host, answer.revision);
      etag = answer.etag;
      document.documentElement.dataset.watching = "true"; // for tests: changes from now on are seen
    } catch (error) {
      if (signal.aborted) return;
      // No document yet (NOT_FOUND), or the server is away: look again later.
      await sleep(error.code === 5 ? 10000 : 3000, signal);
    }
  }
}
