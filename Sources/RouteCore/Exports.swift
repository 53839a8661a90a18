// RouteCore is built on RouteMatching (versions, the matcher, canOpen tables, decisions, errors): re-exported
// so the server's modules and tests that import RouteCore see those types as before the split.
@_exported import RouteMatching
