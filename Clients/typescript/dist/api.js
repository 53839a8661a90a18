/** Every wire method name, in the OpenRPC document's order; kept in step with `RegistryApi` by the compiler. */
export const METHOD_NAMES = [
    "Apps.Create", "Apps.Get", "Apps.List", "Apps.Update", "Apps.Delete",
    "Domains.Create", "Domains.Get", "Domains.List", "Domains.Delete",
    "Routes.Create", "Routes.BatchCreate", "Routes.Get", "Routes.List", "Routes.Update", "Routes.Delete",
    "Routes.Reorder", "Routes.SwitchOff", "Routes.SwitchOn",
    "Releases.Create", "Releases.Publish", "Releases.Retire", "Releases.Get", "Releases.List",
    "Associations.Get", "Associations.ListRevisions", "Associations.Diff", "Associations.Preview",
    "Associations.Watch",
    "CanOpen.GetTable", "CanOpen.Check",
    "Matrix.Get",
    "Tokens.Create", "Tokens.List", "Tokens.Revoke",
    "Audit.List",
    "rpc.discover",
];
const tableIsComplete = true;
void tableIsComplete;
/** The camelCase client name of a wire method name. */
export function clientMethodName(method) {
    const dot = method.indexOf(".");
    const service = method.slice(0, dot);
    const name = method.slice(dot + 1);
    return service.charAt(0).toLowerCase() + service.slice(1) + name.charAt(0).toUpperCase() + name.slice(1);
}
