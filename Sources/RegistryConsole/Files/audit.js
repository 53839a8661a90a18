// The audit log: who changed what, newest first, filtered by app and method, a page at a time.
import { h, fill, select, heading, table, time } from "./dom.js";
import { call } from "./rpc.js";
import { errorBox } from "./ui.js";

const METHODS = ["Apps.Create", "Apps.Update", "Apps.Delete", "Domains.Create", "Domains.Delete", "Routes.Create",
  "Routes.BatchCreate", "Routes.Update", "Routes.Delete", "Routes.Reorder", "Routes.SwitchOff", "Routes.SwitchOn",
  "Releases.Create", "Releases.Publish", "Releases.Retire", "Tokens.Create", "Tokens.Revoke"];
const PAGE = 50;

export async function render(main, ctx) {
  const app = select({ id: "audit-app", "aria-label": "App" }, [["", "All apps"], ...ctx.apps.map((a) => a.id)], "");
  const method = select({ id: "audit-method", "aria-label": "Method" }, [["", "All methods"], ...METHODS], "");
  const out = h("div", { id: "audit" });
  // Each page: where it starts in the server's list (token, and how many entries of that page were shown).
  let starts = [{ token: undefined, skip: 0 }];
  let index = 0;

  /** One page of at most PAGE entries that pass the method filter, reading server pages as needed. */
  const load = async () => {
    const wanted = method.value;
    const entries = [];
    let { token, skip } = starts[index];
    let next = null;
    try {
      while (entries.length < PAGE) {
        const page = await call("Audit.List", { pageSize: 200, ...(app.value ? { resource: `apps/${app.value}` } : {}), ...(token ? { pageToken: token } : {}) });
        const items = page.entries ?? [];
        let i = skip;
        for (; i < items.length && entries.length < PAGE; i++) if (!wanted || items[i].method === wanted) entries.push(items[i]);
        if (i < items.length) { next = { token, skip: i }; break; }
        if (!page.nextPageToken) { next = null; break; }
        token = page.nextPageToken;
        skip = 0;
        next = { token, skip: 0 };
      }
    } catch (error) { fill(out, errorBox(error)); return; }
    starts[index + 1] = entries.length === PAGE ? next : null;
    const rows = entries.map((e) => h("tr", null,
      h("td", null, time(e.at)), h("td", null, e.actor), h("td", null, h("code", null, e.method)),
      h("td", { class: "mono" }, e.resource),
      h("td", null, h("details", null, h("summary", null, summary(e)),
        h("pre", { class: "json small" }, JSON.stringify({ before: e.before ?? null, after: e.after ?? null }, null, 2))))));
    fill(out, entries.length ? table(["When", "Who", "Method", "Resource", "Change"], rows, { class: "grid-table audit" })
      : h("p", { class: "empty" }, "No entries."),
    h("div", { class: "buttons" },
      h("span", { class: "muted small" }, `Page ${index + 1}`),
      h("button", { type: "button", class: "ghost", id: "audit-newer", disabled: index === 0, onclick: () => { index--; load(); } }, "Newer"),
      h("button", { type: "button", class: "ghost", id: "audit-older", disabled: !starts[index + 1], onclick: () => { index++; load(); } }, "Older")));
  };
  const restart = () => { starts = [{ token: undefined, skip: 0 }]; index = 0; load(); };
  app.addEventListener("change", restart);
  method.addEventListener("change", restart);
  fill(main, heading("Audit", app, method), out);
  await load();
  return { refresh: () => { if (index === 0) load(); } };
}

/** One line about the change: a switch-off's reason, a publish's version, or what was created/removed. */
function summary(entry) {
  const after = entry.after ?? {};
  if (entry.method === "Routes.SwitchOff") {
    const offs = Object.entries(after.switchedOff ?? {}).flatMap(([p, list]) => list.map((s) => `${p} ${s.version}${s.reason ? ` — ${s.reason}` : ""}`));
    return offs.length ? `switched off: ${offs.join("; ")}` : "switched off";
  }
  if (entry.before == null && entry.after != null) return "created";
  if (entry.after == null && entry.before != null) return "removed";
  if (after.state) return `state: ${entry.before?.state ?? "—"} → ${after.state}`;
  return "changed";
}
