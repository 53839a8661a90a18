"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.canonicalJSON = exports.aasaHandler = exports.playStoreUrl = exports.landingData = exports.fallbackUrl = exports.createLinkWith = exports.appStoreUrl = exports.MAX_BATCH = exports.RouteRegistryClient = exports.clientMethodName = exports.METHOD_NAMES = exports.METHOD_INFO = exports.percentDecode = exports.parseLinkURL = exports.parseAASA = exports.AASASyntaxError = void 0;
// The package's entry point: the typed JSON-RPC client, the AASA-serving request handler and the local
// AASA matcher.
__exportStar(require("./matcher.js"), exports);
var strictJson_js_1 = require("./strictJson.js");
Object.defineProperty(exports, "AASASyntaxError", { enumerable: true, get: function () { return strictJson_js_1.AASASyntaxError; } });
Object.defineProperty(exports, "parseAASA", { enumerable: true, get: function () { return strictJson_js_1.parseAASA; } });
var linkUrl_js_1 = require("./linkUrl.js");
Object.defineProperty(exports, "parseLinkURL", { enumerable: true, get: function () { return linkUrl_js_1.parseLinkURL; } });
Object.defineProperty(exports, "percentDecode", { enumerable: true, get: function () { return linkUrl_js_1.percentDecode; } });
__exportStar(require("./types.js"), exports);
__exportStar(require("./errors.js"), exports);
var api_js_1 = require("./api.js");
Object.defineProperty(exports, "METHOD_INFO", { enumerable: true, get: function () { return api_js_1.METHOD_INFO; } });
Object.defineProperty(exports, "METHOD_NAMES", { enumerable: true, get: function () { return api_js_1.METHOD_NAMES; } });
Object.defineProperty(exports, "clientMethodName", { enumerable: true, get: function () { return api_js_1.clientMethodName; } });
var client_js_1 = require("./client.js");
Object.defineProperty(exports, "RouteRegistryClient", { enumerable: true, get: function () { return client_js_1.RouteRegistryClient; } });
var links_js_1 = require("./links.js");
Object.defineProperty(exports, "MAX_BATCH", { enumerable: true, get: function () { return links_js_1.MAX_BATCH; } });
Object.defineProperty(exports, "appStoreUrl", { enumerable: true, get: function () { return links_js_1.appStoreUrl; } });
Object.defineProperty(exports, "createLinkWith", { enumerable: true, get: function () { return links_js_1.createLinkWith; } });
Object.defineProperty(exports, "fallbackUrl", { enumerable: true, get: function () { return links_js_1.fallbackUrl; } });
Object.defineProperty(exports, "landingData", { enumerable: true, get: function () { return links_js_1.landingData; } });
Object.defineProperty(exports, "playStoreUrl", { enumerable: true, get: function () { return links_js_1.playStoreUrl; } });
var aasaHandler_js_1 = require("./aasaHandler.js");
Object.defineProperty(exports, "aasaHandler", { enumerable: true, get: function () { return aasaHandler_js_1.aasaHandler; } });
Object.defineProperty(exports, "canonicalJSON", { enumerable: true, get: function () { return aasaHandler_js_1.canonicalJSON; } });
