/// How a campaign travels with each destination. Pure string work on URLs already checked as destinations.
extension LinkCampaign {
    /// `url` with the campaign's `utm_*` items appended to its query, before any fragment. An item the URL
    /// already names is kept as written: whoever wrote the destination chose it on purpose.
    public func applied(to url: String) -> String {
        let parameters = parameters
        guard !parameters.isEmpty else { return url }
        let hashIndex = url.firstIndex(of: "#") ?? url.endIndex
        let beforeFragment = url[..<hashIndex]
        let queryStart = beforeFragment.firstIndex(of: "?")
        let existing = Set(
            (queryStart.map { beforeFragment[beforeFragment.index(after: $0)...] } ?? "")
                .split(separator: "&").map { $0.prefix { $0 != "=" } })
        let added = parameters.filter { !existing.contains(Substring($0.name)) }
            .map { "\($0.name)=\(StoreLinks.percentEncode($0.value))" }
        guard !added.isEmpty else { return url }
        var separator = "?"
        if queryStart != nil { separator = beforeFragment.hasSuffix("?") || beforeFragment.hasSuffix("&") ? "" : "&" }
        return beforeFragment + separator + added.joined(separator: "&") + url[hashIndex...]
    }

    /// The Play Store `referrer`: the campaign's `utm_*` items, then `link={domain}/{code}` so the app can tell
    /// which link brought the install.
    public func playReferrer(link: String) -> String {
        (parameters.map { "\($0.name)=\(StoreLinks.percentEncode($0.value))" } + ["link=\(link)"])
            .joined(separator: "&")
    }
}
