// The console's shell: sign-in, who you are, the pages behind #/… and live refresh.
import { h, fill } from "./dom.js";
import { call, listAll, onError, session } from "./rpc.js";
import { toast } from "./ui.js";
import { watchDomains } from "./live.js";
import * as signin from "./signin.js";
import * as apps from "./apps.js";
import * as matrix from "./matrix.js";
import * as publish from "./publish.js";
import * as documents from "./documents.js";
import * as audit from "./audit.js";
import * as links from "./links.js";

const pages = { apps, matrix, links, publish, documents, audit };
const main = document.getElementById("main");

/** What every page gets: who is signed in, the apps, and helpers. */
const ctx = {
  me: null,
  apps: [],
  get canWrite() { return this.me?.role === "releaser" || this.me?.role === "admin"; },
  /** The app the pages share (the last one picked). */
  app: sessionStorage.getItem("routereg.console.app") ?? "",
  pickApp(id) {
    if (!id || id === this.app) return;
    this.app = id;
    sessionStorage.setItem("routereg.console.app", id);
    startLive();
  },
  go(hash) { location.hash = hash; },
  toast,
};

let current = null; // { page, refresh, stop }
let stopLive = () => {};

onError((error) => {
  // An expired token is told when it expired: say so rather than only that it is invalid.
  if (error.code === 16 && ctx.me) signOut(`Your token is no longer valid (${error.message}): sign in again.`);
});

async function signIn(token) {
  session.token = token;
  try {
    ctx.me = await call("Tokens.WhoAmI");
  } catch (error) {
    session.token = null;
    ctx.me = null;
    throw error;
  }
  ctx.apps = await listAll("Apps.List", {}, "apps");
  if (!ctx.apps.some((a) => a.id === ctx.app)) ctx.app = ctx.apps[0]?.id ?? "";
  document.getElementById("who-id").textContent = ctx.me.id;
  document.getElementById("who-role").textContent = ctx.me.role;
  // A token limited to some apps sees only those (the server filters every list); say which.
  const scope = document.getElementById("who-scope");
  scope.textContent = ctx.me.apps ? `apps: ${ctx.me.apps.join(", ")}` : "";
  scope.hidden = !ctx.me.apps;
  document.body.dataset.role = ctx.me.role;
  document.getElementById("nav").hidden = false;
  document.getElementById("who").hidden = false;
  startLive();
}

function signOut(message) {
  session.token = null;
  ctx.me = null;
  stopLive();
  document.getElementById("nav").hidden = true;
  document.getElementById("who").hidden = true;
  delete document.body.dataset.role;
  if (message) toast(message, "error");
  route();
}

/** Watches the current app's domains; a new document refreshes the open page. */
async function startLive() {
  stopLive();
  const indicator = document.getElementById("live");
  indicator.classList.remove("on");
  if (!ctx.app) return;
  let hosts = [];
  try {
    hosts = (await listAll("Domains.List", { app: ctx.app }, "domains")).map((d) => d.host);
  } catch { return; }
  indicator.classList.toggle("on", hosts.length > 0);
  stopLive = watchDomains(hosts, (host, revision) => {
    indicator.classList.add("pulse");
    setTimeout(() => indicator.classList.remove("pulse"), 1200);
    document.body.dataset.lastChange = `${host}#${revision}`;
    current?.refresh?.();
  });
}

async function route() {
  current?.stop?.();
  current = null;
  if (!ctx.me) {
    if (session.token) {
      try { await signIn(session.token); } catch { session.token = null; }
    }
    if (!ctx.me) {
      signin.render(main, async (token) => { await signIn(token); route(); });
      return;
    }
  }
  const [name, ...args] = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  const page = pages[name] ? name : "apps";
  for (const link of document.querySelectorAll("#nav a")) {
    link.classList.toggle("active", link.dataset.page === page);
    link.setAttribute("href", `#/${link.dataset.page}${["matrix", "links", "publish"].includes(link.dataset.page) && ctx.app ? `/${encodeURIComponent(ctx.app)}` : ""}`);
  }
  // Each visit renders into its own element: a slower earlier visit still finishing fills a detached one.
  const view = h("div", { class: "view" }, h("p", { class: "muted" }, "Loading…"));
  fill(main, view);
  const mine = {};
  current = mine;
  try {
    const handle = await pages[page].render(view, ctx, args.filter(Boolean));
    if (current === mine) Object.assign(mine, { page, ...(handle ?? {}) });
    else handle?.stop?.();
  } catch (error) {
    if (current !== mine) return;
    fill(view, h("div", { class: "error-box" }, error.text ?? String(error)));
  }
}

document.getElementById("sign-out").addEventListener("click", () => signOut());
window.addEventListener("hashchange", route);
route();
