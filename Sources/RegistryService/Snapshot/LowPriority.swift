#if canImport(Glibc)
    import Glibc
#endif

/// The calling thread at the lowest CPU priority (nice 19), for background work that must not compete
/// with requests: on Linux a nice value is per thread, and `setpriority(PRIO_PROCESS, 0, …)` sets the calling
/// thread's. Only ever raised, never lowered back (that needs a
/// privilege a service user lacks), so it is for threads made for that work alone.
enum LowPriority {
    static func enter() {
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
        #endif
    }
}
