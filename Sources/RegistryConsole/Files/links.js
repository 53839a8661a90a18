// Short links: an app's links (search, pages, copy, disable, delete), a new link with its preview, and one
// link's page: its effective minimum version per platform and why, its previews, and its clicks per day.
//   #/links/{app}                 the list
//   #/links/{app}/new             a new link
//   #/links/{app}/{domain}/{code} one link
import { h, fill, field, select, heading, table, time, copyText } from "./dom.js";
import { call, listAll } from "./rpc.js";
import { errorBox, modal, toast } from "./ui.js";
import { PLATFORMS, compareVersions, platformName } from "./model.js";
import { clickChart } from "./chart.js";
import { qrBox, statsCSV, downloadButton } from "./linkqr.js";
import { webhooksBox } from "./webhooks.js";

const PAGE = 20;

export async function render(main, ctx, [appId, domain, code]) {
  appId = appId || ctx.app;
  if (!appId) { fill(main, heading("Links"), h("p", { class: "empty" }, "No apps yet.")); return {}; }
  ctx.pickApp(appId);
  const app = await loadApp(appId);
  if (domain === "new") return renderNew(main, ctx, app);
  if (domain && code) return renderLink(main, ctx, app, domain, code);
  return renderList(main, ctx, app);
}

/** What every Links page needs about the app: itself, its domains (link domains apart) and its routes. */
async function loadApp(appId) {
  const [app, domains, routes] = await Promise.all([
    call("Apps.Get", { app: appId }),
    listAll("Domains.List", { app: appId }, "domains"),
    listAll("Routes.List", { app: appId }, "routes"),
  ]);
  return {
    id: appId, app, routes, routeById: new Map(routes.map((r) => [r.id, r])),
    linkDomains: domains.filter((d) => d.links).map((d) => d.host),
    ownDomains: domains.filter((d) => !d.links).map((d) => d.host),
    name: app.displayName || app.id,
  };
}

const appPicker = (ctx, app, id) => select({ "aria-label": "App", id, onchange: (e) => ctx.go(`#/links/${encodeURIComponent(e.target.value)}`) },
  ctx.apps.map((a) => a.id), app.id);
const linkHref = (link) => `#/links/${encodeURIComponent(link.app)}/${encodeURIComponent(link.domain)}/${encodeURIComponent(link.code)}`;
/** A disabled link answers 404 until enabled; so does one past its expiry. */
const isDisabled = (link) => link.disabled === true;
const isExpired = (link) => link.expiresAt != null && Date.parse(link.expiresAt) <= Date.now();
const isOff = (link) => isDisabled(link) || isExpired(link);
/** The campaign's fields, as the form shows them. */
const UTM = [["source"], ["medium"], ["campaign"], ["term"], ["content"]];

function statusPill(link) {
  if (isDisabled(link)) return h("span", { class: "pill switched_off link-status", title: "Disabled: answers 404 until enabled" }, "⊘ disabled");
  if (isExpired(link)) return h("span", { class: "pill switched_off link-status", title: `Expired ${link.expiresAt}: answers 404` }, "⊘ expired");
  if (link.expiresAt) return h("span", { class: "pill warning link-status", title: `Answers 404 from ${link.expiresAt}` }, `live · expires ${link.expiresAt.slice(0, 10)}`);
  return h("span", { class: "pill open link-status" }, "✓ live");
}

async function copy(text) {
  if (await copyText(text)) toast(`Copied ${text}`);
  else toast(`Copy failed: select ${text} and copy it by hand`, "error");
}

const copyButton = (link, id) => h("button", { type: "button", class: "ghost small copy", id, title: `Copy ${link.shortUrl}`,
  "aria-label": `Copy ${link.shortUrl}`, onclick: () => copy(link.shortUrl) }, "Copy");

/** Disable or enable through Links.Update (the server's `disabled`; the expiry stays as set); resolves the
 * updated link or null. */
async function toggle(link) {
  const off = isDisabled(link);
  const next = { ...link, disabled: off ? null : true };
  try {
    const updated = await call("Links.Update", { link: next, etag: link.etag });
    toast(`${link.shortUrl} ${off ? "enabled" : "disabled"}`);
    return updated;
  } catch (error) {
    toast(error.text ?? String(error), "error");
    return null;
  }
}

function removeLink(link) {
  return modal({
    title: `Delete ${link.shortUrl}?`, confirm: "Delete", danger: true,
    body: h("p", null, "It answers 404 from now on and its code is never drawn again. To stop it for a while instead, disable it."),
    submit: () => call("Links.Delete", { domain: link.domain, code: link.code, etag: link.etag }),
  });
}

// ---------------------------------------------------------------------------------------------------------
// The list

function renderList(main, ctx, app) {
  const search = h("input", { type: "search", id: "links-search", placeholder: "Search code or target…", "aria-label": "Search links" });
  const tagFilter = h("input", { type: "search", id: "links-tag", placeholder: "Tag", "aria-label": "Only links with this tag", class: "mono", maxLength: 64 });
  const campaignFilter = h("input", { type: "search", id: "links-campaign", placeholder: "Campaign", "aria-label": "Only links of this campaign", maxLength: 200 });
  const out = h("div", { id: "links" });
  let tokens = [undefined];
  let index = 0;
  let seq = 0;

  const load = async () => {
    const mine = ++seq;
    const text = search.value.trim();
    const tag = tagFilter.value.trim();
    const campaign = campaignFilter.value.trim();
    let page;
    try {
      page = await call("Links.List", { app: app.id, pageSize: PAGE, ...(text ? { text } : {}), ...(tag ? { tag } : {}),
        ...(campaign ? { campaign } : {}), ...(tokens[index] ? { pageToken: tokens[index] } : {}) });
    } catch (error) { if (mine === seq) fill(out, errorBox(error)); return; }
    if (mine !== seq) return; // a newer search answered first
    tokens[index + 1] = page.nextPageToken || undefined;
    const links = page.links ?? [];
    const rows = links.map((link) => h("tr", { dataset: { code: link.code, domain: link.domain } },
      h("td", null, h("a", { href: linkHref(link), class: "strong mono code" }, link.code)),
      h("td", { class: "nowrap" }, h("span", { class: "mono short-url" }, link.shortUrl), " ", copyButton(link)),
      h("td", { class: "mono target" }, link.target),
      h("td", { class: "title" }, link.preview?.title ?? ""),
      h("td", { class: "tags" }, ...(link.tags ?? []).map((t) => h("span", { class: "pill tag" }, t)),
        link.utm?.campaign ? h("span", { class: "muted small campaign", title: "utm_campaign" }, ` ${link.utm.campaign}`) : null),
      h("td", null, statusPill(link)),
      h("td", null, time(link.createTime)),
      ctx.canWrite ? h("td", { class: "row-actions" },
        h("button", { type: "button", class: "ghost small toggle", onclick: async () => { if (await toggle(link)) load(); } }, isDisabled(link) ? "Enable" : "Disable"),
        h("button", { type: "button", class: "ghost small danger delete", onclick: async () => {
          if (await removeLink(link)) { toast(`Deleted ${link.shortUrl}`); load(); }
        } }, "Delete")) : null));
    fill(out,
      links.length ? table(["Code", "Short URL", "Target", "Title", "Tags · campaign", "Status", "Created", ctx.canWrite ? "" : null].filter((x) => x !== null), rows, { class: "grid-table links-table", id: "links-table" })
        : h("p", { class: "empty" }, tag || campaign ? "No link matches these filters." : text ? `No link's code or target contains “${text}”.` : "No links yet."),
      h("div", { class: "buttons" },
        h("span", { class: "muted small", id: "links-page" }, `Page ${index + 1}`),
        h("button", { type: "button", class: "ghost", id: "links-newer", disabled: index === 0, onclick: () => { index--; load(); } }, "Newer"),
        h("button", { type: "button", class: "ghost", id: "links-older", disabled: !tokens[index + 1], onclick: () => { index++; load(); } }, "Older")));
    out.dataset.query = text; // what the rows shown answer (tests wait for it)
    out.dataset.filter = `${tag}|${campaign}`;
  };
  let timer = 0;
  for (const field of [search, tagFilter, campaignFilter]) {
    field.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => { tokens = [undefined]; index = 0; load(); }, 250);
    });
  }

  const add = ctx.canWrite && app.linkDomains.length
    ? h("a", { class: "button primary", id: "new-link", href: `#/links/${encodeURIComponent(app.id)}/new` }, "New link") : null;
  fill(main,
    heading(`${app.name} · links`, appPicker(ctx, app, "links-app"), add),
    app.linkDomains.length
      ? h("p", { class: "muted" }, `Short links on ${app.linkDomains.join(", ")}. Disable switches a link off (it answers 404 until enabled again); delete is for good.`)
      : h("p", { class: "empty", id: "no-link-domain" }, `${app.id} has no link domain yet: an admin adds one with routereg domain add HOST --app ${app.id} --links --since ios=VERSION.`),
    h("div", { class: "matrix-bar" }, search, tagFilter, campaignFilter), out,
    ctx.canWrite ? h("section", { class: "card" }, h("h2", null, "Webhooks"), webhooksBox(app)) : null);
  return load().then(() => ({ refresh: () => load(), stop: () => clearTimeout(timer) }));
}

// ---------------------------------------------------------------------------------------------------------
// A new link

/** Routes a link can target: open routes on the app's web domains (not the link domain's own route). */
function targetRoutes(app) {
  return app.routes.filter((r) => r.action === "open" && (!r.pattern?.scheme || r.pattern.scheme === "https") &&
    !((r.domains ?? []).length && r.domains.every((d) => app.linkDomains.includes(d))));
}

/** A URL for a route's path pattern on host: its wildcards left for the person to fill in. */
function targetFor(route, host) {
  const path = (route.pattern?.path ?? "/").replace(/[*?]/g, "");
  return `https://${host}${path.startsWith("/") ? path : `/${path}`}`;
}

function renderNew(main, ctx, app) {
  if (!ctx.canWrite) {
    fill(main, heading("New link"), h("p", { class: "empty" }, `Your role (${ctx.me.role}) may look at links but not create them.`));
    return {};
  }
  if (!app.linkDomains.length) {
    fill(main, heading("New link"), h("p", { class: "empty", id: "no-link-domain" }, `${app.id} has no link domain yet.`));
    return {};
  }
  const routes = targetRoutes(app);
  const input = (name, props = {}) => h("input", { name, id: `link-${name}`, autocomplete: "off", ...props });
  const domain = select({ name: "domain", id: "link-domain" }, app.linkDomains, app.linkDomains[0]);
  const code = input("code", { placeholder: "empty: 7 random characters", class: "mono", maxLength: 64 });
  const routePick = select({ name: "route", id: "link-route", "aria-label": "Screen (route)" },
    [["", "— pick a route —"], ...routes.map((r) => [r.id, `${r.id} — ${r.pattern?.path ?? "*"}`])], "");
  const hostPick = select({ name: "host", id: "link-host", "aria-label": "Host" }, app.ownDomains, app.ownDomains[0]);
  const target = input("target", { required: true, class: "mono", placeholder: `https://${app.ownDomains[0] ?? "example.com"}/…`, maxLength: 2048 });
  const decided = h("p", { class: "hint decided", id: "target-decided", "aria-live": "polite" }, "Pick a route, or type the target URL.");
  const title = input("title", { maxLength: 300, placeholder: `empty: ${app.name}` });
  const description = h("textarea", { name: "description", id: "link-description", rows: 2, maxLength: 1000 });
  const image = input("image", { class: "mono", placeholder: "https://…/card.png", maxLength: 2048 });
  const desktop = input("desktop", { class: "mono", placeholder: "empty: the target", maxLength: 2048 });
  const mins = Object.fromEntries(PLATFORMS.map(([p]) => [p, input(`${p}Min`, { placeholder: "empty: the route's since", pattern: "[0-9]+(\\.[0-9]+){0,3}", title: "a version like 5.12.0" })]));
  const fallbacks = Object.fromEntries(PLATFORMS.map(([p]) => [p, input(`${p}Fallback`, { class: "mono", placeholder: "empty: the target on the web", maxLength: 2048 })]));
  const expires = input("expires", { type: "datetime-local" });
  const maxClicks = input("maxClicks", { type: "number", min: 1, max: 1000000000, placeholder: "empty: no limit" });
  const skip = h("input", { type: "checkbox", name: "skipLanding", id: "link-skipLanding" });
  const utm = Object.fromEntries(UTM.map(([k]) => [k, input(`utm-${k}`, { maxLength: 200, placeholder: `utm_${k}` })]));
  const tags = input("tags", { class: "mono", placeholder: "promo, q3", title: "letters, digits and _ - . : separated by commas" });
  const problem = h("div", { id: "create-error" });
  const submit = h("button", { type: "submit", class: "primary", id: "create-link" }, "Create link");
  const preview = h("div", { class: "link-previews", id: "link-preview" });
  const landingPlatform = select({ id: "landing-platform", "aria-label": "Landing page for" }, PLATFORMS, "ios");

  const hostsFor = (route) => {
    const limited = (route?.domains ?? []).filter((d) => app.ownDomains.includes(d));
    return limited.length ? limited : app.ownDomains;
  };
  routePick.addEventListener("change", () => {
    const route = app.routeById.get(routePick.value);
    if (!route) return;
    const hosts = hostsFor(route);
    fill(hostPick, hosts.map((host) => h("option", { value: host }, host)));
    target.value = targetFor(route, hosts[0]);
    target.focus();
    target.setSelectionRange(target.value.length, target.value.length);
    changed();
  });
  hostPick.addEventListener("change", () => {
    const route = app.routeById.get(routePick.value);
    if (route) { target.value = targetFor(route, hostPick.value); changed(); }
  });

  /** The link as the form has it, as Links.Create takes it. */
  const value = () => {
    const v = (el) => el.value.trim() || null;
    const link = { domain: domain.value, target: target.value.trim() };
    if (v(code)) link.code = v(code);
    if (v(desktop)) link.desktopUrl = v(desktop);
    if (v(title) || v(description) || v(image)) link.preview = { title: v(title), description: v(description), imageUrl: v(image) };
    for (const [p] of PLATFORMS) {
      if (v(mins[p]) || v(fallbacks[p])) link[p] = { minVersion: v(mins[p]), fallbackUrl: v(fallbacks[p]) };
    }
    if (expires.value) link.expiresAt = new Date(expires.value).toISOString();
    if (maxClicks.value) link.maxClicks = Number(maxClicks.value);
    if (skip.checked) link.skipLanding = true;
    const campaign = Object.fromEntries(UTM.map(([k]) => [k, v(utm[k])]).filter(([, x]) => x));
    if (Object.keys(campaign).length) link.utm = campaign;
    const tagList = tags.value.split(",").map((t) => t.trim()).filter(Boolean);
    if (tagList.length) link.tags = tagList;
    return link;
  };

  let decideSeq = 0, timer = 0;
  const changed = () => {
    const link = value();
    fill(preview, previews(app, link, landingPlatform));
    clearTimeout(timer);
    timer = setTimeout(() => explainTarget(link), 300);
  };
  /** Which route decides the target, and the minimum version the link would have on each platform. */
  const explainTarget = async (link) => {
    const mine = ++decideSeq;
    if (!/^https:\/\//i.test(link.target)) { fill(decided, "Pick a route, or type the target URL (https://…)."); return; }
    let answers;
    try {
      answers = await Promise.all(PLATFORMS.map(([p]) => call("CanOpen.Check", { app: app.id, platform: p, version: "0", url: link.target })));
    } catch (error) { if (mine === decideSeq) fill(decided, error.text ?? String(error)); return; }
    if (mine !== decideSeq) return;
    const routeId = answers.find((a) => a.route)?.route;
    if (!routeId) { fill(decided, "No route matches this target: every version opens it in the browser."); return; }
    const route = app.routeById.get(routeId);
    decided.dataset.route = routeId;
    fill(decided, "Decided by route ", h("strong", null, routeId), route?.action === "exclude" ? " (exclude: always the browser)" : "", ". Minimum: ",
      PLATFORMS.map(([p, label], i) => {
        const m = effectiveMinimum(route?.platforms?.[p]?.since ?? null, link[p]?.minVersion ?? null);
        return [i ? " · " : "", `${label} ${m.version ?? "none"}`, m.version ? ` (${m.source === "link" ? "the link's own" : "route since"})` : ""];
      }));
  };

  const form = h("form", { class: "card link-form", id: "link-form", onsubmit: async (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    submit.disabled = true;
    problem.replaceChildren();
    try {
      const created = await call("Links.Create", { app: app.id, link: value(), requestId: crypto.randomUUID() });
      toast(`Created ${created.shortUrl}`);
      ctx.go(linkHref(created));
    } catch (error) {
      fill(problem, errorBox(error));
    } finally { submit.disabled = false; }
  } },
  h("div", { class: "form-grid" },
    field("Link domain", domain), field("Code", code, "A-Z a-z 0-9 _ -, up to 64"),
    field("Screen (route)", routePick, "fills the target from the route's pattern"), field("Host", hostPick),
    h("div", { class: "field wide" }, h("label", { class: "label", for: "link-target" }, "Target (the deep link)"), target, decided),
    field("Title", title), field("Image URL", image, "https; shown by chat apps, not loaded by the console"),
    h("label", { class: "field wide" }, h("span", { class: "label" }, "Description"), description),
    field("Desktop URL", desktop, "where desktop browsers go"), field("Expires", expires, "it answers 404 after"),
    field("Max clicks", maxClicks, "it answers 404 once people clicked it this often; bots do not count"),
    PLATFORMS.map(([p, label]) => [
      field(`${label} minimum version`, mins[p], "later than the route's since, or ignored"),
      field(`${label} fallback URL`, fallbacks[p], "the landing page's web button"),
    ]),
    field("Skip the landing page", skip, "phones go straight to the target"),
    UTM.map(([k]) => field(`Campaign ${k}`, utm[k], `utm_${k}: added to the web and store destinations`)),
    field("Tags", tags, "comma-separated; the list filters by one")),
  problem, h("div", { class: "buttons" }, submit,
    h("a", { class: "button ghost", href: `#/links/${encodeURIComponent(app.id)}` }, "Cancel")));
  form.addEventListener("input", changed);
  landingPlatform.addEventListener("change", changed);

  fill(main, heading(`New link · ${app.name}`, appPicker(ctx, app, "links-app")),
    h("div", { class: "link-new" }, form,
      h("section", { class: "card preview-pane" }, h("div", { class: "page-head" }, h("h2", null, "Preview"), landingPlatform), preview)));
  changed();
  return { stop: () => clearTimeout(timer) };
}

/** The later of the route's since and the link's own minimum, and which one it is (as Links.Resolve says). */
function effectiveMinimum(since, own) {
  if (own && (!since || compareVersions(own, since) > 0)) return { version: own, source: "link" };
  return since ? { version: since, source: "route" } : { version: null, source: null };
}

// ---------------------------------------------------------------------------------------------------------
// Previews: the social card a chat app shows, and the landing page a phone gets (LinkPage.swift's texts).

function previews(app, link, platformPicker) {
  const shortUrl = link.shortUrl ?? `https://${link.domain}/${link.code || "…"}`;
  const title = link.preview?.title || app.name;
  const description = link.preview?.description || null;
  const imageUrl = link.preview?.imageUrl || null;
  const platform = platformPicker?.value ?? "ios";
  const image = (cls) => imageUrl
    ? h("div", { class: `image-slot ${cls}`, title: imageUrl }, h("span", null, "image"), h("span", { class: "mono image-url" }, imageUrl))
    : null;
  const store = platform === "ios" ? (app.app.ios?.appStoreId ? "App Store" : null) : (app.app.android?.packageName ? "Google Play" : null);
  const web = link[platform]?.fallbackUrl || link.target;
  const card = h("div", { class: "social-card", id: "card-preview" },
    image("card-image"),
    h("div", { class: "card-text" },
      h("div", { class: "card-site" }, `${link.domain ?? ""} · ${app.name}`),
      h("div", { class: "card-title" }, title),
      description ? h("div", { class: "card-description" }, description) : null));
  const button = (label, url, primary) => h("div", { class: `landing-button${primary ? " primary" : ""}`, title: url ?? "" },
    h("span", null, label), url ? h("span", { class: "mono landing-url" }, url) : null);
  const landing = h("div", { class: "phone", id: "landing-preview", dataset: { platform } },
    h("div", { class: "phone-bar mono" }, shortUrl),
    h("div", { class: "landing" },
      link.skipLanding ? h("p", { class: "muted small" }, `Skipped: ${platformName(platform)} goes straight to the target (unless it comes back from a fallback).`) : null,
      image("landing-image"),
      link.preview?.title ? h("p", { class: "landing-app" }, app.name) : null,
      h("h3", { class: "landing-title" }, title),
      description ? h("p", { class: "landing-description" }, description) : null,
      button(`Open in ${app.name}`, link.target, true),
      store ? button(`Get ${app.name}`, `${store}, ${platform === "ios" ? "campaign " : "referrer link="}${link.domain}/${link.code || "…"}`) : null,
      button("Continue on the web", link[platform]?.fallbackUrl ? web : `${web} (with the fallback marker)`)));
  return [
    h("div", null, h("h3", null, "Social card"), h("p", { class: "hint" }, "What chat apps and social networks show (Open Graph tags)."), card),
    h("div", null, h("h3", null, `Landing page on ${platformName(platform)}`), h("p", { class: "hint" }, "What a phone without the app gets (desktops: a redirect to the desktop URL or the target)."), landing),
  ];
}

// ---------------------------------------------------------------------------------------------------------
// One link

async function renderLink(main, ctx, app, domain, code) {
  let link = await call("Links.Get", { domain, code });
  const live = await listAll("Releases.List", { app: app.id, state: "live" }, "releases");
  const newest = Object.fromEntries(PLATFORMS.map(([p]) => [p, live.filter((r) => r.platform === p)
    .map((r) => r.version).sort(compareVersions).pop() ?? null]));
  const minimums = h("div", { id: "link-minimums" }, h("p", { class: "muted" }, "Resolving…"));
  const chartBox = h("div", { id: "link-clicks" }, h("p", { class: "muted" }, "Counting…"));
  const facts = h("dl", { class: "decision link-facts", id: "link-facts" });
  const previewBox = h("div", { class: "link-previews", id: "link-preview" });
  const landingPlatform = select({ id: "landing-platform", "aria-label": "Landing page for" }, PLATFORMS, "ios");
  const days = select({ id: "clicks-days", "aria-label": "Days" }, [["14", "14 days"], ["30", "30 days"], ["90", "90 days"]], "14");
  const actions = h("div", { class: "actions" });
  const qrCard = h("div", { id: "link-qr-card" });
  let lastCounts = [];

  const showLink = () => {
    const row = (term, ...value) => [h("dt", null, term), h("dd", null, value)];
    fill(facts,
      row("Short URL", h("span", { class: "mono", id: "link-short-url" }, link.shortUrl), " ", copyButton(link, "copy-link")),
      row("Status", statusPill(link)),
      row("Target", h("span", { class: "mono", id: "link-target" }, link.target)),
      row("Desktop URL", h("span", { class: "mono", id: "link-desktop" }, link.desktopUrl ?? "— (the target)")),
      PLATFORMS.map(([p, label]) => link[p]?.fallbackUrl ? row(`${label} fallback`, h("span", { class: "mono" }, link[p].fallbackUrl)) : null),
      row("Skip landing", link.skipLanding ? "yes: phones go straight to the target" : "no"),
      link.maxClicks ? row("Stops after", h("span", { id: "link-max-clicks" }, `${link.maxClicks} clicks by people`)) : null,
      link.utm ? row("Campaign", h("span", { class: "mono", id: "link-utm" }, Object.entries(link.utm).map(([k, v]) => `utm_${k}=${v}`).join(" "))) : null,
      link.tags?.length ? row("Tags", h("span", { id: "link-tags" }, ...link.tags.map((t) => h("span", { class: "pill tag" }, t)))) : null,
      row("Created", time(link.createTime), ` by ${link.createdBy ?? "?"}`),
      link.updateTime && link.updateTime !== link.createTime ? row("Updated", time(link.updateTime)) : null);
    fill(previewBox, previews(app, link, landingPlatform));
    fill(actions, ctx.canWrite ? [
      h("button", { type: "button", class: "ghost", id: "link-toggle", onclick: async () => {
        const updated = await toggle(link);
        if (updated) { link = updated; showLink(); explain(); }
      } }, isDisabled(link) ? "Enable" : "Disable"),
      h("button", { type: "button", class: "ghost danger", id: "link-delete", onclick: async () => {
        if (await removeLink(link)) { toast(`Deleted ${link.shortUrl}`); ctx.go(`#/links/${encodeURIComponent(app.id)}`); }
      } }, "Delete")] : null,
    h("a", { class: "button ghost", href: `#/links/${encodeURIComponent(app.id)}` }, "All links"));
  };
  const explain = async () => {
    try { fill(minimums, minimumView(await minimumRows(app, link, newest), link)); } catch (error) { fill(minimums, errorBox(error)); }
  };
  const loadClicks = async () => {
    try {
      const stats = await call("Links.Stats", { domain: link.domain, code: link.code });
      const open = chartBox.querySelector("details")?.open; // a refresh keeps the table open
      lastCounts = stats.counts;
      const split = stats.bots == null ? "" : `: ${stats.people} by people, ${stats.bots} by bots`;
      fill(chartBox, h("p", { class: "muted", id: "clicks-total" }, `${stats.total} click${stats.total === 1 ? "" : "s"} in all${split}`),
        clickChart(stats.counts, { days: Number(days.value) }));
      if (open) chartBox.querySelector("details").open = true;
      chartBox.dataset.total = String(stats.total);
    } catch (error) { fill(chartBox, errorBox(error)); }
  };
  landingPlatform.addEventListener("change", () => fill(previewBox, previews(app, link, landingPlatform)));
  days.addEventListener("change", loadClicks);

  showLink();
  fill(main,
    h("div", { class: "page-head" }, h("h1", null, h("span", { class: "mono", id: "link-code" }, link.code), h("span", { class: "muted" }, ` · ${link.domain}`)), actions),
    h("section", { class: "card" }, facts),
    h("section", { class: "card" }, h("h2", null, "Minimum version, per platform"), minimums),
    h("section", { class: "card" }, h("div", { class: "page-head" }, h("h2", null, "Clicks per day"),
      h("div", { class: "actions" }, days, h("button", { type: "button", class: "ghost", id: "clicks-refresh", onclick: loadClicks }, "Refresh"),
        downloadButton("Download CSV", `${link.code}-clicks.csv`, "text/csv", () => statsCSV(lastCounts), "clicks-csv"))), chartBox),
    h("section", { class: "card" }, h("h2", null, "QR code"), qrCard),
    h("section", { class: "card" }, h("div", { class: "page-head" }, h("h2", null, "Preview"), landingPlatform), previewBox));
  await Promise.all([explain(), loadClicks(), qrBox(link).then((box) => fill(qrCard, box))]);
  const poll = setInterval(loadClicks, 10000); // clicks are counted in memory and readable at once
  return { stop: () => clearInterval(poll) };
}

/**
 * Per platform: the effective minimum version and why. Links.Resolve is the authority (what apps are told);
 * a disabled or expired link does not resolve, so for it the same rule is applied here to CanOpen.Check's
 * deciding route. The short URL's own route (the link domain's) is asked too: below its since, the app does
 * not open the short link at all and the landing page shows.
 */
async function minimumRows(app, link, newest) {
  return Promise.all(PLATFORMS.map(async ([platform]) => {
    const version = newest[platform] ?? "0";
    const own = link[platform]?.minVersion ?? null;
    const [resolved, shortRoute] = await Promise.all([
      isOff(link) ? null : call("Links.Resolve", { url: link.shortUrl, platform, version }).catch((error) => (error.code === 5 ? null : Promise.reject(error))),
      call("CanOpen.Check", { app: app.id, platform, version: "0", url: link.shortUrl }),
    ]);
    let route, minimum, source, decision;
    if (resolved) {
      ({ route, minVersion: minimum, minVersionSource: source, decision } = resolved);
    } else {
      decision = await call("CanOpen.Check", { app: app.id, platform, version, url: link.target });
      route = decision.route ?? null;
      ({ version: minimum, source } = effectiveMinimum(app.routeById.get(route)?.platforms?.[platform]?.since ?? null, own));
    }
    const since = app.routeById.get(route)?.platforms?.[platform]?.since ?? null;
    return { platform, version: newest[platform], own, route, since, minimum, source, decision, resolved: !!resolved,
      shortRoute: shortRoute.route ?? null, shortSince: app.routeById.get(shortRoute.route)?.platforms?.[platform]?.since ?? null };
  }));
}

/** Why the minimum is what it is, in words. */
export function minimumReason(r) {
  const name = platformName(r.platform);
  if (!r.minimum) {
    const d = r.decision ?? {};
    if (d.decision === "not_associated") return `No ${name} version opens it: the app has no ${name} side for this target's host.`;
    if (d.reason === "excluded") return `No ${name} version opens it in the app: route ${r.route} excludes it (always the browser).`;
    if (!r.route) return `No ${name} version opens it in the app: no route matches the target.`;
    return `No ${name} version opens it in the app: route ${r.route} has no ${name} range.`;
  }
  if (r.source === "link") {
    return r.since
      ? `The link's own minimum (${r.own ?? r.minimum}), later than route ${r.route}'s since (${r.since}).`
      : `The link's own minimum (${r.own ?? r.minimum}); route ${r.route ?? "—"} sets no ${name} since.`;
  }
  return `Route ${r.route}'s since (${r.since ?? r.minimum})` +
    (r.own ? `; the link's own minimum (${r.own}) is not later.` : "; the link sets no minimum of its own.");
}

function decisionText(r) {
  if (!r.version) return `No live ${platformName(r.platform)} version yet.`;
  const d = r.decision ?? {};
  const what = d.decision === "open_in_app" ? "opens in the app"
    : d.decision === "not_associated" ? "not associated" : "falls back to the browser";
  const why = d.reason && d.reason !== "route" ? ` (${d.reason.replace(/_/g, " ")}${d.supportedSince ? `, supported since ${d.supportedSince}` : ""})` : "";
  return `${platformName(r.platform)} ${r.version}, the newest live: ${what}${why}.`;
}

function minimumView(rows, link) {
  const body = rows.map((r) => h("tr", { dataset: { platform: r.platform, source: r.source ?? "none", minimum: r.minimum ?? "" } },
    h("th", { scope: "row" }, platformName(r.platform)),
    h("td", { class: "strong minimum" }, r.minimum ?? "—"),
    h("td", null, h("span", { class: `pill ${r.source === "link" ? "warning" : r.source ? "open" : "same"} source` },
      r.source === "link" ? "link override" : r.source === "route" ? `route ${r.route}` : "none")),
    h("td", { class: "why" }, minimumReason(r)),
    h("td", { class: "newest" }, decisionText(r))));
  const notes = rows.map((r) => h("li", { dataset: { platform: r.platform } },
    r.shortRoute && r.shortSince
      ? `${platformName(r.platform)}: the app opens ${link.shortUrl} itself from ${r.shortSince} (route ${r.shortRoute}); older versions get the landing page, whose first button opens the target.`
      : `${platformName(r.platform)}: no route claims the short URL, so every version gets the landing page, whose first button opens the target.`));
  return [
    table(["Platform", "Minimum", "From", "Why", "Today"], body, { class: "grid-table minimums", id: "minimums" }),
    isOff(link) ? h("p", { class: "muted small" }, "Off (disabled or expired): Links.Resolve answers NOT_FOUND, so this is worked out from the route deciding the target.") : null,
    h("ul", { class: "muted small short-route" }, notes),
  ];
}
