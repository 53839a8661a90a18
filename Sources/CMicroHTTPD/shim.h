#ifndef ROUTEREG_CMICROHTTPD_SHIM_H
#define ROUTEREG_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>
#include "listener.h"

/// Daemon settings for routereg_mhd_start; 0 means "MHD's default" for every limit.
typedef struct routereg_mhd_settings {
    const char *address;          /* numeric IPv4 or IPv6 literal, without brackets */
    uint16_t port;                /* 0: ephemeral */
    unsigned int flags;           /* MHD_FLAG bits; MHD_USE_IPv6 is added for IPv6 addresses */
    unsigned int thread_pool_size;
    unsigned int connection_limit;
    unsigned int per_ip_connection_limit;
    unsigned int connection_timeout;  /* seconds */
    size_t connection_memory_limit;   /* bytes */
} routereg_mhd_settings;

/// The last message libmicrohttpd logged on this thread. Start-up failures are logged on the thread that
/// calls routereg_mhd_start, so after a NULL it says why (address in use, too many open files...); messages
/// the daemon's own threads log later land in their buffers and are dropped.
/// (A function-local static: Swift's importer emits the functions of a header, not its variables.)
#define ROUTEREG_MHD_ERROR_SIZE 256
static inline char *routereg_mhd_error_buffer(void) {
    static __thread char buffer[ROUTEREG_MHD_ERROR_SIZE];
    return buffer;
}

static inline void routereg_mhd_log(void *cls, const char *format, va_list arguments) {
    (void)cls;
    vsnprintf(routereg_mhd_error_buffer(), ROUTEREG_MHD_ERROR_SIZE, format, arguments);
}

/// What routereg_mhd_start's failure on this thread was, without the trailing newline; "" if nothing was logged.
static inline const char *routereg_mhd_start_error(void) {
    char *message = routereg_mhd_error_buffer();
    size_t length = strlen(message);
    while (length > 0 && (message[length - 1] == '\n' || message[length - 1] == ' ')) message[--length] = '\0';
    return message;
}

/// Request targets reach the access handler as C strings, so a NUL in one (raw, or %00 once unescaped) would
/// silently cut it: `/healthz%00xyz` would be served as `/healthz`. libmicrohttpd shows the URI log callback
/// the raw target (query included) first; what it finds becomes the connection's first context, tagged odd
/// so it cannot be taken for an object pointer: bit 1 set when the target holds %00, the rest its length up
/// to the first NUL, which the access handler compares with the target's span in the request line.
static inline void *routereg_mhd_uri_length(void *cls, const char *uri, struct MHD_Connection *connection) {
    (void)cls;
    (void)connection;
    uintptr_t escaped = strstr(uri, "%00") != NULL ? 2 : 0;
    return (void *)(uintptr_t)((strlen(uri) << 2) | escaped | 1);
}

/// What routereg_mhd_read_head finds wrong with a request's headers (bits of its result).
enum {
    ROUTEREG_HEAD_HOST_NUL = 1,       /* the Host value hides bytes after a NUL */
    ROUTEREG_HEAD_HOST_TWICE = 2,     /* more than one Host header */
    ROUTEREG_HEAD_LENGTH_CONFLICT = 4, /* Content-Length headers with different values */
    ROUTEREG_HEAD_LENGTH_AND_TE = 8,  /* Content-Length together with Transfer-Encoding */
};

/// Every header of a request, scanned once for routereg_mhd_read_head.
typedef struct routereg_mhd_head_scan {
    const char *keys[64];
    int count;
    const char *host;
    int hosts;
    const char *length;
    int lengths_differ;
    int transfer_encodings;
} routereg_mhd_head_scan;

static inline enum MHD_Result routereg_mhd_scan_head(void *cls, enum MHD_ValueKind kind, const char *key,
                                                     const char *value) {
    (void)kind;
    routereg_mhd_head_scan *scan = (routereg_mhd_head_scan *)cls;
    if (scan->count < 64) scan->keys[scan->count++] = key;
    if (strcasecmp(key, "Host") == 0) {
        if (scan->hosts++ == 0) scan->host = value; /* NULL for an empty value: nothing to hide then */
    } else if (strcasecmp(key, "Content-Length") == 0) {
        if (value == NULL) value = "";
        if (scan->length == NULL)
            scan->length = value;
        else if (strcmp(scan->length, value) != 0)
            scan->lengths_differ = 1;
    } else if (strcasecmp(key, "Transfer-Encoding") == 0) {
        scan->transfer_encodings++;
    }
    return MHD_YES;
}

/// What one pass over a request's headers found: its problems (ROUTEREG_HEAD_* bits; 0 when nothing is wrong)
/// and its first `Content-Length` value as sent (NULL without one; valid until the request completes).
typedef struct routereg_mhd_head {
    int problems;
    const char *content_length;
} routereg_mhd_head;

/// One pass over a request's headers for what the server refuses from the head alone, and the body's declared
/// length. libmicrohttpd 0.9.75 takes the first of two Host or Content-Length headers and
/// lets Transfer-Encoding silently override Content-Length; a proxy in front may have read the other one,
/// so such a request could mean two things (request smuggling): it is refused instead (RFC 9112, 6.3).
/// A Host value hiding bytes after a NUL (`Host: m.badoo.com<NUL>.evil`): libmicrohttpd hands values out as
/// C strings (its sizes are strlen too), so the value would look like `m.badoo.com`. In its parsed header
/// block a value's terminator is followed by the rest of the line ending (NUL, CR or LF) or, for a bare-LF
/// line, by the next header's key; anything else was hidden by a NUL.
static inline routereg_mhd_head routereg_mhd_read_head(struct MHD_Connection *connection) {
    routereg_mhd_head_scan scan;
    memset(&scan, 0, sizeof scan);
    MHD_get_connection_values(connection, MHD_HEADER_KIND, routereg_mhd_scan_head, &scan);
    int problems = 0;
    if (scan.hosts > 1) problems |= ROUTEREG_HEAD_HOST_TWICE;
    if (scan.lengths_differ) problems |= ROUTEREG_HEAD_LENGTH_CONFLICT;
    if (scan.length != NULL && scan.transfer_encodings > 0) problems |= ROUTEREG_HEAD_LENGTH_AND_TE;
    if (scan.host != NULL) {
        const char *after = scan.host + strlen(scan.host) + 1;
        if (*after != '\0' && *after != '\r' && *after != '\n') {
            int known = 0;
            for (int i = 0; i < scan.count; i++)
                if (scan.keys[i] == after) known = 1;
            if (!known) problems |= ROUTEREG_HEAD_HOST_NUL;
        }
    }
    return (routereg_mhd_head){problems, scan.length};
}

/// Swift cannot call the variadic MHD_start_daemon: this builds the option array in C (MHD_OPTION_ARRAY).
/// The listening socket is ours (see routereg_listener), opened on the numeric `address` and accepting once
/// the daemon runs. Returns NULL when the address is not numeric or cannot be bound, or the daemon cannot
/// start; on success `*listener` is what routereg_listener_close stops.
static inline struct MHD_Daemon *routereg_mhd_start(const routereg_mhd_settings *s,
                                                    MHD_AccessHandlerCallback access_handler,
                                                    void *access_cls,
                                                    MHD_RequestCompletedCallback completed,
                                                    void *completed_cls,
                                                    routereg_listener **listener) {
    routereg_mhd_error_buffer()[0] = '\0';
    *listener = routereg_listener_open(s->address, s->port, routereg_mhd_error_buffer(), ROUTEREG_MHD_ERROR_SIZE);
    if (*listener == NULL) return NULL;
    unsigned int flags = s->flags | MHD_USE_ERROR_LOG | MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC;
    struct MHD_OptionItem options[10];
    int n = 0;
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)&routereg_mhd_log, NULL};
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, completed_cls};
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)&routereg_mhd_uri_length, NULL};
    if (s->thread_pool_size > 1)
        options[n++] = (struct MHD_OptionItem){MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)s->thread_pool_size, NULL};
    if (s->connection_limit > 0)
        options[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT, (intptr_t)s->connection_limit, NULL};
    if (s->per_ip_connection_limit > 0)
        options[n++] =
            (struct MHD_OptionItem){MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)s->per_ip_connection_limit, NULL};
    if (s->connection_timeout > 0)
        options[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)s->connection_timeout, NULL};
    if (s->connection_memory_limit > 0)
        options[n++] =
            (struct MHD_OptionItem){MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)s->connection_memory_limit, NULL};
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
    struct MHD_Daemon *daemon = MHD_start_daemon(flags, 0, NULL, NULL, access_handler, access_cls,
                                                 MHD_OPTION_ARRAY, options, MHD_OPTION_END);
    int failed = daemon == NULL ? 0 : routereg_listener_start(*listener, daemon, s->connection_limit);
    if (daemon == NULL || failed != 0) {
        if (failed != 0) {
            snprintf(routereg_mhd_error_buffer(), ROUTEREG_MHD_ERROR_SIZE, "accept thread: %s", strerror(failed));
            MHD_stop_daemon(daemon);
        }
        routereg_listener_close(*listener);
        *listener = NULL;
        return NULL;
    }
    return daemon;
}

/// Writes the client's numeric address into `buffer` (NUL-terminated, empty when unknown).
static inline void routereg_mhd_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
    buffer[0] = 0;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return;
    const struct sockaddr *sa = info->client_addr;
    if (sa->sa_family == AF_INET && size >= 16) {
        /* By hand: every logged request asks, and glibc's inet_ntop goes through sprintf. */
        const unsigned char *octet = (const unsigned char *)&((const struct sockaddr_in *)sa)->sin_addr;
        char *out = buffer;
        for (int i = 0; i < 4; i++) {
            unsigned v = octet[i];
            if (v >= 100) *out++ = (char)('0' + v / 100);
            if (v >= 10) *out++ = (char)('0' + v / 10 % 10);
            *out++ = (char)('0' + v % 10);
            *out++ = i < 3 ? '.' : 0;
        }
    } else if (sa->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, buffer, (socklen_t)size);
    } else if (sa->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, buffer, (socklen_t)size);
    }
}
#endif
