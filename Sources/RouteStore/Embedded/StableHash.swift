/// A short, stable name for a path (FNV-1a, 64 bits, hex): the same data directory always maps to the same
/// relocated cluster or socket directory, across runs and processes. Not a security measure.
func stableHash(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash &*= 0x100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}
