// Publish (or retire) a release: dry run first (Associations.Preview), then the real thing.
import { h, fill, field, select, heading, table, shortTag } from "./dom.js";
import { call, listAll } from "./rpc.js";
import { errorBox, toast } from "./ui.js";
import { PLATFORMS, compareVersions } from "./model.js";
import { diffView, lintView } from "./diff.js";

export async function render(main, ctx, [appId]) {
  appId = appId || ctx.app;
  if (!appId) { fill(main, heading("Publish"), h("p", { class: "empty" }, "No apps yet.")); return {}; }
  ctx.pickApp(appId);
  const releases = await listAll("Releases.List", { app: appId }, "releases");
  const app = select({ name: "app", id: "publish-app", onchange: (e) => ctx.go(`#/publish/${encodeURIComponent(e.target.value)}`) }, ctx.apps.map((a) => a.id), appId);
  const platform = select({ name: "platform", id: "publish-platform" }, PLATFORMS, "ios");
  const action = select({ name: "action", id: "publish-action" }, [["publish", "Publish"], ["retire", "Retire"]], "publish");
  const version = h("input", { name: "version", id: "publish-version", required: true, placeholder: "5.12.0", list: "known-versions", autocomplete: "off" });
  const known = h("datalist", { id: "known-versions" }, releases.map((r) => h("option", { value: r.version }, `${r.platform} ${r.state}`)));
  const output = h("div", { id: "publish-output" });
  const dry = h("button", { type: "submit", class: "primary", id: "dry-run" }, "Dry run");
  const go = h("button", { type: "button", class: "danger", id: "publish", disabled: true }, "Publish");
  let checked = null; // the params the dry run was for

  const params = () => ({ app: appId, platform: platform.value, version: version.value.trim() });
  const same = (a, b) => a && b && a.platform === b.platform && a.version === b.version && a.action === b.action;
  const invalidate = () => {
    go.disabled = !same(checked, { ...params(), action: action.value });
    go.textContent = action.value === "retire" ? "Retire" : "Publish";
  };
  for (const el of [platform, action, version]) el.addEventListener("input", invalidate);

  const form = h("form", { class: "toolbar card", onsubmit: async (event) => {
    event.preventDefault();
    dry.disabled = true;
    try {
      const preview = await call("Associations.Preview", { ...params(), action: action.value });
      checked = { ...params(), action: action.value };
      fill(output, previewView(preview, checked));
    } catch (error) {
      checked = null;
      fill(output, errorBox(error));
    } finally { dry.disabled = false; invalidate(); }
  } },
  field("App", app), field("Platform", platform), field("Action", action), field("Version", version), known,
  ctx.canWrite ? h("div", { class: "buttons" }, dry, go)
    : h("p", { class: "muted", id: "read-only" }, `Your role (${ctx.me.role}) may look but not publish: dry runs and publishes need a releaser or admin token.`));

  go.addEventListener("click", async () => {
    go.disabled = true;
    const p = checked;
    try {
      const result = await call(p.action === "retire" ? "Releases.Retire" : "Releases.Publish", { app: p.app, platform: p.platform, version: p.version });
      toast(`${p.action === "retire" ? "Retired" : "Published"} ${p.app} ${p.platform} ${p.version}`);
      checked = null;
      fill(output, resultView(result));
    } catch (error) {
      fill(output, errorBox(error));
      invalidate();
    }
  });

  const live = releases.filter((r) => r.state === "live").sort((a, b) => compareVersions(b.version, a.version));
  fill(main, heading("Publish a release"),
    h("p", { class: "muted" }, "A dry run shows the rules each domain's document would gain or lose, and lint. Nothing is written until you publish."),
    form, output,
    h("h2", null, "Live versions"),
    live.length ? h("p", { class: "chips" }, live.map((r) => h("span", { class: "pill open" }, `${r.platform} ${r.version}`))) : h("p", { class: "muted" }, "None yet."));
  return {};
}

function previewView(preview, p) {
  const docs = preview.documents ?? [];
  return h("section", { class: "card", id: "preview" },
    h("h2", null, `Dry run: ${p.action} ${p.platform} ${p.version}`),
    docs.length ? docs.map((d) => h("div", { class: "doc-change" },
      h("h3", null, `${d.host} · ${d.kind ?? "aasa"} `, h("span", { class: `pill ${d.changed ? "changed" : "same"}` }, d.changed ? "would change" : "unchanged")),
      d.changed ? diffView(d.diff) : null))
      : h("p", { class: "muted" }, "No domain serves this app: no documents would be generated."),
    lintView(preview.lint));
}

function resultView(result) {
  const rows = (result.revisions ?? []).map((r) => h("tr", null,
    h("td", null, h("a", { href: `#/documents/${encodeURIComponent(r.host)}` }, r.host)), h("td", null, r.kind ?? "aasa"),
    h("td", { class: "num" }, String(r.revision)), h("td", null, r.changed ? "new revision" : "unchanged"),
    h("td", { class: "mono" }, shortTag(r.etag))));
  return h("section", { class: "card", id: "publish-result" },
    h("h2", null, `${result.release.app} ${result.release.platform} ${result.release.version} is ${result.release.state}`),
    rows.length ? table(["Domain", "Kind", "Revision", "Change", "ETag"], rows) : h("p", { class: "muted" }, "No documents were generated."),
    lintView(result.lint));
}
