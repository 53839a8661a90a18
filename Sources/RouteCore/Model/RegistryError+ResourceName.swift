// RegistryError lives in RouteMatching, below the model; the errors that name a resource are built here, where
// ResourceName is, so every such message spells the name the way the API prints it.
extension RegistryError {
    /// NOT_FOUND for the named resource: `apps/badoo not found`.
    public static func notFound(_ name: ResourceName) -> RegistryError { notFound(name.description) }

    /// ALREADY_EXISTS for the named resource: `apps/badoo already exists`.
    public static func alreadyExists(_ name: ResourceName) -> RegistryError { alreadyExists(name.description) }

    /// ABORTED for a write whose etag no longer matches: someone changed the named resource meanwhile.
    public static func stale(_ name: ResourceName) -> RegistryError {
        aborted("\(name) was changed by someone else; get it again and retry")
    }
}
