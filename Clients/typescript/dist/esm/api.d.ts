import { METHOD_INFO, METHOD_NAMES } from "./generated/api.js";
import type { MethodInfo, RegistryApi } from "./generated/api.js";
export { METHOD_INFO, METHOD_NAMES };
export type { MethodInfo, RegistryApi };
/** A wire method name (`Service.Method`). */
export declare type MethodName = keyof RegistryApi;
/** `Associations.Get`'s result. */
export declare type AssociationResult = RegistryApi["Associations.Get"]["result"];
/** `Associations.Watch`'s result: `document` is present when `notModified` is false. */
export declare type WatchResult = RegistryApi["Associations.Watch"]["result"];
/** The client method name for a wire name: `Routes.SwitchOff` → `routesSwitchOff`, `rpc.discover` → `rpcDiscover`. */
export declare type ClientMethodName<M extends string> = M extends `${infer S}.${infer N}` ? `${Uncapitalize<S>}${Capitalize<N>}` : never;
/** The paged list methods (their result has `nextPageToken` beside one array of items). */
export declare type PagedMethodName = {
    [M in MethodName]: RegistryApi[M]["result"] extends {
        nextPageToken?: unknown;
    } ? M : never;
}[MethodName];
/** The camelCase client name of a wire method name. */
export declare function clientMethodName(method: string): string;
