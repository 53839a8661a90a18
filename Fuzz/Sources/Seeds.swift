import Foundation

/// Fixed inputs the targets evaluate against.
enum Seeds {
    /// The app ID of the Badoo story (ARCHITECTURE.md "The reference scenario").
    static let badooAppID = "ABCDE12345.com.badoo.Badoo"

    /// The AASA file of m.badoo.com after 5.12.0 is published (RouteCore's golden file).
    static let badooAASA = Data(
        #"""
        {"applinks":{"details":[{"appIDs":["ABCDE12345.com.badoo.Badoo"],"components":[{"?":{"ul_fallback":"?*"},\#
        "comment":"fallback marker","exclude":true},{"/":"/help/*","comment":"route help","exclude":true},\#
        {"/":"/u/*","comment":"route profile"},{"/":"/l/a/*","comment":"route lookalikes"}]}]}}
        """#.utf8)
}
