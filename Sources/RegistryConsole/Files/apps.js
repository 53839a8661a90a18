// Apps, and one app's routes in evaluation order (add, edit, move, remove for releasers and admins).
import { h, fill, table, field, select, heading, time } from "./dom.js";
import { call, listAll } from "./rpc.js";
import { modal, toast } from "./ui.js";
import { patternText, rangeText, PLATFORMS } from "./model.js";

export async function render(main, ctx, [appId]) {
  if (appId) return renderRoutes(main, ctx, appId);
  ctx.apps = await listAll("Apps.List", {}, "apps");
  const rows = ctx.apps.map((app) => h("tr", null,
    h("td", null, h("a", { href: `#/apps/${encodeURIComponent(app.id)}`, class: "strong" }, app.id)),
    h("td", null, app.displayName ?? ""),
    h("td", { class: "mono" }, (app.ios?.appIds ?? []).join(", ")),
    h("td", { class: "mono" }, app.android?.packageName ?? ""),
    // Where the app's scoped admins may add domains (set with routereg app update --hosts).
    h("td", { class: "mono" }, (app.hosts ?? []).join(", ")),
    h("td", { class: "links" },
      h("a", { href: `#/apps/${encodeURIComponent(app.id)}` }, "Routes"),
      h("a", { href: `#/matrix/${encodeURIComponent(app.id)}/ios` }, "Matrix"),
      h("a", { href: `#/publish/${encodeURIComponent(app.id)}` }, "Publish"))));
  fill(main, heading("Apps"),
    rows.length ? table(["App", "Name", "iOS app IDs", "Android package", "Host patterns", ""], rows)
      : h("p", { class: "empty" }, "No apps yet: create one with routereg app create."));
}

async function renderRoutes(main, ctx, appId, shown) {
  ctx.pickApp(appId);
  const [app, routes, domains] = await Promise.all([
    call("Apps.Get", { app: appId }),
    listAll("Routes.List", { app: appId }, "routes"),
    listAll("Domains.List", { app: appId }, "domains"),
  ]);
  // A refresh that changed nothing (a document changed elsewhere) keeps the page as it is.
  const signature = JSON.stringify([app.etag, routes.map((r) => [r.id, r.etag]), domains.map((d) => d.host)]);
  if (signature === shown?.signature) return shown;
  const handle = shown ?? {};
  handle.signature = signature;
  handle.refresh = () => renderRoutes(main, ctx, appId, handle);
  const reload = handle.refresh;
  const write = ctx.canWrite;
  const order = routes.map((r) => r.id);

  const move = async (index, delta) => {
    const next = [...order];
    [next[index], next[index + delta]] = [next[index + delta], next[index]];
    await guarded(() => call("Routes.Reorder", { app: appId, order: next }), `Moved ${order[index]}`);
    reload();
  };
  const remove = async (route) => {
    const done = await modal({
      title: `Remove route ${route.id}?`, confirm: "Remove", danger: true,
      body: h("p", null, `Links matching ${patternText(route.pattern)} will no longer be claimed by this route. `,
        "Documents change at the next publish."),
      submit: () => call("Routes.Delete", { app: appId, route: route.id, etag: route.etag }),
    });
    if (done) { toast(`Removed ${route.id}`); reload(); }
  };

  const rows = routes.map((route, index) => h("tr", { dataset: { route: route.id } },
    h("td", { class: "num" }, String(index + 1)),
    h("td", { class: "strong" }, route.id, route.managedBy ? h("span", {
      class: "pill managed", title: `Managed by a manifest (routereg apply): ${route.managedBy.source ?? "no source named"}, ${route.managedBy.applyTime}. Edits here are undone by its next apply.`,
    }, `manifest ${route.managedBy.source ?? ""}`.trim()) : null),
    h("td", { class: "mono" }, patternText(route.pattern)),
    h("td", null, h("span", { class: `pill ${route.action}` }, route.action)),
    PLATFORMS.map(([p]) => h("td", { class: "nowrap" }, rangeText(route.platforms?.[p]))),
    h("td", null, (route.domains ?? []).length ? route.domains.join(", ") : h("span", { class: "muted" }, "all")),
    h("td", { class: "comment" }, route.comment ?? ""),
    h("td", null, PLATFORMS.flatMap(([p, label]) => (route.switchedOff?.[p] ?? []).map((s) =>
      h("span", { class: "pill switched_off", title: s.reason ?? "" }, `⊘ ${label} ${s.version}`)))),
    write ? h("td", { class: "row-actions" },
      h("button", { type: "button", class: "ghost small", title: "Move up", "aria-label": `Move ${route.id} up`,
        disabled: index === 0, onclick: () => move(index, -1) }, "↑"),
      h("button", { type: "button", class: "ghost small", title: "Move down", "aria-label": `Move ${route.id} down`,
        disabled: index === routes.length - 1, onclick: () => move(index, 1) }, "↓"),
      h("button", { type: "button", class: "ghost small edit", onclick: async () => {
        if (await editRoute(appId, domains, route)) reload();
      } }, "Edit"),
      h("button", { type: "button", class: "ghost small danger", onclick: () => remove(route) }, "Remove")) : null));

  const add = write ? h("button", { type: "button", class: "primary", id: "add-route", onclick: async () => {
    if (await editRoute(appId, domains, null, order)) reload();
  } }, "Add route") : null;
  fill(main,
    heading(`${app.displayName ?? app.id} · routes`, h("a", { class: "button ghost", href: `#/matrix/${encodeURIComponent(appId)}/ios` }, "Matrix"), add),
    h("p", { class: "muted" }, `Evaluated in order: the first route that matches a link decides. Domains: ${domains.map((d) => d.host).join(", ") || "none yet"}.`),
    routes.length ? table(["#", "Route", "Pattern", "Action", "iOS", "Android", "Domains", "Comment", "Switched off", write ? "" : null].filter((x) => x !== null), rows, { class: "grid-table routes", id: "routes" })
      : h("p", { class: "empty" }, "No routes yet."));
  return handle;
}

async function guarded(fn, message) {
  try { await fn(); toast(message); } catch (error) { toast(error.text ?? String(error), "error"); }
}

/** The add/edit dialog; resolves truthy when saved. */
function editRoute(appId, domains, route, order = []) {
  const p = route?.pattern ?? {};
  const input = (name, value, props = {}) => h("input", { name, value: value ?? "", ...props });
  const query = typeof p.query === "string" ? p.query : p.query ? JSON.stringify(p.query) : "";
  const body = h("div", { class: "form-grid" },
    field("Route id", input("id", route?.id, { required: true, pattern: "[a-z][a-z0-9\\-]{0,62}", title: "lower-case letters, digits and -, starting with a letter", readOnly: !!route, placeholder: "lookalikes" })),
    field("Action", select({ name: "action" }, [["open", "open in the app"], ["exclude", "exclude (always web)"]], route?.action ?? "open")),
    field("Path pattern", input("path", p.path, { placeholder: "/l/a/*", class: "mono" }), "* any characters, ? one character"),
    field("Query pattern", input("query", query, { placeholder: "optional", class: "mono" }), "a string, or JSON {\"name\": \"pattern\"}"),
    field("Fragment pattern", input("fragment", p.fragment, { placeholder: "optional", class: "mono" })),
    field("Case-sensitive", h("input", { type: "checkbox", name: "caseSensitive", checked: p.caseSensitive !== false })),
    PLATFORMS.map(([key, label]) => [
      field(`${label} since`, input(`${key}Since`, route?.platforms?.[key]?.since, { placeholder: "e.g. 5.12.0" })),
      field(`${label} until`, input(`${key}Until`, route?.platforms?.[key]?.until, { placeholder: "optional, exclusive" })),
    ]),
    field("Domains", input("domains", (route?.domains ?? []).join(", "), { placeholder: `all: ${domains.map((d) => d.host).join(", ")}` }), "comma-separated; empty: all"),
    !route && order.length ? field("Insert before", select({ name: "before" }, [["", "— last —"], ...order])) : null,
    h("label", { class: "field wide" }, h("span", { class: "label" }, "Comment"),
      h("textarea", { name: "comment", rows: 2, maxLength: 1000, value: route?.comment ?? "" })));
  return modal({
    title: route ? `Edit route ${route.id}` : "Add route", body, confirm: route ? "Save" : "Add route",
    submit: (form) => {
      const v = (name) => form.elements[name]?.value.trim() ?? "";
      const action = v("action");
      let queryValue = v("query") || null;
      if (queryValue?.startsWith("{")) {
        try { queryValue = JSON.parse(queryValue); } catch { throw { text: "Query pattern: not valid JSON" }; }
      }
      const platforms = {};
      if (action === "open") {
        for (const [key] of PLATFORMS) {
          if (v(`${key}Since`)) platforms[key] = { since: v(`${key}Since`), ...(v(`${key}Until`) ? { until: v(`${key}Until`) } : {}) };
        }
      }
      const next = {
        id: v("id"), action, platforms,
        pattern: { path: v("path") || null, query: queryValue, fragment: v("fragment") || null,
          caseSensitive: form.elements.caseSensitive.checked },
        domains: v("domains") ? v("domains").split(/[\s,]+/).filter(Boolean) : [],
        comment: v("comment") || null,
      };
      if (route) return call("Routes.Update", { app: appId, route: next, etag: route.etag });
      return call("Routes.Create", { app: appId, route: next, ...(v("before") ? { before: v("before") } : {}) });
    },
  });
}
