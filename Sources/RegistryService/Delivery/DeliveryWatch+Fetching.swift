import Dispatch
import Foundation
import HTTPFetching
import RouteCore
import Synchronization

extension DeliveryWatch.Loop {
    /// The GET of `key`'s document, conditional when the service gave validators for the copy it serves.
    func request(for key: DocumentKey) -> HTTPFetcher.Request {
        var headers = ["Accept": "application/json"]
        if let previous = latest[key]?.content, previous.outcome != .notFound {
            if let etag = previous.etag { headers["If-None-Match"] = etag }
            if let modified = previous.lastModified { headers["If-Modified-Since"] = modified }
        }
        let watch = self.watch
        return HTTPFetcher.Request(
            url: watch.url(for: key), headers: headers, timeout: options.fetchTimeout,
            maxBytes: options.maxBytes, isCancelled: { watch.isStopped })
    }

    /// Runs the fetches, at most `concurrency` at a time; each ends by its deadline.
    func fetch(_ requests: [HTTPFetcher.Request])
        -> [(result: Result<HTTPFetcher.Response, HTTPFetcher.Failure>, duration: Duration)]
    {
        let results = Mutex(
            [(result: Result<HTTPFetcher.Response, HTTPFetcher.Failure>, duration: Duration)?](
                repeating: nil, count: requests.count))
        let slots = DispatchSemaphore(value: options.concurrency)
        let group = DispatchGroup()
        let fetcher = watch.fetcher
        for (index, request) in requests.enumerated() {
            slots.wait()
            group.enter()
            watch.fetchQueue.async {
                let start = ContinuousClock.now
                let result = fetcher.get(request)
                let duration = start.duration(to: .now)
                results.withLock { $0[index] = (result, duration) }
                slots.signal()
                group.leave()
            }
        }
        // Every fetch ends by its own deadline; this bound only guards against a transport that ignores it.
        _ = group.wait(timeout: .now() + options.fetchTimeout.seconds * 2 + 1)
        return results.withLock { list in
            list.map { $0 ?? (.failure(.timeout), options.fetchTimeout) }
        }
    }
}
