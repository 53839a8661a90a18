import { METHOD_INFO, METHOD_NAMES } from "./generated/api.js";
export { METHOD_INFO, METHOD_NAMES };
const tableIsComplete = true;
void tableIsComplete;
/** The camelCase client name of a wire method name. */
export function clientMethodName(method) {
    const dot = method.indexOf(".");
    const service = method.slice(0, dot);
    const name = method.slice(dot + 1);
    return service.charAt(0).toLowerCase() + service.slice(1) + name.charAt(0).toUpperCase() + name.slice(1);
}
