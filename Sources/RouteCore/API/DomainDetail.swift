/// `Domains.Get`'s answer: the domain, and how its AASA's size budget is shared among its apps.
public struct DomainDetail: FlatCodable, Sendable, Hashable {
    public var resource: Resource<Domain>
    public var budget: DomainBudget

    public init(_ resource: Resource<Domain>, budget: DomainBudget) {
        self.resource = resource
        self.budget = budget
    }

    public var halves: (Resource<Domain>, DomainBudget) { (resource, budget) }
    public init(halves: (Resource<Domain>, DomainBudget)) { self.init(halves.0, budget: halves.1) }
}

/// The AASA budget part of `DomainDetail`.
public struct DomainBudget: Codable, Sendable, Hashable {
    /// Each iOS app's bytes and share of the served AASA (`AASABudget`); nil when the server has not
    /// generated the domain's files yet.
    public var aasaBudget: [AASAShare]?

    public init(aasaBudget: [AASAShare]? = nil) { self.aasaBudget = aasaBudget }
}
