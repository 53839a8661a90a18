// `StatusCode` is part of what RouteMatching speaks (`RegistryError.code`): importing RouteMatching brings it.
@_exported import StatusCodes
