// A rule diff (Associations.Diff / Preview) as + / − / ~ lines, and lint findings.
import { h } from "./dom.js";

const ruleText = (rule) => JSON.stringify(rule);

/** The diff's lines, or a note when nothing changed. */
export function diffView(diff) {
  const lines = [
    ...(diff?.added ?? []).map((r) => h("li", { class: "add" }, h("span", { class: "sign" }, "+"), h("code", null, ruleText(r.rule)), h("span", { class: "where" }, `${r.app} #${r.index}`))),
    ...(diff?.removed ?? []).map((r) => h("li", { class: "del" }, h("span", { class: "sign" }, "−"), h("code", null, ruleText(r.rule)), h("span", { class: "where" }, `${r.app} #${r.index}`))),
    ...(diff?.changed ?? []).flatMap((c) => [
      h("li", { class: "del" }, h("span", { class: "sign" }, "~"), h("code", null, ruleText(c.before.rule)), h("span", { class: "where" }, "before")),
      h("li", { class: "add" }, h("span", { class: "sign" }, "~"), h("code", null, ruleText(c.after.rule)), h("span", { class: "where" }, "after")),
    ]),
  ];
  return lines.length ? h("ul", { class: "diff" }, lines) : h("p", { class: "muted" }, "No rule changes.");
}

/** Lint findings, or nothing. */
export function lintView(findings) {
  if (!findings?.length) return h("p", { class: "muted lint-none" }, "Lint: no findings.");
  return h("ul", { class: "lint" }, findings.map((f) => h("li", { class: f.severity },
    h("span", { class: `pill ${f.severity}` }, f.severity), h("code", null, f.code), " ", f.message,
    f.route ? h("span", { class: "muted" }, ` (route ${f.route})`) : null)));
}
