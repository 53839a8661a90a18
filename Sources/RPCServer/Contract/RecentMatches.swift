import Synchronization

/// The last few short texts a pattern accepted, so the values every call repeats (an app's name, its live
/// versions) are not matched again.
///
/// Why: the backtracking matcher costs about 5,000 instructions on an identifier or a version, a tenth of a
/// whole `CanOpen.Check` call, and the same handful of values arrives on nearly every call. Only accepted
/// texts are kept (a refusal is rare and must build its message anyway), only short ones, and only a few,
/// replaced in turn: a lookup is a lock and a few byte comparisons, and a caller sending ever-new values
/// gets the matcher, never an unbounded memory.
final class RecentMatches: Sendable {
    static let capacity = 16
    static let longestText = 64

    private struct Slots {
        var texts: [[UInt8]] = []
        var next = 0
    }

    private let slots = Mutex(Slots())

    /// Whether `text` was accepted recently.
    func contains(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard text.count <= Self.longestText else { return false }
        return slots.withLock { slots in slots.texts.contains { $0.elementsEqual(text) } }
    }

    /// Remembers an accepted `text`, replacing the oldest once full.
    func insert(_ text: UnsafeBufferPointer<UInt8>) {
        guard text.count <= Self.longestText else { return }
        slots.withLock { slots in
            guard !slots.texts.contains(where: { $0.elementsEqual(text) }) else { return }
            if slots.texts.count < Self.capacity {
                slots.texts.append(Array(text))
            } else {
                slots.texts[slots.next] = Array(text)
                slots.next = (slots.next + 1) % Self.capacity
            }
        }
    }
}
