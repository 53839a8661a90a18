import Synchronization

/// Short texts a pattern accepted recently, so the values every call repeats (an app's name, its live
/// versions) are not matched again.
///
/// Why: the backtracking matcher is a sizeable part of a small call like `CanOpen.Check`, and the same
/// values arrive on nearly every call. Only accepted texts are kept
/// (a refusal is rare and must build its message anyway), only short ones, in a fixed number of slots: a
/// text's hash picks its one slot, and a later text of the same slot replaces it. A lookup is a hash, a
/// lock and one comparison whatever the number of values in use (an app has many live versions), and a caller sending ever-new values gets the matcher, never an
/// unbounded memory.
final class RecentMatches: Sendable {
    /// Slots (a power of two).
    static let capacity = 256
    static let longestText = 64

    private let slots = Mutex([[UInt8]](repeating: [], count: capacity))

    /// Whether `text` was accepted recently.
    func contains(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let slot = Self.slot(of: text) else { return false }
        return slots.withLock { $0[slot].elementsEqual(text) }
    }

    /// Remembers an accepted `text` in its slot.
    func insert(_ text: UnsafeBufferPointer<UInt8>) {
        guard let slot = Self.slot(of: text) else { return }
        slots.withLock { slots in
            if !slots[slot].elementsEqual(text) { slots[slot] = Array(text) }
        }
    }

    /// The slot of `text` (FNV-1a); nil for texts never kept: empty (an empty slot would seem to hold it) or
    /// longer than `longestText`.
    static func slot(of text: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !text.isEmpty, text.count <= longestText else { return nil }
        var hash: UInt32 = 2_166_136_261
        for byte in text { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash) & (capacity - 1)
    }
}
