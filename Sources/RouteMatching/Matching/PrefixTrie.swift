/// Rule indices keyed by the fixed-width start of their path pattern, in a trie stored in flat arrays.
///
/// A key is bytes plus `anyScalar` steps (a `?` or a one-character variable). Walking a URL's path down
/// the trie, following both the byte edge and the any-scalar edge, visits exactly the keys the path can
/// start with; the rules stored at those nodes are the only rules of this form whose path can match.
struct PrefixTrie: Sendable {
    /// A key step matching any one character (one UTF-8 scalar).
    static let anyScalar: Int16 = -1

    private struct Node: Sendable {
        var edgeStart: Int32 = 0
        var edgeCount: Int32 = 0
        var postingStart: Int32 = 0
        var postingCount: Int32 = 0
        var anyChild: Int32 = -1
    }

    private var nodes: [Node] = []
    private var edgeBytes: [UInt8] = []
    private var edgeTargets: [Int32] = []
    /// Rule indices, ascending within each node.
    private(set) var postings: [Int32] = []
    /// The most nodes with postings one walk can visit: how many lists a lookup can produce.
    private(set) var maxListsPerWalk = 0
    var isEmpty: Bool { postings.isEmpty }

    /// Builds the trie from `(key, rule index)` pairs.
    init(_ entries: [(key: [Int16], rule: Int)]) {
        // Build with dictionaries, then freeze into sorted flat arrays. Children always get larger node
        // numbers than their parents, which the bound computation below relies on.
        var children: [[Int16: Int]] = [[:]]
        var rulesAt: [[Int32]] = [[]]
        for (key, rule) in entries {
            var node = 0
            for step in key {
                if let next = children[node][step] {
                    node = next
                } else {
                    children.append([:])
                    rulesAt.append([])
                    children[node][step] = children.count - 1
                    node = children.count - 1
                }
            }
            rulesAt[node].append(Int32(rule))
        }
        for index in children.indices {
            var node = Node()
            node.edgeStart = Int32(edgeBytes.count)
            for (step, target) in children[index].sorted(by: { $0.key < $1.key }) {
                if step == Self.anyScalar {
                    node.anyChild = Int32(target)
                } else {
                    edgeBytes.append(UInt8(step))
                    edgeTargets.append(Int32(target))
                }
            }
            node.edgeCount = Int32(edgeBytes.count) - node.edgeStart
            node.postingStart = Int32(postings.count)
            postings += rulesAt[index].sorted()
            node.postingCount = Int32(postings.count) - node.postingStart
            nodes.append(node)
        }
        // lists(n) = own postings + lists(any-child) + the most of any byte child: a walk takes at most one
        // byte edge per node but may also take the any-scalar edge.
        var lists = [Int](repeating: 0, count: nodes.count)
        for index in nodes.indices.reversed() {
            let node = nodes[index]
            var bestChild = 0
            for edge in Int(node.edgeStart)..<Int(node.edgeStart + node.edgeCount) {
                bestChild = max(bestChild, lists[Int(edgeTargets[edge])])
            }
            lists[index] =
                (node.postingCount > 0 ? 1 : 0) + bestChild + (node.anyChild >= 0 ? lists[Int(node.anyChild)] : 0)
        }
        maxListsPerWalk = lists.first ?? 0
    }

    /// Calls `visit(start, end)` with the posting range (in `postings`) of every node the path's walk
    /// reaches.
    @inline(__always)
    func walk(_ path: UnsafeBufferPointer<UInt8>, _ visit: (Int32, Int32) -> Void) {
        nodes.withUnsafeBufferPointer { nodes in
            edgeBytes.withUnsafeBufferPointer { edgeBytes in
                edgeTargets.withUnsafeBufferPointer { edgeTargets in
                    Self.walk(path, 0, 0, nodes, edgeBytes, edgeTargets, visit)
                }
            }
        }
    }

    private static func walk(
        _ path: UnsafeBufferPointer<UInt8>, _ start: Int, _ from: Int, _ nodes: UnsafeBufferPointer<Node>,
        _ edgeBytes: UnsafeBufferPointer<UInt8>, _ edgeTargets: UnsafeBufferPointer<Int32>,
        _ visit: (Int32, Int32) -> Void
    ) {
        var index = start
        var position = from
        while true {
            let node = nodes[index]
            if node.postingCount > 0 { visit(node.postingStart, node.postingStart + node.postingCount) }
            guard position < path.count else { return }
            if node.anyChild >= 0 {
                let next = min(path.count, position + TextForms.scalarLength(path[position]))
                walk(path, Int(node.anyChild), next, nodes, edgeBytes, edgeTargets, visit)
            }
            guard let child = child(of: node, path[position], edgeBytes, edgeTargets) else { return }
            index = child
            position += 1
        }
    }

    @inline(__always)
    private static func child(
        of node: Node, _ byte: UInt8, _ edgeBytes: UnsafeBufferPointer<UInt8>, _ edgeTargets: UnsafeBufferPointer<Int32>
    ) -> Int? {
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
