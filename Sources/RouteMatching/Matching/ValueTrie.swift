/// A user variable's plain values (no `?` or `*`) as a byte trie, walked from a whole `PositionSet` at once.
///
/// Values sharing a prefix share its nodes, so a prefix is tried once for every reachable position
/// together (a shifted bit-set intersection per node) instead of once per position and value. The walk
/// stops where no reachable position still agrees with the prefix, so its cost is the trie's nodes that
/// the URL actually holds somewhere, times the URL's length over 64.
struct ValueTrie {
    private struct Node {
        var isValue = false
        var children: [(byte: UInt8, node: Int)] = []
    }

    private var nodes = [Node()]

    /// The trie of `values` (duplicates are harmless).
    init<Values: Sequence>(_ values: Values) where Values.Element == [UInt8] {
        for value in values {
            var node = 0
            for byte in value {
                if let child = nodes[node].children.first(where: { $0.byte == byte }) {
                    node = child.node
                } else {
                    nodes.append(Node())
                    nodes[node].children.append((byte, nodes.count - 1))
                    node = nodes.count - 1
                }
            }
            nodes[node].isValue = true
        }
    }

    /// Every byte on an edge: the occurrence sets a walk may ask for.
    var bytes: Set<UInt8> {
        var bytes = Set<UInt8>()
        for node in nodes { for child in node.children { bytes.insert(child.byte) } }
        return bytes
    }

    /// How many nodes the trie holds (the root included).
    var nodeCount: Int { nodes.count }

    /// Adds to `next` every `p + value.count` for `p` in `from` and a value that `s` holds at `p`.
    /// `occurrences(byte)` gives the positions where `s` holds `byte` (cached by the caller for one match).
    func advance(
        from positions: PositionSet, into next: inout PositionSet,
        occurrences: (UInt8) -> PositionSet
    ) {
        var stack: [(node: Int, depth: Int, set: PositionSet)] = [(0, 0, positions)]
        while let (node, depth, set) = stack.popLast() {
            if nodes[node].isValue { next.formUnion(set, shiftedUpBy: depth) }
            for child in nodes[node].children {
                var narrowed = set
                narrowed.formIntersection(occurrences(child.byte), shiftedDownBy: depth)
                if !narrowed.isEmpty { stack.append((child.node, depth + 1, narrowed)) }
            }
        }
    }
}
