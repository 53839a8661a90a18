#ifndef ROUTEREG_CMICROHTTPD_LISTENER_H
#define ROUTEREG_CMICROHTTPD_LISTENER_H
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/// The listening socket and the thread that accepts on it, handing each connection to the daemon
/// (MHD_add_connection). libmicrohttpd 0.9.75 cannot stop listening safely with a thread pool on epoll:
/// MHD_quiesce_daemon removes the listen socket from each worker's epoll set while the worker may be removing
/// it too, and the loser's ENOENT is an MHD_PANIC that aborts the process. Owning the socket, stopping is
/// waking this thread, joining it and closing the socket: new connections are refused, nothing races.
typedef struct routereg_listener {
    int fd;
    int wake; /* eventfd: written once to stop */
    uint16_t port;
    unsigned int connection_limit; /* 0: none; at the limit connections wait in the kernel's backlog */
    struct MHD_Daemon *daemon;
    pthread_t thread;
    int running;
} routereg_listener;

/// Writes `message` and errno's text into the error buffer; returns NULL for the caller's convenience.
static inline void *routereg_listener_fail(char *buffer, size_t size, const char *message) {
    snprintf(buffer, size, "%s: %s", message, strerror(errno));
    return NULL;
}

/// Binds `address` (numeric v4 or v6) and listens. NULL on failure, with why in `error`.
static inline routereg_listener *routereg_listener_open(const char *address, uint16_t port, char *error,
                                                        size_t error_size) {
    struct sockaddr_storage storage;
    socklen_t length;
    memset(&storage, 0, sizeof storage);
    struct sockaddr_in *v4 = (struct sockaddr_in *)&storage;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&storage;
    if (inet_pton(AF_INET, address, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        length = sizeof *v4;
    } else if (inet_pton(AF_INET6, address, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        length = sizeof *v6;
    } else {
        snprintf(error, error_size, "not a numeric IP address");
        return NULL;
    }
    int fd = socket(storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return routereg_listener_fail(error, error_size, "socket");
    int on = 1;
    (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (storage.ss_family == AF_INET6) (void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on);
    if (bind(fd, (struct sockaddr *)&storage, length) != 0 || listen(fd, SOMAXCONN) != 0) {
        routereg_listener_fail(error, error_size, "bind");
        close(fd);
        return NULL;
    }
    length = sizeof storage;
    if (getsockname(fd, (struct sockaddr *)&storage, &length) != 0) {
        routereg_listener_fail(error, error_size, "getsockname");
        close(fd);
        return NULL;
    }
    int wake = eventfd(0, EFD_CLOEXEC);
    routereg_listener *listener = wake < 0 ? NULL : calloc(1, sizeof *listener);
    if (listener == NULL) {
        routereg_listener_fail(error, error_size, "eventfd");
        if (wake >= 0) close(wake);
        close(fd);
        return NULL;
    }
    listener->fd = fd;
    listener->wake = wake;
    listener->port = ntohs(storage.ss_family == AF_INET ? v4->sin_port : v6->sin6_port);
    return listener;
}

static inline int routereg_listener_at_limit(routereg_listener *listener) {
    if (listener->connection_limit == 0) return 0;
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(listener->daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info != NULL && info->num_connections >= listener->connection_limit;
}

static inline void *routereg_listener_run(void *argument) {
    routereg_listener *listener = argument;
    for (;;) {
        /* At the connection limit, or out of descriptors: look again in 10 ms, leaving connections queued. */
        int pause = routereg_listener_at_limit(listener);
        struct pollfd fds[2] = {{listener->fd, pause ? 0 : POLLIN, 0}, {listener->wake, POLLIN, 0}};
        int ready = poll(fds, 2, pause ? 10 : -1);
        if (ready < 0 && errno != EINTR) return NULL;
        if (fds[1].revents != 0) return NULL;
        if (ready <= 0 || (fds[0].revents & POLLIN) == 0) continue;
        for (int i = 0; i < 64 && !routereg_listener_at_limit(listener); i++) {
            struct sockaddr_storage peer;
            socklen_t length = sizeof peer;
            int client = accept4(listener->fd, (struct sockaddr *)&peer, &length, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (client < 0) {
                if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                    struct pollfd wake = {listener->wake, POLLIN, 0};
                    (void)poll(&wake, 1, 10);
                }
                break; /* EAGAIN, or a connection that reset while queued */
            }
            /* On failure (the per-address limit) libmicrohttpd closes the socket itself. */
            (void)MHD_add_connection(listener->daemon, client, (struct sockaddr *)&peer, length);
        }
    }
}

/// Starts accepting for `daemon` (started with MHD_USE_NO_LISTEN_SOCKET). 0 on success, else an errno.
static inline int routereg_listener_start(routereg_listener *listener, struct MHD_Daemon *daemon,
                                          unsigned int connection_limit) {
    listener->daemon = daemon;
    listener->connection_limit = connection_limit;
    int failed = pthread_create(&listener->thread, NULL, routereg_listener_run, listener);
    listener->running = failed == 0;
    return failed;
}

/// Stops accepting and closes the socket: connections arriving from now on are refused. Frees `listener`.
static inline void routereg_listener_close(routereg_listener *listener) {
    if (listener == NULL) return;
    if (listener->running) {
        uint64_t one = 1;
        while (write(listener->wake, &one, sizeof one) < 0 && errno == EINTR) {}
        pthread_join(listener->thread, NULL);
    }
    close(listener->fd);
    close(listener->wake);
    free(listener);
}
#endif
