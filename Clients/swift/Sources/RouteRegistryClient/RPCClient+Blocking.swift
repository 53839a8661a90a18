import Foundation
import RouteMatching

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RPCClient {
    /// Blocking variant of `call(_:_:timeout:)`, for command-line tools with a synchronous `main`.
    ///
    /// Not for apps: it blocks the calling thread until the answer arrives. It never touches the Swift
    /// concurrency pool (the request runs on the session's own delegate queue and the caller waits on a
    /// semaphore), so it cannot deadlock the pool, but calling it from the main thread of an app freezes
    /// the UI. Unavailable from async code, which should `await call(_:_:timeout:)` instead.
    @available(*, noasync, message: "blocks the calling thread; await call(_:_:timeout:) instead")
    public func callSync<M: RPCMethodSignature>(
        _ method: M.Type, _ input: M.Input, timeout: TimeInterval? = nil
    ) throws -> M.Output {
        let result = try callRawSync(
            method: M.name, paramsJSON: try RPCWire.encodeParams(input), timeout: timeout)
        return try RPCWire.decode(M.Output.self, method: M.name, from: result)
    }

    /// Blocking variant of `callRaw(method:paramsJSON:timeout:)`; same caveats as `callSync`.
    @available(*, noasync, message: "blocks the calling thread; await callRaw(method:paramsJSON:timeout:) instead")
    public func callRawSync(method: String, paramsJSON: Data, timeout: TimeInterval? = nil) throws -> Data {
        let request = try makeRequest(method: method, paramsJSON: paramsJSON, timeout: timeout)
        let deadline = Date().addingTimeInterval(request.timeoutInterval)
        do {
            return try sendSync(request)
        } catch let failure as SendFailure {
            guard Self.mayRepeat(after: failure.error, method: method, paramsJSON: paramsJSON),
                let again = Self.repeated(request, before: deadline)
            else { throw Self.transportError(failure.error) }
            do {
                return try sendSync(again)
            } catch let again as SendFailure {
                throw Self.transportError(again.error)
            }
        }
    }

    /// A URLSession error of `sendSync`, kept as it came so the caller can decide to repeat the call.
    private struct SendFailure: Error {
        var error: URLError
    }

    @available(*, noasync, message: "blocks the calling thread")
    private func sendSync(_ request: URLRequest) throws -> Data {
        let outcome = Locked<Result<(body: Data, status: Int), ClientError>?>(nil)
        let raw = Locked<URLError?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { body, response, error in
            let result: Result<(body: Data, status: Int), ClientError>
            if let error {
                raw.withLock { $0 = error as? URLError }
                result = .failure(Self.transportError(error))
            } else {
                result = .success((body ?? Data(), (response as? HTTPURLResponse)?.statusCode ?? 0))
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        task.resume()
        // URLSession reports its own timeout; the extra grace only guards against a session that never
        // calls back, so a CLI cannot hang forever.
        if done.wait(timeout: .now() + request.timeoutInterval + 5) == .timedOut {
            task.cancel()
            throw ClientError.timedOut
        }
        switch outcome.withLock({ $0 }) {
        case .success(let answer): return try RPCWire.result(body: answer.body, httpStatus: answer.status)
        case .failure(let error):
            if let underlying = raw.withLock({ $0 }) { throw SendFailure(error: underlying) }
            throw error
        case nil: throw ClientError.invalidResponse(reason: "no answer")
        }
    }
}
