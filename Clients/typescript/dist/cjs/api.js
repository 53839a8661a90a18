"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.clientMethodName = exports.METHOD_NAMES = exports.METHOD_INFO = void 0;
const api_js_1 = require("./generated/api.js");
Object.defineProperty(exports, "METHOD_INFO", { enumerable: true, get: function () { return api_js_1.METHOD_INFO; } });
Object.defineProperty(exports, "METHOD_NAMES", { enumerable: true, get: function () { return api_js_1.METHOD_NAMES; } });
const tableIsComplete = true;
void tableIsComplete;
/** The camelCase client name of a wire method name. */
function clientMethodName(method) {
    const dot = method.indexOf(".");
    const service = method.slice(0, dot);
    const name = method.slice(dot + 1);
    return service.charAt(0).toLowerCase() + service.slice(1) + name.charAt(0).toUpperCase() + name.slice(1);
}
exports.clientMethodName = clientMethodName;
