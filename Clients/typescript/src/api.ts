import { METHOD_INFO, METHOD_NAMES } from "./generated/api.js";
import type { MethodInfo, RegistryApi } from "./generated/api.js";

export { METHOD_INFO, METHOD_NAMES };
export type { MethodInfo, RegistryApi };

/** A wire method name (`Service.Method`). */
export type MethodName = keyof RegistryApi;

/** `Associations.Get`'s result. */
export type AssociationResult = RegistryApi["Associations.Get"]["result"];

/** `Associations.Watch`'s result: `document` is present when `notModified` is false. */
export type WatchResult = RegistryApi["Associations.Watch"]["result"];

/** The client method name for a wire name: `Routes.SwitchOff` → `routesSwitchOff`, `rpc.discover` → `rpcDiscover`. */
export type ClientMethodName<M extends string> = M extends `${infer S}.${infer N}`
  ? `${Uncapitalize<S>}${Capitalize<N>}`
  : never;

/** The paged list methods (their result has `nextPageToken` beside one array of items). */
export type PagedMethodName = {
  [M in MethodName]: RegistryApi[M]["result"] extends { nextPageToken?: unknown } ? M : never;
}[MethodName];

// Compile-time proof that METHOD_NAMES and RegistryApi list the same methods.
type Missing = Exclude<MethodName, (typeof METHOD_NAMES)[number]>;
type Extra = Exclude<(typeof METHOD_NAMES)[number], MethodName>;
const tableIsComplete: [Missing, Extra] extends [never, never] ? true : never = true;
void tableIsComplete;

/** The camelCase client name of a wire method name. */
export function clientMethodName(method: string): string {
  const dot = method.indexOf(".");
  const service = method.slice(0, dot);
  const name = method.slice(dot + 1);
  return service.charAt(0).toLowerCase() + service.slice(1) + name.charAt(0).toUpperCase() + name.slice(1);
}
