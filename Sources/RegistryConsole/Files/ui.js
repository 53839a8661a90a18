// Toasts and modal dialogs (the native <dialog>: focus is trapped and Escape cancels).
import { h, add } from "./dom.js";

/** A short message in the corner; kind: ok | error. */
export function toast(message, kind = "ok") {
  const el = h("div", { class: `toast ${kind}` }, message);
  document.getElementById("toasts").append(el);
  setTimeout(() => el.remove(), kind === "error" ? 8000 : 4000);
}

/** An inline error box (for forms), or null. */
export function errorBox(error) {
  if (!error) return null;
  return h("pre", { class: "error-box", role: "alert" }, error.text ?? String(error.message ?? error));
}

/**
 * A modal form. body: nodes; submit(form) runs on confirm and may throw (the error is shown in the dialog,
 * which stays open). Resolves with submit's result, or null when cancelled.
 */
export function modal({ title, body, confirm = "Save", danger = false, submit }) {
  return new Promise((resolve) => {
    const problem = h("div", { class: "dialog-error" });
    const ok = h("button", { type: "submit", class: danger ? "danger" : "primary" }, confirm);
    const form = h("form", { method: "dialog", class: "dialog-form" },
      h("h2", null, title), body, problem,
      h("div", { class: "dialog-actions" },
        h("button", { type: "button", class: "ghost", onclick: () => dialog.close() }, "Cancel"), ok));
    const dialog = h("dialog", { class: "modal" }, form);
    let result = null;
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (!form.reportValidity()) return;
      ok.disabled = true;
      problem.replaceChildren();
      try {
        result = await submit(form);
        dialog.close();
      } catch (error) {
        add(problem, errorBox(error));
      } finally {
        ok.disabled = false;
      }
    });
    dialog.addEventListener("close", () => { dialog.remove(); resolve(result); });
    document.body.append(dialog);
    dialog.showModal();
  });
}
