import Dispatch
import Foundation
import Synchronization
import Testing

@testable import RegistryService

#if canImport(Glibc)
    import Glibc
#endif

/// The snapshot file's thread runs at nice 19 and nothing else does: a nice value is per thread on Linux.
@Suite struct LowPriorityTests {
    @Test func onlyTheCallingThreadIsLowered() {
        #if os(Linux)
            let mine = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            let seen = Mutex<Int32?>(nil)
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                LowPriority.enter()
                seen.withLock { $0 = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
                done.signal()
            }
            thread.start()
            done.wait()
            #expect(seen.withLock { $0 } == 19)
            #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == mine)
        #endif
    }
}
