/* The floor of routereg's transport: libmicrohttpd configured as HTTPServer/ServerCore configure it (same
 * flags and options, the same access-handler call pattern), with nothing of routereg above it. What this
 * costs per request, routereg cannot go below without another transport.
 *
 *   mhd_floor PORT     listens on 127.0.0.1:PORT, prints "listening on PORT", stops on SIGTERM/SIGINT.
 */
#define _GNU_SOURCE /* memfd_create */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h> /* after the socket headers, which it expects (as in Sources/CMicroHTTPD/shim.h) */

#include "floor_common.h"

enum kind { NOT_FOUND, DOCUMENT, REDIRECT, RPC, LATER, METHOD_NOT_ALLOWED };

/* One per request, like routereg's HTTPRequest (allocated on the first call, freed when MHD completes it). */
struct request {
    enum kind kind;
    int document;
    int variant; /* GET /<document>-sendfile: from a memfd (sendfile_response); POST /rpc-prebuilt: a shared answer */
    int answered;
    atomic_int later_ready; /* set by the backend thread before it resumes the connection */
    struct MHD_Connection *connection;
    int body_too_large;
    size_t body_length;
    char body[1024]; /* the JSON-RPC body; larger is refused 413 (routereg: maxBodyBytes). Last: not zeroed */
};

static struct MHD_Response *documents[FLOOR_DOCUMENTS], *sendfile_documents[FLOOR_DOCUMENTS];
static struct MHD_Response *redirect, *not_found, *not_allowed, *bad_request, *too_large, *later, *rpc_prebuilt;

/* routereg's URI log callback (shim.h): scans the raw target for %00; its odd tag becomes the first context. */
static void *uri_log(void *cls, const char *uri, struct MHD_Connection *connection) {
    (void)cls;
    (void)connection;
    uintptr_t escaped = strstr(uri, "%00") != NULL ? 2 : 0;
    return (void *)(uintptr_t)((strlen(uri) << 2) | escaped | 1);
}

/* Whether `url` is `path`, or `path` and `suffix` (then `variant` is set). */
static int is(const char *url, const char *path, const char *suffix, int *variant) {
    size_t n = strlen(path);
    if (strncmp(url, path, n) != 0 || (url[n] != 0 && strcmp(url + n, suffix) != 0)) return 0;
    *variant = url[n] != 0;
    return 1;
}

static void route(struct request *r, const char *method, const char *url) {
    int get = strcmp(method, "GET") == 0, post = strcmp(method, "POST") == 0;
    for (int i = 0; i < FLOOR_DOCUMENTS; i++) {
        if (is(url, floor_paths[i], "-sendfile", &r->variant)) {
            r->kind = get ? DOCUMENT : METHOD_NOT_ALLOWED;
            r->document = i;
            return;
        }
    }
    if (strcmp(url, "/redirect") == 0) r->kind = get ? REDIRECT : METHOD_NOT_ALLOWED;
    else if (strcmp(url, "/later") == 0) r->kind = get ? LATER : METHOD_NOT_ALLOWED;
    else if (is(url, "/rpc", "-prebuilt", &r->variant)) r->kind = post ? RPC : METHOD_NOT_ALLOWED;
    else r->kind = NOT_FOUND;
}

static enum MHD_Result queue(struct request *r, unsigned int status, struct MHD_Response *response) {
    r->answered = 1;
    return MHD_queue_response(r->connection, status, response);
}

/* A JSON-RPC answer is built per call in routereg (HTTPResponse.response: a copy, its header, queue, destroy).
 * /rpc-prebuilt queues one shared response instead: what building it per call costs. */
static enum MHD_Result answer_rpc(struct request *r) {
    if (r->body_too_large) return queue(r, 413, too_large);
    if (r->body_length == 0 || r->body[0] != '{') return queue(r, 400, bad_request);
    if (r->variant) return queue(r, 200, rpc_prebuilt);
    struct MHD_Response *response = MHD_create_response_from_buffer(
        sizeof FLOOR_RPC_ANSWER - 1, (void *)FLOOR_RPC_ANSWER, MHD_RESPMEM_MUST_COPY);
    if (response == NULL) return MHD_NO;
    MHD_add_response_header(response, "Content-Type", FLOOR_CONTENT_TYPE);
    enum MHD_Result result = queue(r, 200, response);
    MHD_destroy_response(response);
    return result;
}

/* The access handler in routereg's pattern (MHDCallbacks.swift): the first call only records the request
 * (answering then makes 0.9.75 drop keep-alive), upload calls collect the body, the last call answers. */
static enum MHD_Result on_access(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                                 const char *version, const char *upload, size_t *upload_size, void **context) {
    (void)cls;
    (void)version;
    struct request *r = *context;
    if (r == NULL || ((uintptr_t)r & 1)) {
        r = malloc(sizeof *r);
        if (r == NULL) return MHD_NO;
        memset(r, 0, offsetof(struct request, body)); /* not the body buffer: a GET never touches it */
        r->connection = connection;
        route(r, method, url);
        *context = r;
        return MHD_YES;
    }
    if (*upload_size > 0) {
        if (r->body_length + *upload_size > sizeof r->body) r->body_too_large = 1;
        else memcpy(r->body + r->body_length, upload, *upload_size);
        if (!r->body_too_large) r->body_length += *upload_size;
        *upload_size = 0;
        return MHD_YES;
    }
    if (r->answered) return MHD_YES;
    switch (r->kind) {
    case DOCUMENT: return queue(r, 200, (r->variant ? sendfile_documents : documents)[r->document]);
    case REDIRECT: return queue(r, 302, redirect);
    case RPC: return answer_rpc(r);
    case METHOD_NOT_ALLOWED: return queue(r, 405, not_allowed);
    case NOT_FOUND: return queue(r, 404, not_found);
    case LATER:
        /* Resumed by the backend: the answer is there. Otherwise park the connection (routereg's
         * suspendOrTake: suspend first, then hand the request over, so the resume cannot come before it). */
        if (atomic_load(&r->later_ready)) return queue(r, 200, later);
        MHD_suspend_connection(connection);
        if (!floor_queue_push(&floor_later, r)) { /* full: answer at once */
            atomic_store(&r->later_ready, 1);
            MHD_resume_connection(connection);
        }
        return MHD_YES;
    }
    return MHD_NO;
}

static void on_completed(void *cls, struct MHD_Connection *connection, void **context,
                         enum MHD_RequestTerminationCode code) {
    (void)cls;
    (void)connection;
    (void)code;
    if (*context != NULL && ((uintptr_t)*context & 1) == 0) free(*context);
    *context = NULL;
}

/* The backend of GET /later: marks the answer ready, then resumes (routereg's deliver()). */
static void *backend(void *arg) {
    (void)arg;
    for (;;) {
        struct request *r = floor_queue_pop(&floor_later);
        atomic_store(&r->later_ready, 1);
        MHD_resume_connection(r->connection);
    }
    return NULL;
}

/* A response built once and queued for every request (routereg's SharedResponse / StaticDocument). */
static struct MHD_Response *persistent(const char *body, size_t length, const char *const headers[]) {
    struct MHD_Response *response = MHD_create_response_from_buffer(length, (void *)body, MHD_RESPMEM_PERSISTENT);
    for (int i = 0; headers[i] != NULL; i += 2) MHD_add_response_header(response, headers[i], headers[i + 1]);
    return response;
}

/* The same document from a memfd: libmicrohttpd sends an fd response with sendfile(2), which hands the
 * kernel page references instead of copying the body into the socket (nginx's way with its files). An
 * experiment beside the transport question, whether routereg could serve large documents so (on loopback it
 * costs more at every size: RESULTS.md). One response serves every connection: sendfile takes an explicit
 * offset, and each connection keeps its own. */
static struct MHD_Response *sendfile_response(const char *body, size_t length, const char *const headers[]) {
    int fd = memfd_create("floor-document", MFD_CLOEXEC);
    if (fd < 0 || write(fd, body, length) != (ssize_t)length) return NULL;
    struct MHD_Response *response = MHD_create_response_from_fd(length, fd);
    for (int i = 0; headers[i] != NULL; i += 2) MHD_add_response_header(response, headers[i], headers[i + 1]);
    return response;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s PORT\n", argv[0]);
        return 2;
    }
    sigset_t signals;
    floor_block_signals(&signals);
    for (int i = 0; i < FLOOR_DOCUMENTS; i++) {
        const char *const headers[] = {"ETag", floor_etags[i], "Cache-Control", FLOOR_CACHE_CONTROL,
                                       "Content-Type", FLOOR_CONTENT_TYPE, NULL};
        const char *body = floor_document(floor_sizes[i]);
        documents[i] = persistent(body, floor_sizes[i], headers);
        sendfile_documents[i] = sendfile_response(body, floor_sizes[i], headers);
    }
    redirect = persistent("", 0, (const char *const[]){"Location", FLOOR_LOCATION, NULL});
    const char *const text[] = {"Content-Type", "text/plain; charset=utf-8", NULL};
    not_found = persistent("not found\n", 10, text);
    not_allowed = persistent("method not allowed\n", 19, text);
    bad_request = persistent("bad request\n", 12, text);
    too_large = persistent("request body too large\n", 23, text);
    rpc_prebuilt = persistent(FLOOR_RPC_ANSWER, sizeof FLOOR_RPC_ANSWER - 1,
                              (const char *const[]){"Content-Type", FLOOR_CONTENT_TYPE, NULL});
    later = persistent("{\"changed\":true}", 16, (const char *const[]){"Content-Type", FLOOR_CONTENT_TYPE, NULL});
    pthread_t thread;
    pthread_create(&thread, NULL, backend, NULL);

    /* HTTPServer.start(): these flags, a pool of one thread per core, HTTPServerConfiguration's limits, and
     * `routereg serve`'s 16 KiB per-connection memory (ServeCommand+Run.swift). */
    unsigned int threads = (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[1])),
                                  .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG,
        (uint16_t)atoi(argv[1]), NULL, NULL, on_access, NULL, MHD_OPTION_SOCK_ADDR, &address,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, NULL, MHD_OPTION_URI_LOG_CALLBACK, uri_log, NULL,
        MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_CONNECTION_LIMIT, 4096u,
        MHD_OPTION_CONNECTION_TIMEOUT, 60u, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)16 * 1024, MHD_OPTION_END);
    if (daemon == NULL) {
        fprintf(stderr, "mhd_floor: cannot listen on port %s\n", argv[1]);
        return 1;
    }
    printf("listening on %s (libmicrohttpd %s, %u threads)\n", argv[1], MHD_get_version(), threads);
    fflush(stdout);
    int received;
    sigwait(&signals, &received);
    MHD_stop_daemon(daemon);
    return 0;
}
