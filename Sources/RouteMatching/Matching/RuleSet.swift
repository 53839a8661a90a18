/// A compiled, ordered list of `components` rules: the first rule that matches a URL decides (Apple's
/// semantics), whether it opens the app or excludes.
///
/// Compile once, evaluate many URLs. `firstMatch` looks only at the rules whose literal path prefix the
/// URL's path starts with (plus the rules without a path), in rule order, and stops at the first match,
/// so its cost grows with the candidates rather than the list; it gives exactly the answer of the linear
/// scan `firstMatchLinear` (a randomized test holds them equal).
public struct RuleSet: Sendable {
    /// The rules, in order.
    public var rules: [ComponentRule] { storage.rules }
    var compiled: [CompiledRule] { storage.compiled }
    /// The document's own `$(name)` lists the rules were compiled with.
    var substitutionVariables: [String: [String]] { storage.substitutionVariables }

    /// Everything compiled, behind one reference: a rule set is copied on every decision (the engine's scopes,
    /// an app's marker), and copying seven arrays meant seven reference counts that every request thread
    /// writes, on the same cache lines.
    private let storage: Storage

    private final class Storage: Sendable {
        let rules: [ComponentRule]
        let compiled: [CompiledRule]
        /// One trie per `MatchForm`: path rules are indexed in the form they compare in.
        let tries: [PrefixTrie]
        /// Forms whose trie has rules, so a lookup computes only the path forms it needs.
        let usedForms: [MatchForm]
        /// Every trie's postings, then the rules without a path pattern (candidates for every URL): one pool,
        /// so the merge below reads rule indices without touching the tries.
        let postings: [Int32]
        /// Where each trie's postings start in `postings`.
        let postingBase: [Int32]
        /// The range of `postings` holding the unindexed rules.
        let unindexed: Range<Int32>
        let maxLists: Int
        let substitutionVariables: [String: [String]]

        init(
            rules: [ComponentRule], compiled: [CompiledRule], tries: [PrefixTrie], usedForms: [MatchForm],
            postings: [Int32], postingBase: [Int32], unindexed: Range<Int32>, maxLists: Int,
            substitutionVariables: [String: [String]]
        ) {
            self.rules = rules
            self.compiled = compiled
            self.tries = tries
            self.usedForms = usedForms
            self.postings = postings
            self.postingBase = postingBase
            self.unindexed = unindexed
            self.maxLists = maxLists
            self.substitutionVariables = substitutionVariables
        }
    }

    /// Compiles `rules`; `substitutionVariables` are the document's own `$(name)` lists (Apple's predefined
    /// variables are always available). Rules `previous` already compiled with the same variables are
    /// taken from it: a write changes one route, and compiling every pattern again would make each write
    /// cost as much as compiling the whole app (compiled rules are immutable, so sharing them is safe).
    public init(
        rules: [ComponentRule], substitutionVariables: [String: [String]] = [:], reusing previous: RuleSet? = nil
    ) {
        let variables = SubstitutionVariables(substitutionVariables)
        let compiled: [CompiledRule]
        if let previous, previous.substitutionVariables == substitutionVariables, !previous.rules.isEmpty {
            compiled = Self.compile(rules, variables: variables, reusing: previous)
        } else {
            compiled = rules.map { CompiledRule($0, variables: variables) }
        }
        var entries: [[(key: [Int16], rule: Int)]] = [[], [], [], []]
        var unindexed: [Int32] = []
        for (index, rule) in compiled.enumerated() {
            if let path = rule.path {
                entries[rule.form.index].append((path.indexKey, index))
            } else {
                unindexed.append(Int32(index))
            }
        }
        let tries = entries.map(PrefixTrie.init)
        var pool: [Int32] = []
        var bases: [Int32] = []
        for trie in tries {
            bases.append(Int32(pool.count))
            pool += trie.postings
        }
        let unindexedRange = Int32(pool.count)..<Int32(pool.count + unindexed.count)
        pool += unindexed
        storage = Storage(
            rules: rules, compiled: compiled, tries: tries,
            usedForms: MatchForm.all.filter { !tries[$0.index].isEmpty },
            postings: pool, postingBase: bases, unindexed: unindexedRange,
            maxLists: tries.reduce(1) { $0 + $1.maxListsPerWalk }, substitutionVariables: substitutionVariables)
    }

    /// `rules` compiled, sharing what `previous` compiled: the common head and tail are matched in place (a
    /// write inserts, edits or removes one rule, and equal rules taken from the same registry compare in
    /// constant time), and only a long changed middle, such as a reorder, is looked up by value.
    private static func compile(
        _ rules: [ComponentRule], variables: SubstitutionVariables, reusing previous: RuleSet
    ) -> [CompiledRule] {
        let old = previous.rules
        let shorter = min(rules.count, old.count)
        var head = 0
        while head < shorter && rules[head] == old[head] { head += 1 }
        var tail = 0
        while tail < shorter - head && rules[rules.count - 1 - tail] == old[old.count - 1 - tail] { tail += 1 }
        let middle = head..<(rules.count - tail)
        var known: [ComponentRule: CompiledRule] = [:]
        if middle.count > 8 {
            for index in head..<(old.count - tail) { known[old[index]] = previous.compiled[index] }
        }
        var compiled = Array(previous.compiled[..<head])
        compiled.reserveCapacity(rules.count)
        for index in middle { compiled.append(known[rules[index]] ?? CompiledRule(rules[index], variables: variables)) }
        compiled += previous.compiled[(old.count - tail)...]
        return compiled
    }

    /// The index of the rule that decides `url`, nil when none matches. Host and scheme are not looked
    /// at: choosing the rule list for a host is the caller's business.
    public func firstMatch(_ url: LinkURL) -> Int? {
        var subject = MatchSubject()
        // Each candidate list is an ascending run of `postings`; merge them lazily in rule order and stop
        // at the first rule that matches: no later candidate can come before it.
        return withUnsafeTemporaryAllocation(of: Range<Int32>.self, capacity: storage.maxLists) { lists in
            var count = 0
            if !storage.unindexed.isEmpty {
                lists[0] = storage.unindexed
                count = 1
            }
            for form in storage.usedForms {
                let base = storage.postingBase[form.index]
                let path = subject.path(form, url)
                path.withUnsafeBufferPointer { path in
                    storage.tries[form.index].walk(path) { start, end in
                        lists[count] = (base + start)..<(base + end)
                        count += 1
                    }
                }
            }
            return storage.postings.withUnsafeBufferPointer { postings in
                storage.compiled.withUnsafeBufferPointer { compiled in
                    while true {
                        var best = Int32.max
                        var bestList = -1
                        for list in 0..<count where !lists[list].isEmpty {
                            let rule = postings[Int(lists[list].lowerBound)]
                            if rule < best {
                                best = rule
                                bestList = list
                            }
                        }
                        guard bestList >= 0 else { return nil }
                        lists[bestList] = (lists[bestList].lowerBound + 1)..<lists[bestList].upperBound
                        if compiled[Int(best)].matches(&subject, url) { return Int(best) }
                    }
                }
            }
        }
    }

    /// The reference answer: every rule in order until one matches.
    public func firstMatchLinear(_ url: LinkURL) -> Int? {
        var subject = MatchSubject()
        return storage.compiled.firstIndex { $0.matches(&subject, url) }
    }
}
