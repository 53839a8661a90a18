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
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()

    guard let state = conCls.pointee else {
        let path = url.map { String(cString: $0) } ?? "/"
        // Plain GETs of documents need no request id, client address or RPC headers unless they are logged.
        let detailed = path == "/rpc" || core.log.isEnabled
        let head = HTTPRequestHead(connection: connection, detailed: detailed)
        let exchange = HTTPExchange(
            connection: connection, method: method.map { String(cString: $0) } ?? "", path: path,
            requestID: detailed ? core.nextRequestID() : "", head: head)
        core.inFlight.add(1, ordering: .relaxed)
        core.metrics.requestStarted()
        conCls.pointee = Unmanaged.passRetained(exchange).toOpaque()
        if let length = head.contentLength, length > core.configuration.maxBodyBytes {
            // Refuse before reading the body; libmicrohttpd then closes the connection.
            exchange.answered = true
            exchange.status = 413
            return HTTPReply.text(413, "request body too large\n").queue(on: connection)
        }
        if let length = head.contentLength, exchange.target == .rpc, length > 0 {
            exchange.body.reserveCapacity(length)
        }
        return MHD_Result.YES
    }
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(state).takeUnretainedValue()

    if uploadDataSize.pointee > 0 {
        let count = uploadDataSize.pointee
        uploadDataSize.pointee = 0
        if exchange.answered { return MHD_Result.YES }
        guard let uploadData else { return MHD_Result.NO }
        return exchange.receive(uploadData, count: count, limit: core.configuration.maxBodyBytes)
            ? MHD_Result.YES : MHD_Result.NO
    }
    if exchange.answered { return MHD_Result.YES }

    // A resumed deferred call, or the end of the request.
    let reply: HTTPReply?
    if exchange.hasDeferredCall {
        reply = core.takeDeferredReply(exchange)
    } else {
        reply = core.respond(to: exchange)
    }
    guard let reply else { return MHD_Result.YES }
    exchange.answered = true
    exchange.status = reply.status
    return reply.queue(on: connection)
}

/// The request-completed callback: balances the retain of the access handler's first call.
func mhdRequestCompleted(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ code: MHD_RequestTerminationCode
) {
    guard let cls, let conCls, let state = conCls.pointee else { return }
    conCls.pointee = nil
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(state).takeRetainedValue()
    core.finished(exchange)
}
