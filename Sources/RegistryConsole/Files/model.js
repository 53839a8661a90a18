// What the console says about routes, versions and matrix cells, in the CLI's words.

/** The matrix marks, as `routereg matrix` prints them. */
export const MARKS = {
  open: { mark: "✓", label: "opens in the app" },
  fallback: { mark: "✗", label: "falls back to the browser" },
  switched_off: { mark: "⊘", label: "switched off" },
  excluded: { mark: "–", label: "excluded (always the browser)" },
};

export const PLATFORMS = [["ios", "iOS"], ["android", "Android"]];
export const platformName = (p) => (p === "android" ? "Android" : "iOS");

/** A route's URL pattern as one line: scheme://path?query#fragment. */
export function patternText(p) {
  if (!p) return "";
  let text = p.scheme ? `${p.scheme}://` : "";
  text += p.path ?? (p.scheme ? "" : "*");
  if (p.query != null) {
    text += "?" + (typeof p.query === "string" ? p.query
      : Object.entries(p.query).map(([k, v]) => `${k}=${v}`).join("&"));
  }
  if (p.fragment != null) text += `#${p.fragment}`;
  if (p.caseSensitive === false) text += "  (any case)";
  return text;
}

/** Dotted numeric versions compared numerically, missing components as 0. */
export function compareVersions(a, b) {
  const x = String(a).split(".").map(Number);
  const y = String(b).split(".").map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d) return d;
  }
  return 0;
}

/** "5.12.0 – 6.0" or "since 5.12.0". */
export function rangeText(range) {
  if (!range) return "";
  return range.until ? `${range.since} – ${range.until}` : `since ${range.since}`;
}

/** Why a matrix cell is what it is, from the route as Routes.List returns it. */
export function cellReason(route, row, platform, version, state) {
  const name = platformName(platform);
  const range = route?.platforms?.[platform];
  switch (state) {
    case "open":
      return `Opens in the app: ${name} ${version} is within the route's range (${rangeText(range)}).`;
    case "switched_off": {
      const entry = (route?.switchedOff?.[platform] ?? []).find((s) => compareVersions(s.version, version) === 0);
      const reason = entry?.reason ? `“${entry.reason}”` : "no reason recorded";
      return `Switched off for ${name} ${version}: ${reason}. Its links fall back to the browser.`;
    }
    case "excluded":
      return "Exclude route: these links always open in the browser.";
    default: {
      if (!range) return `Falls back to the browser: no ${name} version handles this route.`;
      if (compareVersions(version, range.since) < 0)
        return `Falls back to the browser: supported since ${range.since}; ${version} is older.`;
      if (range.until && compareVersions(version, range.until) >= 0)
        return `Falls back to the browser: supported until ${range.until} (exclusive); ${version} is newer.`;
      return `Falls back to the browser (${row?.supportedSince ? `supported since ${row.supportedSince}` : "not handled"}).`;
    }
  }
}
