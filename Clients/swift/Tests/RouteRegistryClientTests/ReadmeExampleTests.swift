// Only the one import the README tells apps to write: this file stops compiling if an example needs more.
import Foundation
import RouteRegistryClient
import Testing

/// The README's examples, compiled (and, where they do not need UIKit, run) as an app writes them.
@Suite("README examples")
struct ReadmeExampleTests {
    /// The "Ten lines" example, with the app's own pieces (router, Safari) as closures.
    static func tenLines(
        caches: URL, bundled: URL?, show: (String, URL) -> Void, openInApp: (URL) -> Void,
        openInSafari: (URL) -> Void, url: URL
    ) -> CanOpenStore {
        // README: begin
        let store = CanOpenStore(
            client: RPCClient(server: URL(string: "https://registry.example.com")!),
            app: "badoo",
            version: try? Version("5.12.0"),  // default: CFBundleShortVersionString
            cachesDirectory: caches,
            bundledTableURL: bundled)
        store.startAutoRefresh()  // now, every hour, and on return to the foreground

        switch store.route(url) {  // local, synchronous, thread-safe: no network
        case .openInApp(let route, let url): show(route, url)  // the registry's route ID: "profile"
        case .passThrough: openInApp(url)  // a custom scheme that is not the registry's (OAuth, an SDK)
        case .openInBrowser(let web): openInSafari(web)
        case .ignore: break
        }
        // README: end
        store.stopAutoRefresh()
        return store
    }

    @Test func theTenLinesCompileWithOneImportAndRouteWithTheBundledTable() throws {
        let caches = try BadooFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: caches) }
        let bundled = caches.appendingPathComponent("CanOpenTable.json")
        try CanonicalJSON.encode(try BadooFixture.table(BadooFixture.registry(), version: "5.12.0").table)
            .write(to: bundled)
        let opened = Locked<[String]>([])
        for link in ["https://m.badoo.com/u/1", "myapp-oauth://callback?code=1", "https://m.badoo.com/help/faq"] {
            _ = Self.tenLines(
                caches: caches, bundled: bundled,
                show: { route, url in opened.withLock { $0.append("\(route) " + url.absoluteString) } },
                openInApp: { url in opened.withLock { $0.append("app " + url.absoluteString) } },
                openInSafari: { url in opened.withLock { $0.append("web " + url.absoluteString) } },
                url: URL(string: link)!)
        }
        #expect(
            opened.value == [
                "profile https://m.badoo.com/u/1", "app myapp-oauth://callback?code=1",
                "web https://m.badoo.com/help/faq?ul_fallback=1",
            ])
    }
}
