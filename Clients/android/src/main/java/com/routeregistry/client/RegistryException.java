package com.routeregistry.client;

import java.io.IOException;
import org.json.JSONObject;

/**
 * A call to the registry failed: the registry could not be reached or did not answer in time
 * ({@link Kind#TRANSPORT}), answered something that is not a JSON-RPC reply ({@link Kind#PROTOCOL}), or refused
 * the call ({@link Kind#RPC}, with the gRPC-style {@link #code} and {@link #status}).
 */
public final class RegistryException extends IOException {
    private static final long serialVersionUID = 1L;

    /** What went wrong. */
    public enum Kind { TRANSPORT, PROTOCOL, RPC }

    /** What went wrong. */
    public final Kind kind;
    /** The JSON-RPC error code (gRPC code 1–16, or -32xxx for protocol errors); 0 unless {@link Kind#RPC}. */
    public final int code;
    /** The gRPC-style status name ({@code NOT_FOUND}, {@code INVALID_ARGUMENT}, ...), when the server sent one. */
    public final String status;
    /** The error's {@code data} (details naming the fields at fault), when the server sent one. */
    public final JSONObject data;

    RegistryException(Kind kind, int code, String status, String message, JSONObject data, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.code = code;
        this.status = status;
        this.data = data;
    }

    static RegistryException transport(String message, Throwable cause) {
        return new RegistryException(Kind.TRANSPORT, 0, null, message, null, cause);
    }

    static RegistryException protocol(String message) {
        return new RegistryException(Kind.PROTOCOL, 0, null, message, null, null);
    }

    /** True when the registry was not reached or did not answer in time: worth retrying later. */
    public boolean isConnectionProblem() {
        return kind == Kind.TRANSPORT || (kind == Kind.RPC && code == 14);
    }
}
