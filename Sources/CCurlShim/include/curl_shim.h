/* Typed wrappers for libcurl's variadic functions, which Swift cannot call directly. */
#ifndef CURL_SHIM_H
#define CURL_SHIM_H

#include <curl/curl.h>
/* The content decoders (content_decoder.c), for the Swift core too. */
#include "content_decoder.h"

CURLcode shim_curl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode shim_curl_easy_setopt_ptr(CURL *handle, CURLoption option, void *value);
CURLcode shim_curl_easy_setopt_str(CURL *handle, CURLoption option, const char *value);
CURLcode shim_curl_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode shim_curl_easy_setopt_write(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *));
CURLcode shim_curl_easy_setopt_header(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *));
CURLcode shim_curl_easy_setopt_read(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *));
CURLcode shim_curl_easy_setopt_seek(CURL *handle, int (*fn)(void *, curl_off_t, int));
CURLcode shim_curl_easy_setopt_xferinfo(CURL *handle, int (*fn)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t));
CURLcode shim_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode shim_curl_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode shim_curl_easy_getinfo_ptr(CURL *handle, CURLINFO info, void **value);
CURLMcode shim_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
/* Names the calling thread (at most 15 bytes are kept). */
void shim_name_this_thread(const char *name);

#endif
