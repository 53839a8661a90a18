// An app's webhooks on its links page: the receivers with their state, a new one (its secret shown once, in a
// dialog), the latest deliveries of each, and delete. Releasers and admins only (Webhooks.* need the role).
import { h, fill, table, time } from "./dom.js";
import { call } from "./rpc.js";
import { errorBox, modal, toast } from "./ui.js";

const EVENTS = ["link.created", "link.updated", "link.deleted", "link.clicked"];

/** The card's content for `app`; refreshes itself after each change. */
export function webhooksBox(app) {
  const box = h("div", { id: "webhooks" }, h("p", { class: "muted" }, "Loading…"));
  const load = async () => {
    let hooks;
    try { hooks = (await call("Webhooks.List", { app: app.id })).webhooks ?? []; } catch (error) { fill(box, errorBox(error)); return; }
    const rows = hooks.map((hook) => h("tr", { dataset: { id: hook.id } },
      h("td", { class: "mono" }, hook.url),
      h("td", { class: "small" }, hook.events.join(", ")),
      h("td", null, hook.failures
        ? h("span", { class: "pill warning webhook-state" }, `${hook.failures} failed · next ${hook.nextAttemptTime ?? "soon"}`)
        : h("span", { class: "pill open webhook-state" }, "✓ ok")),
      h("td", null, time(hook.createTime)),
      h("td", { class: "row-actions" },
        h("button", { type: "button", class: "ghost small deliveries", onclick: () => showDeliveries(app, hook) }, "Deliveries"),
        h("button", { type: "button", class: "ghost small danger delete", onclick: async () => {
          if (await removeHook(app, hook)) { toast(`Deleted ${hook.id}`); load(); }
        } }, "Delete"))));
    fill(box,
      hooks.length ? table(["Receiver", "Events", "State", "Created", ""], rows, { class: "grid-table", id: "webhooks-table" })
        : h("p", { class: "empty" }, "No webhooks: your systems hear of links only by asking."),
      h("div", { class: "buttons" }, h("button", { type: "button", class: "ghost", id: "webhook-new", onclick: async () => {
        if (await createHook(app)) load();
      } }, "New webhook")));
    box.dataset.count = String(hooks.length);
  };
  load();
  return box;
}

async function createHook(app) {
  const url = h("input", { name: "url", id: "webhook-url", type: "url", required: true, class: "mono", placeholder: "https://hooks.example.com/routereg", maxLength: 2048 });
  const boxes = EVENTS.map((e) => h("label", { class: "check" }, h("input", { type: "checkbox", name: "event", value: e, checked: true }), ` ${e}`));
  const created = await modal({
    title: `New webhook for ${app.id}`, confirm: "Create",
    body: h("div", null, h("label", { class: "field wide" }, h("span", { class: "label" }, "Receiver URL"), url),
      h("fieldset", { class: "events" }, h("legend", null, "Events"), ...boxes)),
    submit: (form) => call("Webhooks.Create", { app: app.id, webhook: { url: url.value.trim(),
      events: [...form.querySelectorAll("input[name=event]:checked")].map((i) => i.value) } }),
  });
  if (!created) return null;
  await modal({
    title: "Signing secret", confirm: "Done",
    body: h("div", null, h("p", null, "Shown once: keep it where the receiver reads it. Each POST is signed with it (RouteRegistry-Signature)."),
      h("p", { class: "mono", id: "webhook-secret" }, created.secret)),
    submit: async () => true,
  });
  return created;
}

function removeHook(app, hook) {
  return modal({
    title: `Delete the webhook to ${hook.url}?`, confirm: "Delete", danger: true,
    body: h("p", null, "No more events are sent to it; those not delivered yet are dropped."),
    submit: () => call("Webhooks.Delete", { app: app.id, id: hook.id }),
  });
}

async function showDeliveries(app, hook) {
  let list;
  try { list = (await call("Webhooks.Deliveries", { app: app.id, id: hook.id })).deliveries ?? []; } catch (error) { toast(error.text ?? String(error), "error"); return; }
  await modal({
    title: `Deliveries to ${hook.url}`, confirm: "Close",
    body: list.length
      ? table(["Time", "Events", "Status", "Took", "Error"], list.map((d) => h("tr", null,
        h("td", null, time(d.time)), h("td", null, String(d.events)), h("td", null, d.status == null ? "—" : String(d.status)),
        h("td", null, `${d.milliseconds} ms`), h("td", { class: "small" }, d.error ?? ""))), { class: "grid-table", id: "deliveries-table" })
      : h("p", { class: "empty" }, "Nothing delivered yet."),
    submit: async () => true,
  });
}
