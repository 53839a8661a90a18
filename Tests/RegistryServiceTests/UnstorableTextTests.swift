import Testing

@testable import JSONRPC
@testable import RegistryAPI

/// Text PostgreSQL cannot store (U+0000, unpaired surrogates) is refused by the params check of every method,
/// naming the field, wherever the string sits: a described field, a free-form object, a member name.
@Suite struct UnstorableTextTests {
    /// The field the shipped contract names for `params` of `method`; nil when it accepts them.
    private static func refusal(_ method: String, _ params: String) -> (field: String, rule: String)? {
        do {
            try ParamsContract.registry.check(method: method, params: ArraySlice(Array(params.utf8)))
            return nil
        } catch {
            return (error.field, error.rule)
        }
    }

    private static let link = #""link":{"target":"https://m.example.com/a","preview":{"title":"T"}}"#

    @Test func theSameCallsWithoutTheBadEscapeAreAccepted() {
        #expect(Self.refusal("Links.Create", #"{"app":"a",\#(Self.link)}"#) == nil)
        // Escapes that are fine: other control characters, a paired surrogate, an escaped backslash before u0000.
        let fine =
            #"{"app":"a","link":{"target":"https://m.example.com/a","preview":{"title":"a\u0001\ud83d\ude00\\u0000"}}}"#
        #expect(Self.refusal("Links.Create", fine) == nil)
    }

    @Test(arguments: [
        (
            "Links.Create", #"{"app":"a","link":{"target":"https://m.example.com/a","preview":{"title":"a\u0000b"}}}"#,
            "link.preview.title"
        ),
        ("Apps.Create", #"{"app":{"id":"a","displayName":"x\u0000"}}"#, "app.displayName"),
        (
            "Domains.Create",
            #"{"domain":{"host":"m.example.com","apps":["a"],"substitutionVariables":{"v":["x","\u0000"]}}}"#,
            "domain.substitutionVariables.v[1]"
        ),
        ("Tokens.Create", #"{"token":{"displayName":"t\u0000","role":"reader"}}"#, "token.displayName"),
        (
            "CanOpen.Check", #"{"app":"a","platform":"ios","version":"1.0","url":"https://m.example.com/\u0000"}"#,
            "url"
        ),
        (
            "Links.Create", #"{"app":"a","link":{"target":"https://m.example.com/a","preview":{"title":"\ud800x"}}}"#,
            "link.preview.title"
        ),
        (
            "Links.Create", #"{"app":"a","link":{"target":"https://m.example.com/a","preview":{"title":"\udc00"}}}"#,
            "link.preview.title"
        ),
    ])
    func aNULOrALoneSurrogateIsRefusedNamingTheField(method: String, params: String, field: String) throws {
        let refusal = try #require(Self.refusal(method, params), "\(method) accepted \(params)")
        #expect(refusal.field == field, "\(refusal)")
        #expect(refusal.rule.contains("U+0000") || refusal.rule.contains("surrogate"), "\(refusal)")
    }

    @Test func aMemberNameIsCheckedToo() throws {
        // Query item names are member names, and they are stored with the route.
        let params =
            #"{"app":"a","route":{"id":"r","pattern":{"path":"/a","query":{"x\u0000":"1"}}}}"#
        let refusal = try #require(Self.refusal("Routes.Create", params))
        #expect(refusal.field == "route.pattern.query", "\(refusal)")
        #expect(refusal.rule.contains("member name") && refusal.rule.contains("U+0000"), "\(refusal)")
    }
}
