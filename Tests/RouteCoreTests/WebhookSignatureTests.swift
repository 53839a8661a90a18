import Testing

@testable import RouteCore

/// The signature a receiver checks, and the receivers a webhook may have.
@Suite struct WebhookSignatureTests {
    /// RFC 4231, test case 2.
    @Test func hmacMatchesTheRFCVector() {
        let mac = WebhookSignature.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(WebhookSignature.hex(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    /// RFC 4231, test case 6: a key longer than the block is hashed first.
    @Test func aLongKeyIsHashedFirst() {
        let mac = WebhookSignature.hmac(
            key: [UInt8](repeating: 0xAA, count: 131),
            message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
        #expect(WebhookSignature.hex(mac) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func aSignatureVerifiesOnlyForItsBodySecretAndTime() {
        let body = Array(#"{"webhook":"wh_1","events":[]}"#.utf8)
        let header = WebhookSignature.header(secret: "whsec_a", timestamp: 1_800_000_000, body: body)
        #expect(header.hasPrefix("t=1800000000,v1="))
        #expect(WebhookSignature.verify(header: header, secret: "whsec_a", body: body, now: 1_800_000_100))
        #expect(!WebhookSignature.verify(header: header, secret: "whsec_b", body: body, now: 1_800_000_100))
        #expect(!WebhookSignature.verify(header: header, secret: "whsec_a", body: body + [0x20], now: 1_800_000_100))
        // Replayed later than the tolerance.
        #expect(!WebhookSignature.verify(header: header, secret: "whsec_a", body: body, now: 1_800_000_301))
        #expect(!WebhookSignature.verify(header: "v1=00", secret: "whsec_a", body: body, now: 1_800_000_000))
    }

    @Test(arguments: [
        ("https://hooks.example.com/routereg", nil),
        ("http://hooks.example.com/routereg", "webhook.url"),
        ("https://127.0.0.1/hook", "webhook.url"),
        ("https://10.0.0.8/hook", "webhook.url"),
        ("https://[::1]/hook", "webhook.url"),
        ("https://localhost/hook", "webhook.url"),
        ("https://api.localhost/hook", "webhook.url"),
        ("https://intranet/hook", "webhook.url"),
        ("https://user:pw@hooks.example.com/", "webhook.url"),
        ("https://hooks.example.com/a b", "webhook.url"),
        ("ftp://hooks.example.com/", "webhook.url"),
        ("hooks.example.com/x", "webhook.url"),
    ])
    func receiversAreCheckedLikeDestinations(url: String, refusedField: String?) {
        switch WebhookURLCheck().check(url) {
        case .success: #expect(refusedField == nil, "\(url) was accepted")
        case .failure(let error): #expect(error.fieldViolations.map(\.field) == [refusedField ?? "-"], "\(url)")
        }
    }

    @Test func anAdminAllowedHostMayBeInsideAndPlainHTTP() {
        let check = WebhookURLCheck(allowedHosts: ["127.0.0.1", "hooks.corp"])
        #expect((try? check.check("http://127.0.0.1:9000/hook").get()) == "http://127.0.0.1:9000/hook")
        #expect((try? check.check("http://hooks.corp/x").get()) != nil)
        #expect((try? check.check("http://10.0.0.1/x").get()) == nil)
    }
}
