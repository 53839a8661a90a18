// Every element the console shows is built here. Text is always set as text (Text nodes, textContent,
// attributes): nothing is ever parsed as HTML, so a route comment like <img onerror=…> stays a string.

/** Creates an element: props are attributes (class, text, on<event>, dataset, DOM properties); children are
 * nodes or strings (strings become Text nodes). */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value == null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = String(value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "value") el.value = String(value); // a textarea's text is its value, not an attribute
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (typeof value !== "string" && key in el) el[key] = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  add(el, children);
  return el;
}

/** Appends nodes or strings (as text) to el, skipping null/false. */
export function add(el, children) {
  for (const child of [children].flat(Infinity)) {
    if (child == null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** Replaces el's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  return add(el, children);
}

/** A table from a header row and rows of cells (nodes or strings). */
export function table(header, rows, props) {
  return h("table", props ?? { class: "grid-table" },
    h("thead", null, h("tr", null, header.map((title) => h("th", { scope: "col" }, title)))),
    h("tbody", null, rows));
}

/** A labelled form field around an input. */
export function field(label, input, hint) {
  return h("label", { class: "field" }, h("span", { class: "label" }, label), input,
    hint ? h("span", { class: "hint" }, hint) : null);
}

/** A <select> of values (or [value, label] pairs). */
export function select(props, options, selected) {
  return h("select", props, options.map((option) => {
    const [value, label] = Array.isArray(option) ? option : [option, option];
    return h("option", { value, selected: value === selected }, label);
  }));
}

/** "2 minutes ago"-style time, with the exact time in the title. */
export function time(iso) {
  if (!iso) return h("span", { class: "muted" }, "—");
  const at = new Date(iso);
  const seconds = Math.round((Date.now() - at.getTime()) / 1000);
  const rel = seconds < 60 ? "just now" : seconds < 3600 ? `${Math.floor(seconds / 60)} min ago`
    : seconds < 86400 ? `${Math.floor(seconds / 3600)} h ago` : at.toISOString().slice(0, 10);
  return h("time", { datetime: iso, title: at.toISOString() }, rel);
}

/** A short etag for tables. */
export const shortTag = (etag) => (etag ?? "").replace(/"/g, "").slice(0, 10);

/** A page heading with optional actions on the right. */
export function heading(title, ...actions) {
  return h("div", { class: "page-head" }, h("h1", null, title), h("div", { class: "actions" }, actions));
}

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element: props are attributes (set with setAttribute, never parsed), children nodes or strings (text). */
export function svg(tag, props, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value == null || value === false) continue;
    if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, String(value));
  }
  return add(el, children);
}

/** Copies text to the clipboard (the async API, else a hidden field and execCommand); resolves true when done. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h("textarea", { value: text, readOnly: true, class: "offscreen", "aria-hidden": "true" });
    document.body.append(area);
    area.select();
    let done = false;
    try { done = document.execCommand("copy"); } catch { done = false; }
    area.remove();
    return done;
  }
}
