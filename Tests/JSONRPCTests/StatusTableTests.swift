import Foundation
import JSONRPC
import StatusCodes
import Testing

/// `StatusCode` is the one table of error statuses: the engine's errors, the registry's and the clients' all
/// take their number, name and HTTP status from it.
@Suite struct StatusTableTests {
    @Test func everyKnownCodeHasOneNameThatLeadsBackToIt() {
        let known = StatusCode.known
        #expect(known.count == 17)
        #expect(Set(known.map(\.name)).count == known.count)
        for code in known {
            #expect(StatusCode(name: code.name) == code, "\(code.name)")
            #expect(!code.name.hasPrefix("CODE_"))
        }
        #expect(StatusCode(rawValue: 99).name == "CODE_99")
        #expect(StatusCode(rawValue: 99).httpStatus == 500)
        #expect(StatusCode(name: "CODE_99") == nil)
    }

    /// The HTTP statuses gRPC gateways use for google.rpc.Code.
    @Test(arguments: [
        (StatusCode.invalidArgument, 400), (.failedPrecondition, 400), (.outOfRange, 400), (.unauthenticated, 401),
        (.permissionDenied, 403), (.notFound, 404), (.alreadyExists, 409), (.aborted, 409),
        (.resourceExhausted, 429), (.cancelled, 499), (.internal, 500), (.unimplemented, 501), (.unavailable, 503),
        (.deadlineExceeded, 504),
    ])
    func httpStatus(code: StatusCode, http: Int) {
        #expect(code.httpStatus == http, "\(code.name)")
    }

    @Test func theEnginesErrorsCarryTheTablesNumberAndName() {
        for code in StatusCode.known {
            let error = RPCError(code, message: "m")
            #expect(error.code == code.rawValue && error.status == code.name)
        }
        let invalid = RPCError.invalidArgument(field: "url", "is too long")
        #expect(invalid.code == StatusCode.invalidArgument.rawValue && invalid.status == "INVALID_ARGUMENT")
        #expect(invalid.fieldViolations.map(\.field) == ["url"])
        #expect(RPCError(.internal, message: "x").isInternal)
    }
}
