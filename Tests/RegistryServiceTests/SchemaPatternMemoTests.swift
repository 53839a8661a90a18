import Testing

@testable import RegistryAPI
import HTTPServing
@testable import JSONRPC

/// `SchemaPattern` remembers the short texts it accepted (`RecentMatches`): the answers must stay those of
/// the matcher, for remembered texts, their near neighbours and texts past the memory's bounds.
@Suite struct SchemaPatternMemoTests {
    let identifier = try! SchemaPattern("^[a-z][a-z0-9-]{0,62}$")
    let version = try! SchemaPattern(#"^[0-9]+(\.[0-9]+){0,3}$"#)

    @Test func answersStayTheMatchersWhenAsked() {
        for _ in 0..<3 {
            #expect(identifier.matches(Array("badoo".utf8)))
            #expect(!identifier.matches(Array("badoo!".utf8)))
            #expect(!identifier.matches(Array("Badoo".utf8)))
            #expect(!identifier.matches(Array("badoo\n".utf8)))
            #expect(version.matches(Array("5.11.0".utf8)))
            #expect(!version.matches(Array("5.11.0.1.2".utf8)))
            #expect(!version.matches(Array("5.11.".utf8)))
        }
    }

    @Test func aRefusedTextIsNeverRemembered() {
        #expect(!identifier.matches(Array("-x".utf8)))
        #expect(!identifier.matches(Array("-x".utf8)))
        let long = "a" + String(repeating: "b", count: 62)
        #expect(identifier.matches(Array(long.utf8)))
        #expect(!identifier.matches(Array((long + "c").utf8)), "64 characters is one too many")
    }

    @Test func moreTextsThanTheMemoryHoldsStayCorrect() {
        let names = (0..<(RecentMatches.capacity * 3)).map { "app-\($0)" }
        for _ in 0..<2 {
            for name in names {
                #expect(identifier.matches(Array(name.utf8)))
                #expect(!identifier.matches(Array((name + "_").utf8)))
            }
        }
    }

    @Test func theMemoryKeepsOnlyAcceptedShortTexts() {
        let memo = RecentMatches()
        let short = Array("badoo".utf8)
        let long = [UInt8](repeating: UInt8(ascii: "a"), count: RecentMatches.longestText + 1)
        short.withUnsafeBufferPointer { memo.insert($0) }
        long.withUnsafeBufferPointer { memo.insert($0) }
        #expect(short.withUnsafeBufferPointer { memo.contains($0) })
        #expect(!long.withUnsafeBufferPointer { memo.contains($0) })
        #expect(!Array("bado".utf8).withUnsafeBufferPointer { memo.contains($0) })
        let empty: [UInt8] = []
        empty.withUnsafeBufferPointer { memo.insert($0) }
        #expect(!empty.withUnsafeBufferPointer { memo.contains($0) }, "an empty slot must not pass for an empty text")
        // Many more texts than slots: the memory stays bounded, and the latest text is always remembered.
        let many = (0..<(RecentMatches.capacity * 4)).map { Array("app-\($0)".utf8) }
        for text in many {
            text.withUnsafeBufferPointer { memo.insert($0) }
            #expect(text.withUnsafeBufferPointer { memo.contains($0) })
        }
        let remembered = many.filter { text in text.withUnsafeBufferPointer { memo.contains($0) } }.count
        #expect(remembered <= RecentMatches.capacity)
        #expect(remembered > RecentMatches.capacity / 2, "the hash spreads texts over the slots")
    }
}
