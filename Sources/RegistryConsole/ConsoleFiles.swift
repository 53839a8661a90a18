/// The console's files, embedded in the binary by SwiftPM (`.embedInCode("Files")` flattens them into
/// `PackageResources`). `ConsoleFilesTests` checks this list names every file of `Files/`.
public enum ConsoleFiles {
    /// Every file, by name.
    public static let all: [(name: String, bytes: [UInt8])] = [
        ("app.js", PackageResources.app_js),
        ("apps.js", PackageResources.apps_js),
        ("audit.js", PackageResources.audit_js),
        ("chart.js", PackageResources.chart_js),
        ("console.css", PackageResources.console_css),
        ("diff.js", PackageResources.diff_js),
        ("documents.js", PackageResources.documents_js),
        ("dom.js", PackageResources.dom_js),
        ("favicon.svg", PackageResources.favicon_svg),
        ("index.html", PackageResources.index_html),
        ("links.js", PackageResources.links_js),
        ("linkqr.js", PackageResources.linkqr_js),
        ("live.js", PackageResources.live_js),
        ("matrix.js", PackageResources.matrix_js),
        ("model.js", PackageResources.model_js),
        ("publish.js", PackageResources.publish_js),
        ("rpc.js", PackageResources.rpc_js),
        ("signin.js", PackageResources.signin_js),
        ("ui.js", PackageResources.ui_js),
        ("webhooks.js", PackageResources.webhooks_js),
    ]
}
