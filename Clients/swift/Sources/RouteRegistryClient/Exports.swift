// The types an app uses with the store (`Version`, `Platform`, `Decision`, `CanOpenTable`, `API`) come
// with `import RouteRegistryClient`: the README's example needs no second import.
@_exported import RouteCore
