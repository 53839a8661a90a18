// The types an app uses with the store (`Version`, `Platform`, `Decision`, `CanOpenTable`, `RegistryError`)
// come with `import RouteRegistryClient`: the README's example needs no second import. Only RouteMatching:
// an app links none of the server's generators, lint or API descriptors.
@_exported import RouteMatching
