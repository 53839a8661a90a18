/** gRPC status names by code, as the registry's `error.code` / `error.data.status` use them. */
export declare const STATUS_NAMES: Readonly<Record<number, string>>;
/** gRPC status codes by name, for comparisons such as `error.code === Status.NOT_FOUND`. */
export declare const Status: {
    readonly CANCELLED: 1;
    readonly UNKNOWN: 2;
    readonly INVALID_ARGUMENT: 3;
    readonly DEADLINE_EXCEEDED: 4;
    readonly NOT_FOUND: 5;
    readonly ALREADY_EXISTS: 6;
    readonly PERMISSION_DENIED: 7;
    readonly RESOURCE_EXHAUSTED: 8;
    readonly FAILED_PRECONDITION: 9;
    readonly ABORTED: 10;
    readonly OUT_OF_RANGE: 11;
    readonly UNIMPLEMENTED: 12;
    readonly INTERNAL: 13;
    readonly UNAVAILABLE: 14;
    readonly DATA_LOSS: 15;
    readonly UNAUTHENTICATED: 16;
};
/** A field violation of an INVALID_ARGUMENT error (or any other detail the server attached). */
export interface ErrorDetail {
    field?: string;
    description?: string;
    [key: string]: unknown;
}
/**
 * An application error of the registry: the gRPC `code` and its `status` name (a newer server's unknown
 * code keeps its number and the status the server sent), the human `message`, and `details` (field
 * violations for bad input). Transport failures are reported the same way: UNAVAILABLE when the registry
 * cannot be reached, DEADLINE_EXCEEDED when the call's timeout passed, CANCELLED when its signal aborted.
 */
export declare class RegistryError extends Error {
    /** The gRPC status code (5 for NOT_FOUND...). */
    readonly code: number;
    /** The gRPC status name ("NOT_FOUND"...). */
    readonly status: string;
    /** Field violations and other details; empty when the server sent none. */
    readonly details: ErrorDetail[];
    /** The JSON-RPC method that failed. */
    readonly method?: string;
    /** The underlying error of a transport failure. */
    readonly cause?: unknown;
    /** The JSON-RPC code when the server answered with a protocol error (-32602 for params it could not decode). */
    readonly jsonrpcCode?: number;
    constructor(code: number, message: string, options?: {
        status?: string;
        details?: ErrorDetail[];
        method?: string;
        cause?: unknown;
        jsonrpcCode?: number;
    });
}
/**
 * A JSON-RPC protocol error (-32700 parse error, -32600 invalid request, -32601 method not found,
 * -32602 invalid params that name no INVALID_ARGUMENT status, -32603 internal error): the request itself was
 * wrong, or the server and client disagree about the API. Undecodable params are a `RegistryError`.
 */
export declare class ProtocolError extends Error {
    /** The JSON-RPC error code (-32700 ... -32600). */
    readonly code: number;
    /** `error.data` as sent, if any. */
    readonly data?: unknown;
    /** The JSON-RPC method that failed. */
    readonly method?: string;
    constructor(code: number, message: string, options?: {
        data?: unknown;
        method?: string;
    });
}
