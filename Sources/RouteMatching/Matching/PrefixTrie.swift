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
        // The keys in order (ties by rule): each key then shares the longest prefix any earlier key has with
        // its predecessor, so one pass with a stack of the previous key's nodes makes every node, numbered
        // depth first (children after their parents, which the bound below relies on), and each node's
        // edges come in ascending step order. Only flat arrays are allocated: a dictionary per node made
        // building the rules of a large app mostly allocation, and slower still in a large, fragmented heap.
        let order = entries.indices.sorted { a, b in
            let (x, y) = (entries[a], entries[b])
            if x.key == y.key { return x.rule < y.rule }
            return x.key.lexicographicallyPrecedes(y.key)
        }
        var nodeCount = 1
        var edges: [(parent: Int32, step: Int16, child: Int32)] = []
        var placed: [(node: Int32, rule: Int32)] = []
        placed.reserveCapacity(entries.count)
        var path: [Int32] = [0]
        var previous: [Int16] = []
        for index in order {
            let key = entries[index].key
            var shared = 0
            while shared < key.count, shared < previous.count, key[shared] == previous[shared] { shared += 1 }
            path.removeSubrange((shared + 1)...)
            for step in key[shared...] {
                let child = Int32(nodeCount)
                nodeCount += 1
                edges.append((path[path.count - 1], step, child))
                path.append(child)
            }
            placed.append((path[path.count - 1], Int32(entries[index].rule)))
            previous = key
        }
        // Edges and postings grouped by node, in the order they were made (a counting sort).
        var edgeStarts = [Int32](repeating: 0, count: nodeCount + 1)
        var postingStarts = [Int32](repeating: 0, count: nodeCount + 1)
        for edge in edges where edge.step != Self.anyScalar { edgeStarts[Int(edge.parent) + 1] += 1 }
        for posting in placed { postingStarts[Int(posting.node) + 1] += 1 }
        for node in 0..<nodeCount {
            edgeStarts[node + 1] += edgeStarts[node]
            postingStarts[node + 1] += postingStarts[node]
        }
        nodes = (0..<nodeCount).map { node in
            Node(
                edgeStart: edgeStarts[node], edgeCount: edgeStarts[node + 1] - edgeStarts[node],
                postingStart: postingStarts[node], postingCount: postingStarts[node + 1] - postingStarts[node])
        }
        edgeBytes = [UInt8](repeating: 0, count: Int(edgeStarts[nodeCount]))
        edgeTargets = [Int32](repeating: 0, count: Int(edgeStarts[nodeCount]))
        postings = [Int32](repeating: 0, count: placed.count)
        var nextEdge = edgeStarts
        for edge in edges {
            if edge.step == Self.anyScalar {
                nodes[Int(edge.parent)].anyChild = edge.child
            } else {
                let slot = Int(nextEdge[Int(edge.parent)])
                edgeBytes[slot] = UInt8(edge.step)
                edgeTargets[slot] = edge.child
                nextEdge[Int(edge.parent)] += 1
            }
        }
        var nextPosting = postingStarts
        for posting in placed {
            postings[Int(nextPosting[Int(posting.node)])] = posting.rule
            nextPosting[Int(posting.node)] += 1
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
