// A link's QR code (drawn by the server: Links.QRCode, the same its link domain serves) and the link page's
// downloads: the QR code as SVG, the clicks as CSV. The SVG arrives as text and is parsed as an SVG document,
// never as HTML, and holds nothing but a rect and a path.
import { h } from "./dom.js";
import { call } from "./rpc.js";
import { errorBox } from "./ui.js";

/** The QR code card's content: the code, what it encodes, a download. */
export async function qrBox(link) {
  const box = h("div", { id: "link-qr", class: "link-qr" });
  try {
    const { url, svg } = await call("Links.QRCode", { domain: link.domain, code: link.code });
    const parsed = new DOMParser().parseFromString(svg, "image/svg+xml").documentElement;
    const drawing = document.importNode(parsed, true);
    drawing.setAttribute("width", "192");
    drawing.setAttribute("height", "192");
    drawing.setAttribute("role", "img");
    drawing.setAttribute("aria-label", `QR code of ${url}`);
    box.append(drawing,
      h("p", { class: "muted small" }, "Encodes ", h("span", { class: "mono", id: "link-qr-url" }, url),
        ": scans are counted as their own source."),
      h("div", { class: "buttons" }, downloadButton("Download SVG", `${link.code}-qr.svg`, "image/svg+xml", () => svg, "qr-download")));
  } catch (error) { box.append(errorBox(error)); }
  return box;
}

/** Links.Stats counts as CSV (RFC 4180), as `routereg link stats --csv` prints them. */
export function statsCSV(counts) {
  const lines = ["day,platform,outcome,source,visitor,clicks"];
  for (const c of counts) lines.push([c.day, c.platform, c.outcome, c.source ?? "link", c.visitor ?? "", c.count].join(","));
  return lines.join("\r\n") + "\r\n";
}

/** A button saving `text()` as a file: a Blob URL followed by a temporary download link. */
export function downloadButton(label, filename, type, text, id) {
  return h("button", { type: "button", class: "ghost small", id, onclick: () => {
    const url = URL.createObjectURL(new Blob([text()], { type }));
    const a = h("a", { href: url, download: filename });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } }, label);
}
