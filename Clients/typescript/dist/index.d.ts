export * from "./matcher.js";
export { parseLinkURL, percentDecode } from "./linkUrl.js";
export type { LinkURL } from "./linkUrl.js";
