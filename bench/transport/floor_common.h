/* What both transport floors serve (bench/transport/floor.py): the same bytes and headers, so that the
 * two servers differ only in the HTTP library underneath. Sizes are those of BENCHMARKS.md's AASA documents. */
#ifndef FLOOR_COMMON_H
#define FLOOR_COMMON_H
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FLOOR_SMALL, FLOOR_MEDIUM, FLOOR_LARGE, FLOOR_DOCUMENTS };
static const char *const floor_paths[FLOOR_DOCUMENTS] = {"/small", "/medium", "/large"};
static const size_t floor_sizes[FLOOR_DOCUMENTS] = {2398, 8031, 57411};
/* routereg sends a strong tag and a Cache-Control with every document (StaticDocument). */
static const char *const floor_etags[FLOOR_DOCUMENTS] = {"\"9f2c41d07be3a865\"", "\"41be0c9d2a7f6e13\"",
                                                         "\"c07d5e19a3b8f462\""};
#define FLOOR_CONTENT_TYPE "application/json"
#define FLOOR_CACHE_CONTROL "public, max-age=300"
#define FLOOR_LOCATION "https://apps.apple.com/app/id1234567890?pt=117&ct=short-link&mt=8"
/* A CanOpen.Check-sized answer (about 120 bytes); a real one is built per call, so both servers copy it. */
#define FLOOR_RPC_ANSWER                                                                                   \
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"canOpen\":true,\"route\":\"/p/*\",\"version\":\"4.12.0\","  \
    "\"reason\":\"live\",\"cacheSeconds\":300}}"

/* An AASA-shaped JSON document of exactly `size` bytes (the content is irrelevant to a transport, the size not). */
static char *floor_document(size_t size) {
    char *out = malloc(size + 1);
    size_t at = (size_t)snprintf(out, size + 1, "{\"applinks\":{\"apps\":[],\"details\":[{\"appID\":"
                                                "\"ABCDE12345.com.example.app\",\"paths\":[\"NOT /admin/*\"");
    const char *tail = "]}]}}";
    for (int i = 0;; i++) {
        char item[32];
        int n = snprintf(item, sizeof item, ",\"/p/%06d/*\"", i);
        if (at + (size_t)n + strlen(tail) > size) break;
        memcpy(out + at, item, (size_t)n);
        at += (size_t)n;
    }
    while (at + strlen(tail) < size) out[at++] = ' ';  /* JSON whitespace pads to the exact size */
    memcpy(out + at, tail, strlen(tail) + 1);
    return out;
}

/* GET /later is answered by another thread, as routereg answers a long poll (a Watch) when a change comes:
 * the transport parks the request, a "backend" thread takes it from this queue and hands it back. The
 * backend answers at once, so the round trip measures the transport's cost of parking and waking a request. */
typedef struct floor_queue {
    pthread_mutex_t lock;
    pthread_cond_t ready;
    void *items[4096];
    size_t head, count;
} floor_queue;

static floor_queue floor_later = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, {0}, 0, 0};

/* Returns 0 when the queue is full (the caller answers 503). */
static int floor_queue_push(floor_queue *q, void *item) {
    pthread_mutex_lock(&q->lock);
    int room = q->count < sizeof q->items / sizeof q->items[0];
    if (room) {
        q->items[(q->head + q->count++) % (sizeof q->items / sizeof q->items[0])] = item;
        pthread_cond_signal(&q->ready);
    }
    pthread_mutex_unlock(&q->lock);
    return room;
}

static void *floor_queue_pop(floor_queue *q) {
    pthread_mutex_lock(&q->lock);
    while (q->count == 0) pthread_cond_wait(&q->ready, &q->lock);
    void *item = q->items[q->head];
    q->head = (q->head + 1) % (sizeof q->items / sizeof q->items[0]);
    q->count--;
    pthread_mutex_unlock(&q->lock);
    return item;
}

/* Blocks SIGINT and SIGTERM in this thread and every thread it starts later, so floor_wait_for_signal gets them. */
static void floor_block_signals(sigset_t *set) {
    sigemptyset(set);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, set, NULL);
    signal(SIGPIPE, SIG_IGN);
}
#endif
