// Routes × live versions: the CLI's marks, the reason of every cell on hover or focus, and the kill switch.
// Rows are virtualized (only the visible ones exist), so 1,000 routes × 50 versions draws as fast as 20.
// A route that short links open carries their count, found after the matrix is drawn (it never delays it).
import { h, fill, field, select, heading } from "./dom.js";
import { call, listAll } from "./rpc.js";
import { modal, toast } from "./ui.js";
import { MARKS, PLATFORMS, cellReason, patternText, platformName, rangeText } from "./model.js";

const ROW = 34; // px, one route row (matches .mrow in console.css)
const OVERSCAN = 6;
const MAX_LINKS = 5000; // links read for the marks

export async function render(main, ctx, [appId, platformArg]) {
  appId = appId || ctx.app;
  if (!appId) {
    fill(main, heading("Matrix"), h("p", { class: "empty" }, "No apps yet."));
    return {};
  }
  ctx.pickApp(appId);
  const platform = platformArg === "android" ? "android" : "ios";
  const view = new MatrixView(ctx, appId, platform);
  fill(main, view.frame);
  await view.load();
  return { refresh: () => view.load(), stop: () => view.stop() };
}

class MatrixView {
  constructor(ctx, app, platform) {
    Object.assign(this, { ctx, app, platform, rows: [], shown: [], versions: [], routes: new Map(), first: -1,
      linksByRoute: new Map(), routeOfTarget: new Map() });
    this.filter = h("input", { type: "search", id: "matrix-filter", placeholder: "Filter routes…", "aria-label": "Filter routes",
      oninput: () => this.applyFilter() });
    this.detail = h("div", { class: "cell-detail", id: "cell-detail", "aria-live": "polite" },
      "Hover or focus a cell to see why it is what it is.");
    this.stats = h("span", { class: "muted small", id: "matrix-stats" });
    this.head = h("div", { class: "mhead", role: "row" });
    this.body = h("div", { class: "mbody", role: "rowgroup" });
    this.spacer = h("div", { class: "mspacer" }, this.body);
    this.scroller = h("div", { class: "matrix", id: "matrix", role: "grid", "aria-label": `Routes × live ${platformName(platform)} versions`, tabIndex: -1 },
      this.head, this.spacer);
    this.scroller.addEventListener("scroll", () => this.schedule(), { passive: true });
    this.scroller.addEventListener("mouseover", (e) => this.explain(e.target));
    this.scroller.addEventListener("focusin", (e) => this.explain(e.target));
    this.scroller.addEventListener("click", (e) => this.act(e.target));
    this.scroller.addEventListener("keydown", (e) => this.keys(e));
    this.onResize = () => this.schedule();
    window.addEventListener("resize", this.onResize);
    const appPicker = select({ "aria-label": "App", id: "matrix-app", onchange: (e) => ctx.go(`#/matrix/${encodeURIComponent(e.target.value)}/${platform}`) },
      ctx.apps.map((a) => a.id), app);
    const platformPicker = h("div", { class: "segmented", role: "tablist" }, PLATFORMS.map(([p, label]) =>
      h("a", { href: `#/matrix/${encodeURIComponent(app)}/${p}`, role: "tab", "aria-selected": String(p === platform), class: p === platform ? "on" : "" }, label)));
    const legend = h("ul", { class: "legend", "aria-label": "Legend" }, Object.entries(MARKS).map(([state, m]) =>
      h("li", null, h("span", { class: `mark ${state}` }, m.mark), m.label)),
      h("li", null, h("span", { class: "link-mark" }, "⛓ n"), "n short links open the route"));
    this.frame = h("section", { class: "matrix-page" },
      heading("Matrix", appPicker, platformPicker),
      h("div", { class: "matrix-bar" }, this.filter, legend),
      this.scroller, this.detail, h("p", { class: "matrix-foot" }, this.stats));
  }

  stop() { window.removeEventListener("resize", this.onResize); }

  async load() {
    const started = performance.now();
    const [matrix, routes] = await Promise.all([
      call("Matrix.Get", { app: this.app, platform: this.platform }),
      listAll("Routes.List", { app: this.app }, "routes"),
    ]);
    const fetched = performance.now();
    // A refresh that changed nothing (our own write, then its Watch echo) keeps the rows and the focus.
    const signature = JSON.stringify([matrix.versions, matrix.routes, routes.map((r) => r.etag)]);
    if (signature === this.signature) return;
    this.signature = signature;
    this.routes = new Map(routes.map((r) => [r.id, r]));
    this.versions = matrix.versions ?? [];
    this.rows = matrix.routes ?? [];
    this.drawHead();
    this.applyFilter();
    this.scroller.getBoundingClientRect(); // lay out now, so the time below includes it
    const drawn = performance.now();
    this.scroller.dataset.renderMs = (drawn - fetched).toFixed(1);
    this.scroller.dataset.fetchMs = (fetched - started).toFixed(1);
    this.scroller.dataset.ready = "true";
    this.stats.textContent = `${this.rows.length} routes × ${this.versions.length} live versions · drawn in ${Math.round(drawn - fetched)} ms`;
    this.loadLinks(signature);
    if (this.platform === "ios") this.markPending().catch(() => {});
  }

  /**
   * Counts the app's short links per deciding route. Links.List does not say which route decides a link, so
   * each distinct target is asked once (CanOpen.Check, any version: the route that matches decides, whatever
   * the version), remembered until the routes change, at most MAX_LINKS links and 6 questions at a time.
   */
  async loadLinks(signature) {
    const routesKey = JSON.stringify([...this.routes.values()].map((r) => [r.id, r.etag]));
    if (routesKey !== this.routesKey) { this.routeOfTarget = new Map(); this.routesKey = routesKey; }
    const links = [];
    try {
      let pageToken;
      do {
        const page = await call("Links.List", { app: this.app, pageSize: 1000, ...(pageToken ? { pageToken } : {}) });
        links.push(...(page.links ?? []));
        pageToken = page.nextPageToken;
      } while (pageToken && links.length < MAX_LINKS);
      const targets = [...new Set(links.map((l) => l.target))].filter((t) => !this.routeOfTarget.has(t));
      const ask = async () => {
        for (let target = targets.pop(); target; target = targets.pop()) {
          const answer = await call("CanOpen.Check", { app: this.app, platform: this.platform, version: "0", url: target });
          this.routeOfTarget.set(target, answer.route ?? null);
        }
      };
      await Promise.all(Array.from({ length: 6 }, ask));
    } catch { return; } // the marks are a hint: without them the matrix is still right
    if (signature !== this.signature) return;
    const counts = new Map();
    for (const link of links) {
      const route = this.routeOfTarget.get(link.target);
      if (route) counts.set(route, (counts.get(route) ?? 0) + 1);
    }
    this.linksByRoute = counts;
    this.scroller.dataset.links = String(links.length);
    this.draw(true);
  }

  /** ✓ cells whose route the current AASA claims but Apple's CDN copy does not yet (the server says which). */
  async markPending() {
    const pending = new Map();
    for (const { host } of await listAll("Domains.List", { app: this.app }, "domains")) {
      const status = (await call("Associations.Delivery", { host, kind: "aasa" })).documents?.[0];
      if (!status || status.revisionsBehind == null || status.revisionsBehind === 0) continue;
      const claims = status.claimedRoutes?.find((c) => c.app === this.app);
      for (const route of claims?.pending ?? []) {
        if (!pending.has(route)) pending.set(route, { host, seconds: status.secondsBehind ?? 0 });
      }
    }
    const changed = JSON.stringify([...pending.keys()].sort()) !== JSON.stringify([...(this.cdnPending?.keys() ?? [])].sort());
    this.cdnPending = pending;
    this.scroller.dataset.pending = String(pending.size);
    if (changed) this.draw(true); // only then: a redraw replaces the cells someone may be pointing at
  }

  columns() {
    this.scroller.style.setProperty("--versions", String(this.versions.length));
  }

  drawHead() {
    this.columns();
    fill(this.head,
      h("div", { class: "mcell rh", role: "columnheader" }, "Route"),
      h("div", { class: "mcell ph", role: "columnheader" }, "Pattern"),
      this.versions.map((v) => h("div", { class: "mcell vh", role: "columnheader", title: `${platformName(this.platform)} ${v}` }, v)));
    if (!this.versions.length) {
      this.head.append(h("div", { class: "mcell none" }, "No live versions: publish one."));
    }
  }

  applyFilter() {
    const q = this.filter.value.trim().toLowerCase();
    this.shown = q ? this.rows.filter((r) => r.route.toLowerCase().includes(q) || patternText(r.pattern).toLowerCase().includes(q)) : this.rows;
    this.spacer.style.height = `${this.shown.length * ROW}px`;
    this.first = -1;
    this.draw();
  }

  schedule() {
    if (this.pending) return;
    this.pending = requestAnimationFrame(() => { this.pending = 0; this.draw(); });
  }

  /** Draws the visible rows (plus a margin) when the first visible row changed. */
  draw(force = false) {
    const top = Math.max(0, this.scroller.scrollTop - this.head.offsetHeight);
    const height = this.scroller.clientHeight || 600;
    const first = Math.max(0, Math.floor(top / ROW) - OVERSCAN);
    if (first === this.first && !force) return;
    this.first = first;
    const last = Math.min(this.shown.length, Math.ceil((top + height) / ROW) + OVERSCAN);
    const focused = document.activeElement?.dataset?.row != null ? document.activeElement.dataset : null;
    const out = [];
    for (let i = first; i < last; i++) out.push(this.drawRow(this.shown[i], i));
    this.body.style.transform = `translateY(${first * ROW}px)`;
    this.body.replaceChildren(...out);
    if (focused) this.focusCell(Number(focused.row), Number(focused.col), false);
  }

  drawRow(row, index) {
    const route = this.routes.get(row.route);
    const byVersion = new Map(row.cells.map((c) => [c.version, c.state]));
    const cells = this.versions.map((version, col) => {
      const state = byVersion.get(version) ?? "fallback";
      const writable = this.ctx.canWrite && (state === "open" || state === "switched_off");
      // Built by hand (the hot loop of a 50,000-cell matrix); the reason is written on hover or focus.
      const cell = document.createElement("button");
      cell.type = "button";
      cell.className = `mcell c ${state}${writable ? " w" : ""}`;
      cell.tabIndex = -1;
      cell.setAttribute("role", "gridcell");
      cell.setAttribute("aria-label", `${row.route}, ${version}: ${MARKS[state]?.label ?? state}`);
      cell.setAttribute("aria-describedby", "cell-detail");
      Object.assign(cell.dataset, { row: String(index), col: String(col), state, version, route: row.route });
      cell.textContent = MARKS[state]?.mark ?? "?";
      if (state === "open" && this.cdnPending?.has(row.route)) {
        cell.classList.add("cdn-pending");
        cell.dataset.cdnPending = "true";
        cell.setAttribute("aria-label", `${cell.getAttribute("aria-label")}, pending at Apple's CDN`);
      }
      return cell;
    });
    const links = this.linksByRoute.get(row.route);
    return h("div", { class: "mrow", role: "row" },
      h("div", { class: "mcell rh", role: "rowheader", title: route?.comment ?? "" }, h("span", { class: "rname" }, row.route),
        links ? h("a", { class: "link-mark", href: `#/links/${encodeURIComponent(this.app)}`, dataset: { links: String(links) },
          title: `${links} short link${links === 1 ? "" : "s"} open${links === 1 ? "s" : ""} this route`,
          "aria-label": `${links} short link${links === 1 ? "" : "s"}` }, `⛓ ${links}`) : null),
      h("div", { class: "mcell ph mono", title: patternText(row.pattern) }, patternText(row.pattern),
        h("span", { class: "since" }, rangeText(route?.platforms?.[this.platform]) || (row.supportedSince ? `since ${row.supportedSince}` : ""))),
      cells);
  }

  explain(target) {
    const cell = target.closest?.(".c");
    if (!cell) return;
    const { route, version, state } = cell.dataset;
    const row = this.rows.find((r) => r.route === route);
    const reason = cellReason(this.routes.get(route), row, this.platform, version, state);
    cell.title = reason;
    const wait = state === "open" && this.cdnPending?.get(route);
    const pendingText = wait ? ` Pending at Apple's CDN for ${ageText(wait.seconds)}: its copy of ${wait.host}'s AASA does not claim this route yet, so devices send these links to the browser.` : "";
    const act = this.ctx.canWrite && state === "open" ? " Click to switch it off for this version."
      : this.ctx.canWrite && state === "switched_off" ? " Click to switch it back on." : "";
    fill(this.detail,
      h("span", { class: `mark ${state}` }, MARKS[state]?.mark ?? "?"),
      h("strong", null, `${route} · ${platformName(this.platform)} ${version}`),
      h("span", { id: "cell-reason" }, reason + pendingText + act));
  }

  keys(event) {
    const cell = event.target.closest?.(".c");
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0], PageUp: [-10, 0], PageDown: [10, 0] };
    if (!cell || !moves[event.key]) return;
    event.preventDefault();
    const [dr, dc] = moves[event.key];
    this.focusCell(Number(cell.dataset.row) + dr, Number(cell.dataset.col) + dc, true);
  }

  focusCell(row, col, scroll) {
    row = Math.max(0, Math.min(this.shown.length - 1, row));
    col = Math.max(0, Math.min(this.versions.length - 1, col));
    if (scroll) {
      const y = row * ROW;
      const visibleTop = this.scroller.scrollTop;
      const visibleBottom = visibleTop + this.scroller.clientHeight - this.head.offsetHeight - ROW;
      if (y < visibleTop) this.scroller.scrollTop = y;
      else if (y > visibleBottom) this.scroller.scrollTop = y - (this.scroller.clientHeight - this.head.offsetHeight - ROW);
      this.draw();
    }
    this.body.querySelector(`.c[data-row="${row}"][data-col="${col}"]`)?.focus({ preventScroll: !scroll });
  }

  async act(target) {
    const cell = target.closest?.(".c");
    if (!cell || !this.ctx.canWrite) return;
    const { route, version, state } = cell.dataset;
    if (state !== "open" && state !== "switched_off") return;
    const off = state === "open";
    const name = platformName(this.platform);
    const reason = h("textarea", { name: "reason", id: "switch-reason", rows: 3, maxLength: 1000, required: off,
      placeholder: "Why? e.g. crash in 5.12.0" });
    const pattern = patternText(this.routes.get(route)?.pattern);
    const done = await modal({
      title: `${off ? "Switch off" : "Switch on"} ${route} for ${name} ${version}?`,
      confirm: off ? "Switch off" : "Switch on", danger: off,
      body: h("div", null,
        h("p", null, off
          ? `${name} ${version} will send links matching ${pattern} to the browser (fallback URL) instead of opening them, and every domain's documents are regenerated now.`
          : `${name} ${version} will open links matching ${pattern} in the app again.`),
        off ? field("Reason (required, kept in the audit log)", reason) : null),
      submit: () => {
        if (off && !reason.value.trim()) throw { text: "A reason is required to switch a route off." };
        return call(off ? "Routes.SwitchOff" : "Routes.SwitchOn", {
        app: this.app, route, platform: this.platform, versions: [version],
        ...(off ? { reason: reason.value.trim() } : {}),
        });
      },
    });
    if (!done) return;
    toast(`${route} ${off ? "switched off" : "switched on"} for ${name} ${version}`);
    await this.load();
  }
}

function ageText(seconds) {
  return seconds < 3600 ? `${Math.max(1, Math.round(seconds / 60))} min` : seconds < 172800 ? `${Math.round(seconds / 3600)} h` : `${Math.round(seconds / 86400)} days`;
}
