// Each domain's generated documents: what Apple's CDN (or Google) serves and how far behind, revisions (cause,
// time), any revision's bytes, the diff between two, and "what decides this URL" (CanOpen.Check with the
// deciding route).
import { h, fill, field, select, heading, table, time, shortTag } from "./dom.js";
import { call, listAll } from "./rpc.js";
import { errorBox } from "./ui.js";
import { PLATFORMS, patternText } from "./model.js";
import { diffView } from "./diff.js";

export async function render(main, ctx, [hostArg, kindArg]) {
  const domains = await listAll("Domains.List", ctx.app ? { app: ctx.app } : {}, "domains");
  const all = domains.length ? domains : await listAll("Domains.List", {}, "domains");
  const host = hostArg || all[0]?.host;
  const kind = kindArg === "assetlinks" ? "assetlinks" : "aasa";
  const checker = decideForm(ctx);
  if (!host) {
    fill(main, heading("Documents"), h("p", { class: "empty" }, "No domains yet."), checker);
    return {};
  }
  const hostPicker = select({ id: "doc-host", "aria-label": "Domain", onchange: (e) => ctx.go(`#/documents/${encodeURIComponent(e.target.value)}/${kind}`) }, all.map((d) => d.host), host);
  const kindPicker = select({ id: "doc-kind", "aria-label": "Kind", onchange: (e) => ctx.go(`#/documents/${encodeURIComponent(host)}/${e.target.value}`) }, [["aasa", "apple-app-site-association"], ["assetlinks", "assetlinks.json"]], kind);
  const delivery = h("p", { id: "doc-delivery", class: "muted" });
  const list = h("div", { id: "revisions" });
  const viewer = h("div", { id: "doc-view" });
  const pages = [undefined];

  const load = async (index = 0) => {
    let page;
    try {
      page = await call("Associations.ListRevisions", { host, kind, pageSize: 20, ...(pages[index] ? { pageToken: pages[index] } : {}) });
    } catch (error) {
      fill(list, error.code === 5 ? h("p", { class: "empty" }, "No revision yet: publish a release of an app on this domain.") : errorBox(error));
      return;
    }
    pages[index + 1] = page.nextPageToken || undefined;
    const revisions = page.revisions ?? [];
    const radios = (name, r, checked) => h("input", { type: "radio", name, value: String(r.revision), checked, "aria-label": `${name} revision ${r.revision}` });
    const rows = revisions.map((r, i) => h("tr", { dataset: { revision: String(r.revision) } },
      h("td", null, radios("from", r, i === 1)), h("td", null, radios("to", r, i === 0)),
      h("td", { class: "num strong" }, String(r.revision)), h("td", null, r.cause ?? ""), h("td", null, time(r.createTime)),
      h("td", { class: "mono" }, shortTag(r.etag)),
      h("td", null, h("button", { type: "button", class: "ghost small view", onclick: () => show(r.revision) }, "View"))));
    const diffButton = h("button", { type: "button", class: "primary", id: "diff", disabled: revisions.length < 2, onclick: () => {
      const pick = (name) => Number(list.querySelector(`input[name=${name}]:checked`)?.value);
      compare(pick("from"), pick("to"));
    } }, "Diff selected");
    fill(list, table(["From", "To", "Revision", "Cause", "When", "ETag", ""], rows),
      h("div", { class: "buttons" }, diffButton,
        h("button", { type: "button", class: "ghost", disabled: index === 0, onclick: () => load(index - 1) }, "Newer"),
        h("button", { type: "button", class: "ghost", disabled: !pages[index + 1], onclick: () => load(index + 1) }, "Older")));
  };
  const show = async (revision) => {
    try {
      const doc = await call("Associations.Get", { host, kind, revision });
      const text = JSON.stringify(doc.document, null, 2);
      const bytes = new TextEncoder().encode(JSON.stringify(doc.document)).length;
      fill(viewer, h("section", { class: "card" },
        h("h2", null, `${host} · revision ${doc.revision}`),
        h("p", { class: "muted" }, `${doc.cause ?? ""} · ${bytes.toLocaleString()} bytes · etag ${shortTag(doc.etag)}`),
        h("pre", { class: "json", id: "doc-bytes" }, text)));
    } catch (error) { fill(viewer, errorBox(error)); }
  };
  const compare = async (from, to) => {
    try {
      const diff = await call("Associations.Diff", { host, kind, fromRevision: from, toRevision: to });
      fill(viewer, h("section", { class: "card", id: "doc-diff" }, h("h2", null, `${host}: revision ${from} → ${to}`), diffView(diff)));
    } catch (error) { fill(viewer, errorBox(error)); }
  };

  fill(main, heading("Documents", hostPicker, kindPicker), delivery, list, viewer, checker);
  await Promise.all([load(), deliveryLine(delivery, host, kind)]);
  return { refresh: () => Promise.all([load(), deliveryLine(delivery, host, kind)]) };
}

/** "What decides this URL": CanOpen.Check for an app version and a URL, with the deciding route. */
function decideForm(ctx) {
  const out = h("div", { id: "decide-output" });
  const app = select({ name: "app" }, ctx.apps.map((a) => a.id), ctx.app);
  const platform = select({ name: "platform" }, PLATFORMS, "ios");
  const version = h("input", { name: "version", required: true, placeholder: "5.11.0" });
  const url = h("input", { name: "url", type: "url", required: true, placeholder: "https://m.badoo.com/l/a/42", class: "mono wide-input" });
  return h("section", { class: "card" }, h("h2", null, "What decides this URL?"),
    h("form", { class: "toolbar", id: "decide", onsubmit: async (event) => {
      event.preventDefault();
      try {
        const params = { app: app.value, platform: platform.value, version: version.value.trim(), url: url.value.trim() };
        const d = await call("CanOpen.Check", params);
        const route = d.route ? await call("Routes.Get", { app: params.app, route: d.route }).catch(() => null) : null;
        fill(out, h("dl", { class: "decision" },
          h("dt", null, "Decision"), h("dd", null, h("span", { class: `pill ${d.decision}` }, d.decision)),
          h("dt", null, "Reason"), h("dd", null, d.reason ?? ""),
          d.route ? [h("dt", null, "Deciding route"), h("dd", null, h("strong", null, d.route), route ? ` ${patternText(route.pattern)} (${route.action})` : "")] : null,
          d.supportedSince ? [h("dt", null, "Supported since"), h("dd", null, d.supportedSince)] : null,
          d.fallbackUrl ? [h("dt", null, "Fallback URL"), h("dd", { class: "mono" }, d.fallbackUrl)] : null));
      } catch (error) { fill(out, errorBox(error)); }
    } }, field("App", app), field("Platform", platform), field("Version", version), field("URL", url),
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary" }, "Check"))), out);
}

/** What the delivery watch last saw at Apple's CDN (Google for assetlinks), from Associations.Delivery. */
async function deliveryLine(el, host, kind) {
  const service = kind === "aasa" ? "Apple's CDN" : "Google";
  let status;
  try {
    status = (await call("Associations.Delivery", { host, kind })).documents?.[0];
  } catch (error) { fill(el, errorBox(error)); return; }
  if (!status) { fill(el); return; }
  if (status.served === "unknown" && !status.lastObservationTime) { fill(el, `${service}: not observed yet`); return; }
  el.dataset.behind = String(status.revisionsBehind ?? "");
  const served = { revision: `revision ${status.servedRevision}`, unpublished: "a file the registry never published",
    none: "nothing (404)", unknown: "nothing known yet" }[status.served] ?? status.served;
  const hours = (s) => s < 3600 ? `${Math.max(1, Math.round(s / 60))} min` : `${Math.round(s / 3600)} h`;
  const lag = status.revisionsBehind === 0 ? "current"
    : status.revisionsBehind > 0 ? `${status.revisionsBehind} behind, pending at ${service} for ${hours(status.secondsBehind ?? 0)}`
    : status.revisionsBehind === -1 ? `none of ours, for ${hours(status.secondsBehind ?? 0)}` : null;
  fill(el, `${service} serves ${served}`, lag ? ` · ${lag}` : "",
    status.lastObservationTime ? [" · checked ", time(status.lastObservationTime), ` (${status.lastOutcome})`] : "");
}
