#ifndef ROUTEREG_CCURL_SHIM_H
#define ROUTEREG_CCURL_SHIM_H
#include <curl/curl.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed wrapper per kind
   of argument. */
typedef size_t (*routereg_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode routereg_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode routereg_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode routereg_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode routereg_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode routereg_curl_set_callback(CURL *handle, CURLoption option, routereg_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}
typedef int (*routereg_curl_progress_callback)(void *context, curl_off_t download_total, curl_off_t download_now,
                                              curl_off_t upload_total, curl_off_t upload_now);

static inline CURLcode routereg_curl_set_progress(CURL *handle, routereg_curl_progress_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}
static inline CURLcode routereg_curl_response_code(CURL *handle, long *code) {
    return curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, code);
}
static inline CURLcode routereg_curl_set_post_body(CURL *handle, const char *body, long length) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE, length);
    return code != CURLE_OK ? code : curl_easy_setopt(handle, CURLOPT_COPYPOSTFIELDS, body);
}

/* Whether an address is one a request from outside must not reach: loopback, private (RFC 1918, unique
   local), link-local, carrier-grade NAT, unspecified, multicast and reserved ranges, and IPv4 mapped into
   IPv6 the same way. */
static inline int routereg_address_is_private(const struct sockaddr *address) {
    if (address->sa_family == AF_INET) {
        const unsigned char *b = (const unsigned char *)&((const struct sockaddr_in *)address)->sin_addr;
        return b[0] == 0 || b[0] == 10 || b[0] == 127 || (b[0] == 169 && b[1] == 254) ||
               (b[0] == 172 && (b[1] & 0xF0) == 16) || (b[0] == 192 && b[1] == 168) ||
               (b[0] == 100 && (b[1] & 0xC0) == 64) || b[0] >= 224;
    }
    if (address->sa_family == AF_INET6) {
        const unsigned char *b = ((const struct sockaddr_in6 *)address)->sin6_addr.s6_addr;
        static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};
        if (memcmp(b, mapped, 12) == 0) {
            struct sockaddr_in v4;
            memset(&v4, 0, sizeof v4);
            v4.sin_family = AF_INET;
            memcpy(&v4.sin_addr, b + 12, 4);
            return routereg_address_is_private((const struct sockaddr *)&v4);
        }
        int zero = 1;
        for (int i = 0; i < 15; i++) if (b[i] != 0) zero = 0;
        if (zero && (b[15] == 0 || b[15] == 1)) return 1;              /* :: and ::1 */
        return (b[0] & 0xFE) == 0xFC || (b[0] == 0xFE && (b[1] & 0xC0) == 0x80) || b[0] == 0xFF;
    }
    return 1;
}

/* libcurl opens each connection's socket through this: one to a private address is refused (CURL_SOCKET_BAD,
   which libcurl reports as a failed connect). It sees the address libcurl resolved and is about to use, so a
   name that resolves to a private address (DNS rebinding included) is refused too. */
static curl_socket_t routereg_curl_open_public_socket(void *context, curlsocktype purpose,
                                                     struct curl_sockaddr *address) {
    (void)context;
    if (purpose == CURLSOCKTYPE_IPCXN && routereg_address_is_private(&address->addr)) return CURL_SOCKET_BAD;
    return socket(address->family, address->socktype, address->protocol);
}

static inline CURLcode routereg_curl_public_addresses_only(CURL *handle) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, routereg_curl_open_public_socket);
}
#endif
