#ifndef ROUTEREG_CCURL_SHIM_H
#define ROUTEREG_CCURL_SHIM_H
#include <curl/curl.h>

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
#endif
