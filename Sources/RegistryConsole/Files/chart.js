// A short link's clicks per day, one row per platform, each day's bar stacked by outcome (Links.Stats).
// Drawn here as SVG, nothing from elsewhere. Readable without colour: each outcome has its own pattern (solid,
// stripes, dots, cross-hatch) shown in the legend, every bar carries its count as text, every segment a
// tooltip, and the same numbers follow as a table.
import { h, svg, table } from "./dom.js";

export const CLICK_PLATFORMS = [["ios", "iOS"], ["android", "Android"], ["desktop", "Desktop"], ["crawler", "Crawlers"]];
export const OUTCOMES = [
  ["landing", "landing page", "stripes"],
  ["redirect", "redirect", "solid"],
  ["crawler", "preview page", "dots"],
  ["not_found", "not found", "cross-hatch"],
];

const DAY = 86400000;
const LEFT = 92, RIGHT = 12, TOP = 10, ROW = 74, BAR_AREA = 50, AXIS = 26;
let charts = 0;

/** The last `days` days (UTC, YYYY-MM-DD) ending with `today`. */
export function dayRange(today, days) {
  const end = Date.parse(`${today}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) => new Date(end - (days - 1 - i) * DAY).toISOString().slice(0, 10));
}

/** The chart (a figure: legend, SVG, and the numbers as a table) for Links.Stats counts. */
export function clickChart(counts, { days = 14, today = new Date().toISOString().slice(0, 10), width = 880 } = {}) {
  const id = `chart${++charts}`;
  const range = dayRange(today, days);
  const inRange = new Set(range);
  // counts by platform → day → outcome
  const by = new Map(CLICK_PLATFORMS.map(([p]) => [p, new Map(range.map((d) => [d, new Map()]))]));
  let older = 0, shown = 0;
  for (const c of counts ?? []) {
    const days = by.get(c.platform);
    if (!days || !inRange.has(c.day)) { older += c.count; continue; }
    const cell = days.get(c.day);
    cell.set(c.outcome, (cell.get(c.outcome) ?? 0) + c.count);
    shown += c.count;
  }
  const total = (cell) => [...cell.values()].reduce((a, b) => a + b, 0);
  let max = 1;
  for (const days of by.values()) for (const cell of days.values()) max = Math.max(max, total(cell));

  const plot = width - LEFT - RIGHT;
  const step = plot / range.length;
  const bar = Math.max(4, Math.min(36, step * 0.62));
  const height = TOP + CLICK_PLATFORMS.length * ROW + AXIS;
  const defs = svg("defs", null, OUTCOMES.map(([outcome]) => pattern(`${id}-${outcome}`, outcome)));
  const rows = CLICK_PLATFORMS.map(([platform, label], r) => {
    const base = TOP + r * ROW + 12 + BAR_AREA;
    const rowTotal = [...by.get(platform).values()].reduce((sum, cell) => sum + total(cell), 0);
    const bars = range.map((day, i) => {
      const cell = by.get(platform).get(day);
      const x = LEFT + i * step + (step - bar) / 2;
      let y = base;
      const segments = OUTCOMES.filter(([o]) => cell.get(o)).map(([outcome, name]) => {
        const n = cell.get(outcome);
        const tall = Math.max(2, (n / max) * BAR_AREA);
        y -= tall;
        return svg("rect", { x: x.toFixed(1), y: y.toFixed(1), width: bar.toFixed(1), height: tall.toFixed(1),
          fill: `url(#${id}-${outcome})`, class: `seg ${outcome}`, stroke: "#1f2937", "stroke-width": "0.75",
          dataset: { day, platform, outcome, count: String(n) } },
        svg("title", null, `${day} · ${label} · ${name}: ${n}`));
      });
      const n = total(cell);
      return svg("g", { class: "day", dataset: { day, platform, total: String(n) } }, segments,
        n ? svg("text", { x: (x + bar / 2).toFixed(1), y: (y - 3).toFixed(1), "text-anchor": "middle", class: "count" }, String(n)) : null);
    });
    return svg("g", { class: "platform-row", dataset: { platform, total: String(rowTotal) } },
      svg("text", { x: 4, y: base - BAR_AREA / 2 + 4, class: "row-label" }, label),
      svg("text", { x: 4, y: base - BAR_AREA / 2 + 18, class: "row-total" }, `${rowTotal} click${rowTotal === 1 ? "" : "s"}`),
      svg("line", { x1: LEFT, x2: width - RIGHT, y1: base + 0.5, y2: base + 0.5, class: "baseline" }),
      bars);
  });
  const every = Math.ceil(range.length / 14);
  const axisY = TOP + CLICK_PLATFORMS.length * ROW + 14;
  const axis = svg("g", { class: "axis" }, range.map((day, i) => i % every && i !== range.length - 1 ? null
    : svg("text", { x: (LEFT + i * step + step / 2).toFixed(1), y: axisY, "text-anchor": "middle" }, day.slice(5))));
  const summary = `Clicks per day for ${range[0]} to ${range[range.length - 1]}: ${shown} in all` +
    CLICK_PLATFORMS.map(([p, label]) => `, ${label} ${[...by.get(p).values()].reduce((s, c) => s + total(c), 0)}`).join("");
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-label": summary,
    class: "click-chart", id: "click-chart" }, svg("title", null, summary), defs, rows, axis);

  const legend = h("ul", { class: "legend chart-legend", "aria-label": "Outcomes" }, OUTCOMES.map(([outcome, name, look]) =>
    h("li", { dataset: { outcome } },
      svg("svg", { width: 22, height: 14, "aria-hidden": "true" },
        svg("defs", null, pattern(`${id}-key-${outcome}`, outcome)),
        svg("rect", { x: 0.5, y: 0.5, width: 21, height: 13, fill: `url(#${id}-key-${outcome})`, stroke: "#1f2937" })),
      `${name} (${look})`)));
  const tableRows = [];
  for (const day of [...range].reverse()) {
    for (const [platform, label] of CLICK_PLATFORMS) {
      for (const [outcome, name] of OUTCOMES) {
        const n = by.get(platform).get(day).get(outcome);
        if (n) tableRows.push(h("tr", { dataset: { day, platform, outcome } }, h("td", null, day), h("td", null, label),
          h("td", null, name), h("td", { class: "num" }, String(n))));
      }
    }
  }
  return h("figure", { class: "chart", dataset: { shown: String(shown), older: String(older) } },
    legend, chart,
    h("figcaption", { class: "muted small" }, `${shown} click${shown === 1 ? "" : "s"} in the last ${days} days (UTC)`,
      older ? `, ${older} older not shown` : "", ". Every visit is counted; no address or user agent is kept."),
    h("details", { class: "chart-table" }, h("summary", null, "The numbers as a table"),
      tableRows.length ? table(["Day", "Platform", "Outcome", "Clicks"], tableRows, { class: "grid-table", id: "clicks-table" })
        : h("p", { class: "muted" }, "No clicks in these days.")));
}

/** The fill of one outcome: a colour and a pattern that still tells it apart in grey. */
function pattern(id, outcome) {
  const tile = (...shapes) => svg("pattern", { id, patternUnits: "userSpaceOnUse", width: 6, height: 6 }, shapes);
  switch (outcome) {
    case "landing":
      return svg("pattern", { id, patternUnits: "userSpaceOnUse", width: 6, height: 6, patternTransform: "rotate(45)" },
        svg("rect", { width: 6, height: 6, fill: "#dbeafe" }), svg("rect", { width: 3, height: 6, fill: "#2563eb" }));
    case "redirect":
      return tile(svg("rect", { width: 6, height: 6, fill: "#15803d" }));
    case "crawler":
      return tile(svg("rect", { width: 6, height: 6, fill: "#fef3c7" }), svg("circle", { cx: 3, cy: 3, r: 1.6, fill: "#a16207" }));
    default:
      return tile(svg("rect", { width: 6, height: 6, fill: "#fee2e2" }),
        svg("path", { d: "M0 0L6 6M6 0L0 6", stroke: "#b91c1c", "stroke-width": 1.2 }));
  }
}
