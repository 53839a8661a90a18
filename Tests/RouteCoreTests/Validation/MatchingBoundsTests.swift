import Testing

@testable import RouteCore

/// The substitution bound: counted as the matcher reads `$(name)`, checked from the route's side and from
/// the domain's, refused naming the field and the bound.
@Suite struct MatchingBoundsTests {
    static let fiftyOne = ["v": (0..<51).map { "value\($0)" }]

    @Test func alternativesCountOnlyUserVariablesAsTheMatcherReadsThem() {
        let variables = ["v": ["a", "b", "c"], "lang": ["xx", "yy"], "w": ["1"]]
        #expect(ModelValidation.substitutionAlternatives("/$(v)/$(v)", variables: variables) == (2, 6))
        // Predefined names win over user lists; unknown names are text.
        #expect(ModelValidation.substitutionAlternatives("/$(lang)/$(nope)/$(w)", variables: variables) == (1, 1))
        // `$($(v))`: the first `)` closes `$(` + `$(v`, not a variable; the matcher reads on and finds `$(v)`.
        #expect(ModelValidation.substitutionAlternatives("$($(v))", variables: variables) == (1, 3))
        #expect(ModelValidation.substitutionAlternatives("/$(v)", variables: [:]) == (0, 0))
    }

    @Test func theIssueRouteIsRefusedNamingTheFieldAndTheBound() {
        let route = Route(
            id: "r", pattern: URLPattern(path: "/a/*", query: .string(String(repeating: "$(v)", count: 64))))
        #expect(throws: RegistryError.self) {
            try ModelValidation.substitutionBound(route, variables: Self.fiftyOne, host: "m.rt.example.com")
        }
        do {
            try ModelValidation.substitutionBound(route, variables: Self.fiftyOne, host: "m.rt.example.com")
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.fieldViolations.first?.field == "route.pattern.query")
            #expect(
                error.message.hasPrefix("route.pattern.query: 64 substitution tokens × 51 values exceeds 256"),
                "\(error.message)")
        }
    }

    @Test func theBoundItselfIsAllowed() throws {
        // 5 tokens × 51 values = 255, and 256 exactly with one more value-token.
        let five = Route(id: "r", pattern: URLPattern(path: String(repeating: "/$(v)", count: 5)))
        try ModelValidation.substitutionBound(five, variables: Self.fiftyOne, host: "m.example.com")
        let exact = Route(id: "r", pattern: URLPattern(path: "/$(v)/$(w)", query: .items(["q": "$(v)$(v)"])))
        try ModelValidation.substitutionBound(
            exact, variables: ["v": (0..<128).map(String.init), "w": ["x"]], host: "m.example.com")
        let over = Route(id: "r", pattern: URLPattern(path: "/a", query: .items(["q": "$(v)$(v)$(w)"])))
        do {
            try ModelValidation.substitutionBound(
                over, variables: ["v": (0..<128).map(String.init), "w": ["x"]], host: "m.example.com",
                field: "routes[3]")
            Issue.record("257 alternatives were accepted")
        } catch {
            #expect(error.fieldViolations.first?.field == "routes[3].pattern.query.q")
            #expect(error.message.contains("3 substitution tokens with 257 values in all exceeds 256"), "\(error)")
        }
    }

    @Test func aDomainIsCheckedAgainstTheRoutesAlreadyWritten() {
        let routes: [(app: String, route: Route)] = [
            ("rt", Route(id: "plain", pattern: URLPattern(path: "/p/*"))),
            (
                "rt",
                Route(
                    id: "other-host", pattern: URLPattern(path: String(repeating: "$(v)", count: 64)),
                    domains: ["x.example.com"])
            ),
            (
                "rt",
                Route(id: "wide", pattern: URLPattern(path: "/w", query: .string(String(repeating: "$(v)", count: 64))))
            ),
        ]
        var domain = Domain(host: "m.rt.example.com", apps: ["rt"], substitutionVariables: Self.fiftyOne)
        do {
            try ModelValidation.substitutionBound(domain, routes: routes)
            Issue.record("the domain was accepted")
        } catch {
            #expect(error.fieldViolations.first?.field == "domain.substitutionVariables.v")
            #expect(error.message.contains("64 substitution tokens × 51 values exceeds 256"), "\(error)")
            #expect(error.message.contains("apps/rt/routes/wide pattern.query"), "\(error)")
        }
        // Four values leave it at 256: accepted. An alias's own variables are never used: not checked.
        domain.substitutionVariables = ["v": ["a", "b", "c", "d"]]
        #expect(throws: Never.self) { try ModelValidation.substitutionBound(domain, routes: routes) }
        domain.substitutionVariables = Self.fiftyOne
        domain.aliasOf = "m.example.com"
        #expect(throws: Never.self) { try ModelValidation.substitutionBound(domain, routes: routes) }
    }

    @Test func oneAppsRoutesOnOneDomainShareATotal() throws {
        let variables = ["w": (0..<64).map { String(repeating: "a", count: $0 + 1) }]
        let full = (0..<4).map {
            Route(id: "r\($0)", pattern: URLPattern(path: "/x", query: .string("$(w)$(w)$(w)$(w)")))
        }
        #expect(
            full.map { ModelValidation.substitutionAlternatives($0, variables: variables) } == [256, 256, 256, 256])
        try ModelValidation.substitutionTotal(
            full, app: "rt", variables: variables, host: "m.rt.example.com", field: "route.pattern")
        let fifth = Route(id: "r4", pattern: URLPattern(path: "/y", fragment: "$(w)"))
        do {
            try ModelValidation.substitutionTotal(
                full + [fifth], app: "rt", variables: variables, host: "m.rt.example.com", field: "route.pattern")
            Issue.record("1,088 values were accepted")
        } catch {
            #expect(error.fieldViolations.first?.field == "route.pattern")
            #expect(error.message.contains("apps/rt's routes on domains/m.rt.example.com would offer 1088"), "\(error)")
        }
        // A domain written after them is refused for the total too, naming its widest variable.
        let routes = (full + [fifth]).map { (app: "rt", route: $0) }
        let domain = Domain(host: "m.rt.example.com", apps: ["rt"], substitutionVariables: variables)
        #expect(throws: RegistryError.self) { try ModelValidation.substitutionBound(domain, routes: routes) }
        // A custom-scheme route or one for another host counts nothing here.
        #expect(
            !ModelValidation.applies(
                Route(id: "s", pattern: URLPattern(scheme: "rt", path: "/$(w)")), on: "m.rt.example.com"))
        #expect(
            !ModelValidation.applies(
                Route(id: "o", pattern: URLPattern(path: "/$(w)"), domains: ["o.example.com"]), on: "m.rt.example.com"))
    }
}
