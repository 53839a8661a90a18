import Foundation

#if canImport(Observation)
    import Observation

    /// SwiftUI (and `withObservationTracking`) see `status` and `table` change when a refresh brings a new
    /// table, or confirms the one in use (`status.lastChecked`).
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    extension CanOpenStore: Observable {}
#endif

extension CanOpenStore {
    static func makeRegistrar() -> (any Sendable)? {
        #if canImport(Observation)
            if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) { return ObservationRegistrar() }
        #endif
        return nil
    }

    /// Tells an observation in progress that `keyPath` was read.
    func observeAccess<Value>(_ keyPath: KeyPath<CanOpenStore, Value>) {
        #if canImport(Observation)
            if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *),
                let registrar = observation as? ObservationRegistrar
            {
                registrar.access(self, keyPath: keyPath)
            }
        #endif
    }

    /// Changes the state under its lock, announcing a change of `status` (and of `table` when
    /// `tableChanges`) to observers.
    func update(tableChanges: Bool, _ change: (inout State) -> Void) {
        #if canImport(Observation)
            if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *),
                let registrar = observation as? ObservationRegistrar
            {
                registrar.withMutation(of: self, keyPath: \.status) {
                    if tableChanges {
                        registrar.withMutation(of: self, keyPath: \.table) { state.withLock(change) }
                    } else {
                        state.withLock(change)
                    }
                }
                return
            }
        #endif
        state.withLock(change)
    }
}
