// Sign-in with an API token.
import { h, fill } from "./dom.js";
import { errorBox } from "./ui.js";

export function render(main, onToken) {
  const input = h("input", { type: "password", name: "token", id: "token", required: true,
    autocomplete: "off", spellcheck: "false", placeholder: "rr_…" });
  const problem = h("div");
  const button = h("button", { type: "submit", class: "primary", id: "sign-in" }, "Sign in");
  const form = h("form", { class: "signin card", onsubmit: async (event) => {
    event.preventDefault();
    button.disabled = true;
    problem.replaceChildren();
    try {
      await onToken(input.value.trim());
    } catch (error) {
      problem.append(errorBox(error.code === 16 ? { text: "That token is unknown or revoked." } : error));
    } finally {
      button.disabled = false;
    }
  } },
  h("h1", null, "Sign in"),
  h("p", { class: "muted" }, "Paste an API token (from routereg token create, or .routereg/admin-token). ",
    "It stays in this tab only and is sent to the registry's API as a bearer header."),
  h("label", { class: "field" }, h("span", { class: "label" }, "API token"), input),
  problem, button);
  fill(main, form);
  input.focus();
}
