"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ProtocolError = exports.RegistryError = exports.Status = exports.STATUS_NAMES = void 0;
/** gRPC status names by code, as the registry's `error.code` / `error.data.status` use them. */
exports.STATUS_NAMES = {
    0: "OK",
    1: "CANCELLED",
    2: "UNKNOWN",
    3: "INVALID_ARGUMENT",
    4: "DEADLINE_EXCEEDED",
    5: "NOT_FOUND",
    6: "ALREADY_EXISTS",
    7: "PERMISSION_DENIED",
    8: "RESOURCE_EXHAUSTED",
    9: "FAILED_PRECONDITION",
    10: "ABORTED",
    11: "OUT_OF_RANGE",
    12: "UNIMPLEMENTED",
    13: "INTERNAL",
    14: "UNAVAILABLE",
    15: "DATA_LOSS",
    16: "UNAUTHENTICATED",
};
/** gRPC status codes by name, for comparisons such as `error.code === Status.NOT_FOUND`. */
exports.Status = {
    CANCELLED: 1,
    UNKNOWN: 2,
    INVALID_ARGUMENT: 3,
    DEADLINE_EXCEEDED: 4,
    NOT_FOUND: 5,
    ALREADY_EXISTS: 6,
    PERMISSION_DENIED: 7,
    RESOURCE_EXHAUSTED: 8,
    FAILED_PRECONDITION: 9,
    ABORTED: 10,
    OUT_OF_RANGE: 11,
    UNIMPLEMENTED: 12,
    INTERNAL: 13,
    UNAVAILABLE: 14,
    DATA_LOSS: 15,
    UNAUTHENTICATED: 16,
};
/**
 * An application error of the registry: the gRPC `code` and its `status` name (a newer server's unknown
 * code keeps its number and the status the server sent), the human `message`, and `details` (field
 * violations for bad input). Transport failures are reported the same way: UNAVAILABLE when the registry
 * cannot be reached, DEADLINE_EXCEEDED when the call's timeout passed, CANCELLED when its signal aborted.
 */
class RegistryError extends Error {
    constructor(code, message, options = {}) {
        super(message);
        this.name = "RegistryError";
        this.code = code;
        this.status = options.status ?? exports.STATUS_NAMES[code] ?? "UNKNOWN";
        this.details = options.details ?? [];
        if (options.method !== undefined)
            this.method = options.method;
        if (options.cause !== undefined)
            this.cause = options.cause;
        if (options.jsonrpcCode !== undefined)
            this.jsonrpcCode = options.jsonrpcCode;
    }
}
exports.RegistryError = RegistryError;
/**
 * A JSON-RPC protocol error (-32700 parse error, -32600 invalid request, -32601 method not found,
 * -32602 invalid params that name no INVALID_ARGUMENT status, -32603 internal error): the request itself was
 * wrong, or the server and client disagree about the API. Undecodable params are a `RegistryError`.
 */
class ProtocolError extends Error {
    constructor(code, message, options = {}) {
        super(message);
        this.name = "ProtocolError";
        this.code = code;
        if (options.data !== undefined)
            this.data = options.data;
        if (options.method !== undefined)
            this.method = options.method;
    }
}
exports.ProtocolError = ProtocolError;
