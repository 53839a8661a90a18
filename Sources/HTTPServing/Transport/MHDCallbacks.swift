import CMicroHTTPD

// libmicrohttpd's callbacks: top-level functions without captures, so they convert to C function pointers.
// The server travels in `cls`, the request in `*con_cls`.

/// The access handler. The first call only records the request (answering on the first call makes
/// libmicrohttpd 0.9.75 close the connection, losing keep-alive); upload calls collect the body; the last
/// call (no upload data) answers.
func mhdAccessHandler(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?, _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let conCls, let uploadDataSize else { return MHD_Result.NO }
    // Borrowed, not retained: the server holds its core while the daemon runs, and a retain per call would
    // write a cache line every worker thread shares.
    return Unmanaged<ServerCore>.fromOpaque(cls)._withUnsafeGuaranteedRef { core in
        access(core, connection, url, method, version, uploadData, uploadDataSize, conCls)
    }
}

private func access(
    _ core: ServerCore, _ connection: OpaquePointer, _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?,
    _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?, _ uploadDataSize: UnsafeMutablePointer<Int>,
    _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>
) -> MHD_Result {

    // The first call finds nil or the odd-tagged target length of the URI log callback (see the C shim).
    guard let state = conCls.pointee, Int(bitPattern: state) & 1 == 0 else {
        let context = conCls.pointee.map { Int(bitPattern: $0) }
        let rawLength = context.map { $0 & 2 == 0 ? $0 >> 2 : -1 }
        let path = url.map { String(cString: $0) } ?? "/"
        let request = HTTPRequest(
            connection: connection, core: core, method: method.map { String(cString: $0) } ?? "", path: path,
            targetHoldsControlCharacters: RequestTarget.holdsNUL(
                url: url, rawLength: rawLength, version: version, path: path))
        conCls.pointee = Unmanaged.passRetained(request).toOpaque()
        if let refusal = core.begin(request) { return answer(request, refusal, on: connection, core: core) }
        return MHD_Result.YES
    }
    let request = Unmanaged<HTTPRequest>.fromOpaque(state).takeUnretainedValue()

    if uploadDataSize.pointee > 0 {
        let count = uploadDataSize.pointee
        uploadDataSize.pointee = 0
        if request.answered { return MHD_Result.YES }
        guard let uploadData else { return MHD_Result.NO }
        return request.receive(uploadData, count: count, limit: core.configuration.maxBodyBytes)
            ? MHD_Result.YES : MHD_Result.NO
    }
    if request.answered { return MHD_Result.YES }

    // A resumed deferred request, or the end of the request.
    let response: HTTPResponse?
    if request.deferralStarted {
        response = core.takeDeferredResponse(request)
    } else {
        response = core.respond(to: request)
    }
    guard let response else { return MHD_Result.YES }
    return answer(request, response, on: connection, core: core)
}

/// Queues `response` as the request's answer and records the status really sent: a response libmicrohttpd
/// could not build or queue (a 500 instead, or a closed connection) is counted as a failed response.
private func answer(
    _ request: HTTPRequest, _ response: HTTPResponse, on connection: OpaquePointer, core: ServerCore
) -> MHD_Result {
    request.answered = true
    let queued = response.queue(on: connection)
    request.status = queued.status
    if queued.result != MHD_Result.YES || queued.status != response.status { core.responseFailed() }
    return queued.result
}

/// The request-completed callback: balances the retain of the access handler's first call.
func mhdRequestCompleted(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ code: MHD_RequestTerminationCode
) {
    // An odd context is the URI log callback's tag: the access handler never ran, nothing to release.
    guard let cls, let conCls, let state = conCls.pointee, Int(bitPattern: state) & 1 == 0 else { return }
    conCls.pointee = nil
    let request = Unmanaged<HTTPRequest>.fromOpaque(state).takeRetainedValue()
    Unmanaged<ServerCore>.fromOpaque(cls)._withUnsafeGuaranteedRef { $0.finished(request) }
}
