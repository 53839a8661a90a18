// The package's entry point: the typed JSON-RPC client, the AASA-serving request handler and the local
// AASA matcher.
export * from "./matcher.js";
export { parseLinkURL, percentDecode } from "./linkUrl.js";
export type { LinkURL } from "./linkUrl.js";
