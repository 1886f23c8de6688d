#define _GNU_SOURCE
#include <pthread.h>
#include "curl_shim.h"

/* Hidden: these are for the Swift core only, never part of the exported C API. */
#define SHIM __attribute__((visibility("hidden")))

SHIM CURLcode shim_curl_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
SHIM CURLcode shim_curl_easy_setopt_ptr(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
SHIM CURLcode shim_curl_easy_setopt_str(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
SHIM CURLcode shim_curl_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
SHIM CURLcode shim_curl_easy_setopt_write(CURL *h, size_t (*fn)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, fn);
}
SHIM CURLcode shim_curl_easy_setopt_header(CURL *h, size_t (*fn)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, fn);
}
SHIM CURLcode shim_curl_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
SHIM CURLcode shim_curl_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v) { return curl_easy_getinfo(h, i, v); }
SHIM CURLcode shim_curl_easy_getinfo_ptr(CURL *h, CURLINFO i, void **v) { return curl_easy_getinfo(h, i, v); }
SHIM CURLMcode shim_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
SHIM CURLcode shim_curl_easy_setopt_read(CURL *h, size_t (*fn)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(h, CURLOPT_READFUNCTION, fn);
}
SHIM CURLcode shim_curl_easy_setopt_seek(CURL *h, int (*fn)(void *, curl_off_t, int)) {
    return curl_easy_setopt(h, CURLOPT_SEEKFUNCTION, fn);
}
SHIM CURLcode shim_curl_easy_setopt_xferinfo(CURL *h, int (*fn)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) {
    return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, fn);
}

/* pthread_setname_np is a GNU extension Swift's Glibc module does not show. */
SHIM void shim_name_this_thread(const char *name) { pthread_setname_np(pthread_self(), name); }
