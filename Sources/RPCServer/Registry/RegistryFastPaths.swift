import RegistryService

/// The fast paths the registry's dispatcher tries before the handlers.
enum RegistryFastPaths {
    static func all(_ service: RegistryService) -> [RPCFastPath] {
        [CanOpenCheckFastPath.make(service), CanOpenGetTableFastPath.make(service)]
    }
}
