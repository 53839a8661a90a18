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

    // The first call finds nil or the odd-tagged target length of the URI log callback (see the C shim).
    guard let state = conCls.pointee, Int(bitPattern: state) & 1 == 0 else {
        let context = conCls.pointee.map { Int(bitPattern: $0) }
        let rawLength = context.map { $0 & 2 == 0 ? $0 >> 2 : -1 }
        let path = url.map { String(cString: $0) } ?? "/"
        // Plain GETs of documents need no RPC headers, and a request number only when logged (the line
        // writes it, and the client's address, without making strings of them).
        let isRPC = path == "/rpc"
        let number = isRPC || core.log.isEnabled ? core.nextRequestNumber() : 0
        let head = HTTPRequestHead(connection: connection, detailed: isRPC)
        let exchange = HTTPExchange(
            connection: connection, method: method.map { String(cString: $0) } ?? "", path: path,
            requestNumber: number, requestID: isRPC ? core.requestID(number: number) : "", head: head)
        core.inFlight.add(1, ordering: .relaxed)
        core.metrics.requestStarted()
        conCls.pointee = Unmanaged.passRetained(exchange).toOpaque()
        if RequestTarget.holdsNUL(url: url, rawLength: rawLength, version: version, path: path)
            || routereg_mhd_header_has_nul(connection, "Host") != 0
        {
            return answer(
                exchange, .text(400, "bad request: NUL or control character in the request target or Host\n"),
                on: connection, core: core)
        }
        if let length = head.contentLength, length > core.configuration.maxBodyBytes {
            // Refuse before reading the body; libmicrohttpd then closes the connection.
            return answer(exchange, .text(413, "request body too large\n"), on: connection, core: core)
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
    return answer(exchange, reply, on: connection, core: core)
}

/// Queues `reply` as the exchange's answer and records the status really sent: a reply libmicrohttpd could
/// not build or queue (a 500 instead, or a closed connection) is counted as a failed response.
private func answer(
    _ exchange: HTTPExchange, _ reply: HTTPReply, on connection: OpaquePointer, core: ServerCore
) -> MHD_Result {
    exchange.answered = true
    let queued = reply.queue(on: connection)
    exchange.status = queued.status
    if queued.result != MHD_Result.YES || queued.status != reply.status { core.responseFailed() }
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
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(state).takeRetainedValue()
    core.finished(exchange)
}

/// A NUL inside the request target, which libmicrohttpd's C strings would otherwise cut silently.
enum RequestTarget {
    /// - Parameters:
    ///   - rawLength: the raw target's length up to its first NUL, from the URI log callback; -1 when it holds
    ///     `%00`.
    ///   - version: libmicrohttpd's HTTP version, which it keeps in the same buffer right after the target.
    ///   - path: the unescaped path.
    static func holdsNUL(
        url: UnsafePointer<CChar>?, rawLength: Int?, version: UnsafePointer<CChar>?, path: String
    ) -> Bool {
        let isControl: (UInt8) -> Bool = { $0 < 0x20 || $0 == 0x7F }
        // Scanned in the string's own buffer: stepping its UTF-8 view cost ~30 instructions a byte.
        if path.utf8.withContiguousStorageIfAvailable({ $0.contains(where: isControl) })
            ?? path.utf8.contains(where: isControl)
        {
            return true
        }
        guard let url, let rawLength, let version else { return false }
        if rawLength < 0 { return true }
        let span = url.distance(to: version) - 1
        // Only when the version follows the target in the same line buffer is the span meaningful.
        guard span > 0, span < 1 << 20 else { return false }
        return rawLength < span
    }
}
