/// Rule indices keyed by the literal prefix of their path pattern, in a byte trie stored in flat arrays.
///
/// Walking a URL's path down the trie visits exactly the prefixes the path starts with; the rules stored
/// at those nodes are the only rules of this form whose path can match.
struct PrefixTrie: Sendable {
    private struct Node: Sendable {
        var edgeStart: Int32 = 0
        var edgeCount: Int32 = 0
        var postingStart: Int32 = 0
        var postingCount: Int32 = 0
    }

    private var nodes: [Node] = []
    private var edgeBytes: [UInt8] = []
    private var edgeTargets: [Int32] = []
    /// Rule indices, ascending within each node.
    private(set) var postings: [Int32] = []
    /// The most nodes with postings one walk can meet: how many lists a lookup can produce.
    private(set) var maxListsPerWalk = 0
    var isEmpty: Bool { postings.isEmpty }

    /// Builds the trie from `(prefix, rule index)` pairs.
    init(_ entries: [(prefix: [UInt8], rule: Int)]) {
        // Build with dictionaries, then freeze into sorted flat arrays.
        var children: [[UInt8: Int]] = [[:]]
        var rulesAt: [[Int32]] = [[]]
        for (prefix, rule) in entries {
            var node = 0
            for byte in prefix {
                if let next = children[node][byte] {
                    node = next
                } else {
                    children.append([:])
                    rulesAt.append([])
                    children[node][byte] = children.count - 1
                    node = children.count - 1
                }
            }
            rulesAt[node].append(Int32(rule))
        }
        nodes = []
        nodes.reserveCapacity(children.count)
        for index in children.indices {
            var node = Node()
            node.edgeStart = Int32(edgeBytes.count)
            for (byte, target) in children[index].sorted(by: { $0.key < $1.key }) {
                edgeBytes.append(byte)
                edgeTargets.append(Int32(target))
            }
            node.edgeCount = Int32(edgeBytes.count) - node.edgeStart
            node.postingStart = Int32(postings.count)
            postings += rulesAt[index].sorted()
            node.postingCount = Int32(postings.count) - node.postingStart
            nodes.append(node)
        }
        maxListsPerWalk = isEmpty ? 0 : Self.deepestPostingCount(nodes: nodes, edgeTargets: edgeTargets)
    }

    /// Over all root-to-node walks, the largest number of nodes holding postings.
    private static func deepestPostingCount(nodes: [Node], edgeTargets: [Int32]) -> Int {
        var best = 0
        var stack: [(node: Int, count: Int)] = [(0, nodes[0].postingCount > 0 ? 1 : 0)]
        while let (index, count) = stack.popLast() {
            best = max(best, count)
            let node = nodes[index]
            for edge in Int(node.edgeStart)..<Int(node.edgeStart + node.edgeCount) {
                let child = Int(edgeTargets[edge])
                stack.append((child, count + (nodes[child].postingCount > 0 ? 1 : 0)))
            }
        }
        return best
    }

    /// Calls `visit(start, end)` with the posting range of every node on the walk of `path`.
    @inline(__always)
    func walk(_ path: UnsafeBufferPointer<UInt8>, _ visit: (Int32, Int32) -> Void) {
        nodes.withUnsafeBufferPointer { nodes in
            edgeBytes.withUnsafeBufferPointer { edgeBytes in
                var node = nodes[0]
                if node.postingCount > 0 { visit(node.postingStart, node.postingStart + node.postingCount) }
                for byte in path {
                    guard let child = child(of: node, byte, edgeBytes) else { return }
                    node = nodes[child]
                    if node.postingCount > 0 { visit(node.postingStart, node.postingStart + node.postingCount) }
                }
            }
        }
    }

    @inline(__always)
    private func child(of node: Node, _ byte: UInt8, _ edgeBytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var low = Int(node.edgeStart)
        var high = low + Int(node.edgeCount)
        if high - low <= 8 {
            while low < high {
                if edgeBytes[low] == byte { return Int(edgeTargets[low]) }
                low += 1
            }
            return nil
        }
        while low < high {
            let middle = (low + high) / 2
            let value = edgeBytes[middle]
            if value == byte { return Int(edgeTargets[middle]) }
            if value < byte { low = middle + 1 } else { high = middle }
        }
        return nil
    }
}
