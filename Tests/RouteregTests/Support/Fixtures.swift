import Foundation

/// Server results of the Badoo story (ARCHITECTURE.md "The reference scenario"), written as the server sends them.
enum Fixtures {
    /// "Now" for every in-process run: 2026-11-29T18:00:00Z.
    static let now = Date(timeIntervalSince1970: 1_795_975_200)

    static let app = """
        {"id":"badoo","displayName":"Badoo","ios":{"appIds":["ABCDE12345.com.badoo.Badoo"]},"schemes":["badoo"],\
        "fallback":{"queryItem":"ul_fallback","value":"1"},"name":"apps/badoo","etag":"\\"a1\\"",\
        "createTime":"2026-11-29T17:00:00Z","updateTime":"2026-11-29T17:57:00Z"}
        """

    static let routes = """
        {"routes":[\
        {"id":"help","pattern":{"path":"/help/*"},"action":"exclude","platforms":{},"switchedOff":{},"domains":[],\
        "name":"apps/badoo/routes/help","app":"badoo","position":0,"etag":"\\"r1\\"","createTime":"2026-11-29T17:00:00Z"},\
        {"id":"profile","pattern":{"path":"/u/*"},"action":"open","platforms":{"ios":{"since":"5.0","until":null}},\
        "switchedOff":{},"domains":[],"comment":"Profiles","name":"apps/badoo/routes/profile","app":"badoo","position":1,\
        "etag":"\\"r2\\"","createTime":"2026-11-29T17:00:00Z"},\
        {"id":"lookalikes","pattern":{"path":"/l/a/*","query":{"ref":"*"}},"action":"open",\
        "platforms":{"ios":{"since":"5.12.0","until":null},"android":{"since":"51200","until":"60000"}},\
        "switchedOff":{"ios":[{"version":"5.12.0","reason":"crash"}]},"domains":["m.badoo.com"],\
        "name":"apps/badoo/routes/lookalikes","app":"badoo","position":2,"etag":"\\"r3\\"",\
        "createTime":"2026-11-29T17:30:00Z","updateTime":"2026-11-29T17:58:00Z"}\
        ],"nextPageToken":""}
        """

    static let lookalikes = """
        {"id":"lookalikes","pattern":{"path":"/l/a/*"},"action":"open","platforms":{"ios":{"since":"5.12.0","until":null}},\
        "switchedOff":{},"domains":[],"comment":"Lookalikes","name":"apps/badoo/routes/lookalikes","app":"badoo",\
        "position":2,"etag":"\\"r3\\"","createTime":"2026-11-29T17:59:30Z"}
        """

    static let publish = """
        {"release":{"name":"apps/badoo/platforms/ios/releases/5.12.0","app":"badoo","platform":"ios","version":"5.12.0",\
        "state":"live","createTime":"2026-11-29T18:00:00Z","publishTime":"2026-11-29T18:00:00Z"},\
        "revisions":[{"host":"badoo.com","kind":"aasa","revision":1,"etag":"\\"e1\\"","changed":false},\
        {"host":"m.badoo.com","kind":"aasa","revision":3,"etag":"\\"e3\\"","changed":true}],\
        "lint":[{"severity":"warning","code":"overlapping_open_ranges","message":"/l/a/* overlaps /l/*","route":"lookalikes"}]}
        """

    static let diff = """
        {"added":[{"app":"ABCDE12345.com.badoo.Badoo","index":3,"rule":{"/":"/l/a/*","comment":"lookalikes"}}],\
        "removed":[],"changed":[]}
        """

    static let preview = """
        {"documents":[{"host":"m.badoo.com","kind":"aasa","etag":"\\"e3\\"","changed":true,"document":{},\
        "diff":\(diff)},{"host":"badoo.com","kind":"aasa","etag":"\\"e1\\"","changed":false,"document":{},\
        "diff":{"added":[],"removed":[],"changed":[]}}],"lint":[]}
        """

    static let matrix = """
        {"app":"badoo","platform":"ios","versions":["5.11.0","5.12.0"],"routes":[\
        {"route":"help","pattern":{"path":"/help/*"},"action":"exclude",\
        "cells":[{"version":"5.11.0","state":"excluded"},{"version":"5.12.0","state":"excluded"}]},\
        {"route":"profile","pattern":{"path":"/u/*"},"action":"open","supportedSince":"5.0",\
        "cells":[{"version":"5.11.0","state":"open"},{"version":"5.12.0","state":"open"}]},\
        {"route":"lookalikes","pattern":{"path":"/l/a/*"},"action":"open","supportedSince":"5.12.0",\
        "cells":[{"version":"5.11.0","state":"fallback"},{"version":"5.12.0","state":"switched_off"}]}]}
        """

    static let fallbackDecision = """
        {"decision":"open_in_browser","reason":"unsupported_version","route":"lookalikes",\
        "fallbackUrl":"https://m.badoo.com/l/a/42?ul_fallback=1","supportedSince":"5.12.0"}
        """

    static let openDecision = #"{"decision":"open_in_app","reason":"route","route":"profile"}"#

    static let revisions = """
        {"revisions":[{"revision":3,"etag":"\\"e3\\"","cause":"publish ios 5.12.0","createTime":"2026-11-29T17:58:00Z"},\
        {"revision":2,"etag":"\\"e2\\"","cause":"publish ios 5.11.0","createTime":"2026-11-28T10:00:00Z"}],\
        "nextPageToken":"p2"}
        """

    static let document = """
        {"host":"m.badoo.com","kind":"aasa","revision":3,"etag":"\\"e3\\"","cause":"publish ios 5.12.0",\
        "createTime":"2026-11-29T17:58:00Z","document":{"applinks":{"details":[{"appIDs":["ABCDE12345.com.badoo.Badoo"],\
        "components":[{"/":"/u/*","comment":"profile"}]}]}}}
        """

    static let audit = """
        {"entries":[{"id":"2","at":"2026-11-29T17:59:00Z","actor":"ci-release","method":"Releases.Publish",\
        "resource":"apps/badoo/platforms/ios/releases/5.12.0","before":null,"after":null,"requestId":"q2"},\
        {"id":"1","at":"2026-11-29T16:00:00Z","actor":"admin","method":"Apps.Create","resource":"apps/badoo",\
        "before":null,"after":{"id":"badoo"},"requestId":"q1"}],"nextPageToken":""}
        """

    static let releases = """
        {"releases":[{"name":"apps/badoo/platforms/ios/releases/5.12.0","app":"badoo","platform":"ios",\
        "version":"5.12.0","state":"live","createTime":"2026-11-29T17:00:00Z","publishTime":"2026-11-29T17:50:00Z"},\
        {"name":"apps/badoo/platforms/ios/releases/5.11.0","app":"badoo","platform":"ios","version":"5.11.0",\
        "state":"retired","createTime":"2026-11-01T10:00:00Z","publishTime":"2026-11-02T10:00:00Z",\
        "retireTime":"2026-11-29T15:00:00Z"}],"nextPageToken":""}
        """
}
