import Foundation
import Testing

@testable import RouteMatching

/// FIPS 180-4 / NIST test vectors, including the padding edge cases at 55, 56 and 64 bytes.
@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
        (
            "The quick brown fox jumps over the lazy dog",
            "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"
        ),
    ])
    func knownVectors(_ input: String, _ expected: String) {
        #expect(SHA256.hex(Array(input.utf8)) == expected)
    }

    @Test func millionAs() {
        #expect(
            SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test(arguments: [55, 56, 63, 64, 65, 119, 120])
    func paddingBoundariesDigestDistinctly(_ length: Int) {
        let a = SHA256.digest([UInt8](repeating: 0x61, count: length))
        let b = SHA256.digest([UInt8](repeating: 0x61, count: length + 1))
        #expect(a.count == 32 && a != b)
    }

    @Test func fiftySixBytesVector() {
        // 56 bytes forces a second padding block.
        #expect(
            SHA256.hex([UInt8](repeating: 0x61, count: 56))
                == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
    }
}
