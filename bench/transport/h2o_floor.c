/* The same endpoints as mhd_floor.c on h2o 2.2.5's own event loop (libh2o-evloop): the floor a routereg on
 * h2o could reach. The usual h2o multi-thread pattern: one loop per core, each on its own thread with its own
 * SO_REUSEPORT listening socket (the kernel spreads connections; no lock between loops).
 *
 *   h2o_floor PORT     listens on 127.0.0.1:PORT, prints "listening on PORT", stops on SIGTERM/SIGINT.
 */
#include <errno.h>
#include <netinet/in.h>
#include <unistd.h>

#include <h2o.h>

#include "floor_common.h"

struct worker {
    h2o_context_t ctx;
    h2o_accept_ctx_t accept_ctx;
    h2o_multithread_receiver_t later_receiver;
    int listen_fd;
    pthread_t thread;
};

/* A parked GET /later. Lives in the request's pool: h2o keeps the request (and its connection, whose socket
 * it stops reading) until an answer is sent, so the pointer stays valid however long the backend takes. */
struct later {
    h2o_multithread_message_t message;
    h2o_req_t *req;
    struct worker *worker;
};

static h2o_globalconf_t config;
static h2o_iovec_t documents[FLOOR_DOCUMENTS];

/* A static body: no copy (h2o_send_inline would copy it into the pool, and leaves Content-Length out, so a
 * 200 goes out chunked). The generator has nothing more to produce, hence no callbacks. */
static void send_static(h2o_req_t *req, int status, const char *reason, h2o_iovec_t body) {
    static h2o_generator_t generator = {NULL, NULL};
    req->res.status = status;
    req->res.reason = reason;
    req->res.content_length = body.len;
    h2o_start_response(req, &generator);
    h2o_send(req, &body, body.len != 0, H2O_SEND_STATE_FINAL);
}

static void add(h2o_req_t *req, const h2o_token_t *token, const char *name, const char *value) {
    /* orig_name keeps routereg's spelling on the wire; h2o stores the pointers, no copy. */
    h2o_add_header(&req->pool, &req->res.headers, token, name, value, strlen(value));
}

static int text(h2o_req_t *req, int status, const char *reason, const char *body) {
    add(req, H2O_TOKEN_CONTENT_TYPE, "Content-Type", "text/plain; charset=utf-8");
    send_static(req, status, reason, h2o_iovec_init(body, strlen(body)));
    return 0;
}

static void on_later_answered(h2o_multithread_receiver_t *receiver, h2o_linklist_t *messages) {
    (void)receiver;
    while (!h2o_linklist_is_empty(messages)) {
        struct later *later = H2O_STRUCT_FROM_MEMBER(struct later, message.link, messages->next);
        h2o_linklist_unlink(&later->message.link);
        add(later->req, H2O_TOKEN_CONTENT_TYPE, "Content-Type", FLOOR_CONTENT_TYPE);
        send_static(later->req, 200, "OK", h2o_iovec_init(H2O_STRLIT("{\"changed\":true}")));
    }
}

/* The backend of GET /later: an h2o request may only be touched on its loop's thread, so the answer goes
 * back as a message to that loop's queue (a mutex and a pipe write when the queue was empty). */
static void *backend(void *arg) {
    (void)arg;
    for (;;) {
        struct later *later = floor_queue_pop(&floor_later);
        h2o_multithread_send_message(&later->worker->later_receiver, &later->message);
    }
    return NULL;
}

static int on_req(h2o_handler_t *self, h2o_req_t *req) {
    (void)self;
    int get = h2o_memis(req->method.base, req->method.len, H2O_STRLIT("GET"));
    h2o_iovec_t path = req->path_normalized;
    for (int i = 0; i < FLOOR_DOCUMENTS; i++) {
        if (!h2o_memis(path.base, path.len, floor_paths[i], strlen(floor_paths[i]))) continue;
        if (!get) return text(req, 405, "Method Not Allowed", "method not allowed\n");
        add(req, H2O_TOKEN_ETAG, "ETag", floor_etags[i]);
        add(req, H2O_TOKEN_CACHE_CONTROL, "Cache-Control", FLOOR_CACHE_CONTROL);
        add(req, H2O_TOKEN_CONTENT_TYPE, "Content-Type", FLOOR_CONTENT_TYPE);
        send_static(req, 200, "OK", documents[i]);
        return 0;
    }
    if (h2o_memis(path.base, path.len, H2O_STRLIT("/redirect"))) {
        if (!get) return text(req, 405, "Method Not Allowed", "method not allowed\n");
        add(req, H2O_TOKEN_LOCATION, "Location", FLOOR_LOCATION);
        send_static(req, 302, "Found", h2o_iovec_init("", 0));
        return 0;
    }
    if (h2o_memis(path.base, path.len, H2O_STRLIT("/rpc"))) {
        if (!h2o_memis(req->method.base, req->method.len, H2O_STRLIT("POST")))
            return text(req, 405, "Method Not Allowed", "method not allowed\n");
        /* The whole body is already here (h2o 2.2 buffers it; over max_request_entity_size it answered 413). */
        if (req->entity.len == 0 || req->entity.base[0] != '{') return text(req, 400, "Bad Request", "bad request\n");
        add(req, H2O_TOKEN_CONTENT_TYPE, "Content-Type", FLOOR_CONTENT_TYPE);
        /* Copied like a per-call answer, as mhd_floor does. */
        send_static(req, 200, "OK", h2o_strdup(&req->pool, FLOOR_RPC_ANSWER, sizeof FLOOR_RPC_ANSWER - 1));
        return 0;
    }
    if (h2o_memis(path.base, path.len, H2O_STRLIT("/later"))) {
        if (!get) return text(req, 405, "Method Not Allowed", "method not allowed\n");
        struct later *later = h2o_mem_alloc_pool(&req->pool, sizeof *later);
        later->req = req;
        later->worker = H2O_STRUCT_FROM_MEMBER(struct worker, ctx, req->conn->ctx);
        /* Unlinked means next == NULL (an initialized anchor counts as linked and trips an assertion). */
        later->message.link = (h2o_linklist_t){NULL, NULL};
        if (!floor_queue_push(&floor_later, later)) return text(req, 503, "Service Unavailable", "busy\n");
        return 0; /* answered later, from on_later_answered */
    }
    return text(req, 404, "Not Found", "not found\n");
}

static void on_accept(h2o_socket_t *listener, const char *err) {
    struct worker *worker = listener->data;
    if (err != NULL) return;
    /* Several per wake-up, as h2o's own server does (nginx's multi_accept). */
    for (int i = 0; i < 16; i++) {
        h2o_socket_t *sock = h2o_evloop_socket_accept(listener);
        if (sock == NULL) return;
        h2o_accept(&worker->accept_ctx, sock);
    }
}

/* A listening socket of its own per loop: the kernel spreads new connections between them (SO_REUSEPORT). */
static int listen_on(int port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), on = 1;
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                                  .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof on) != 0 ||
        bind(fd, (struct sockaddr *)&address, sizeof address) != 0 || listen(fd, SOMAXCONN) != 0) {
        fprintf(stderr, "h2o_floor: cannot listen on port %d: %s\n", port, strerror(errno));
        exit(1);
    }
    return fd;
}

static void *run(void *arg) {
    struct worker *worker = arg;
    h2o_context_init(&worker->ctx, h2o_evloop_create(), &config);
    worker->accept_ctx.ctx = &worker->ctx;
    worker->accept_ctx.hosts = config.hosts;
    h2o_multithread_register_receiver(worker->ctx.queue, &worker->later_receiver, on_later_answered);

    h2o_socket_t *listener = h2o_evloop_socket_create(worker->ctx.loop, worker->listen_fd, H2O_SOCKET_FLAG_DONT_READ);
    listener->data = worker;
    h2o_socket_read_start(listener, on_accept);
    /* Not `while (h2o_evloop_run(...) == 0)` as h2o's simple.c: it returns -1 when epoll_wait is interrupted
     * (a ptrace attach does it), and the loop would end while the process lives on, answering nothing. */
    for (;;) h2o_evloop_run(worker->ctx.loop, INT32_MAX);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s PORT\n", argv[0]);
        return 2;
    }
    int port = atoi(argv[1]);
    sigset_t signals;
    floor_block_signals(&signals);
    for (int i = 0; i < FLOOR_DOCUMENTS; i++)
        documents[i] = h2o_iovec_init(floor_document(floor_sizes[i]), floor_sizes[i]);

    h2o_config_init(&config);
    /* routereg's maxBodyBytes (1 MiB) instead of h2o's 1 GiB: h2o buffers a whole body before the handler runs. */
    config.max_request_entity_size = 1 << 20;
    h2o_hostconf_t *host = h2o_config_register_host(&config, h2o_iovec_init(H2O_STRLIT("default")), 65535);
    h2o_pathconf_t *root = h2o_config_register_path(host, "/", 0);
    h2o_create_handler(root, sizeof(h2o_handler_t))->on_req = on_req;

    pthread_t thread;
    pthread_create(&thread, NULL, backend, NULL);
    long threads = sysconf(_SC_NPROCESSORS_ONLN);
    struct worker *workers = calloc((size_t)threads, sizeof *workers);
    for (long i = 0; i < threads; i++) workers[i].listen_fd = listen_on(port);
    for (long i = 0; i < threads; i++) pthread_create(&workers[i].thread, NULL, run, &workers[i]);
    printf("listening on %d (h2o %s, %ld threads)\n", port, H2O_VERSION, threads);
    fflush(stdout);
    int received;
    sigwait(&signals, &received);
    return 0; /* exits without tearing the loops down: nothing to flush */
}
