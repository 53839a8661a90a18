// The package's entry point: the typed JSON-RPC client, the AASA-serving request handler and the local
// AASA matcher.
export * from "./matcher.js";
export { AASASyntaxError, parseAASA } from "./strictJson.js";
export { parseLinkURL, percentDecode } from "./linkUrl.js";
export * from "./types.js";
export * from "./errors.js";
export { METHOD_INFO, METHOD_NAMES, clientMethodName } from "./api.js";
export { RouteRegistryClient } from "./client.js";
export { MAX_BATCH, appStoreUrl, createLinkWith, fallbackUrl, landingData, playStoreUrl } from "./links.js";
export { aasaHandler, canonicalJSON } from "./aasaHandler.js";
