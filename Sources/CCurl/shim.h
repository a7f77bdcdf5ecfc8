#ifndef IOSIAP_CCURL_SHIM_H
#define IOSIAP_CCURL_SHIM_H
// The system libcurl (Debian: libcurl4-openssl-dev; every macOS SDK ships it). curl_easy_setopt and
// curl_easy_getinfo are variadic, which Swift cannot call: these give each use its type.
#include <curl/curl.h>

static inline CURLcode iosiap_curl_set_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode iosiap_curl_set_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode iosiap_curl_set_pointer(CURL *curl, CURLoption option, const void *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode iosiap_curl_set_headers(CURL *curl, struct curl_slist *headers) {
    return curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
}
static inline CURLcode iosiap_curl_set_write_function(CURL *curl, curl_write_callback function) {
    return curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, function);
}
static inline CURLcode iosiap_curl_set_xferinfo_function(CURL *curl, curl_xferinfo_callback function) {
    return curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, function);
}
/* Only http and https. CURLOPT_PROTOCOLS_STR exists from libcurl 7.85; an older library (at build time, or at
   run time under newer headers: CURLE_UNKNOWN_OPTION) takes the bit mask, which 7.85 deprecated. */
static inline CURLcode iosiap_curl_allow_http_only(CURL *curl) {
#if LIBCURL_VERSION_NUM >= 0x075500
    CURLcode code = curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    if (code != CURLE_UNKNOWN_OPTION) return code;
#endif
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
    return curl_easy_setopt(curl, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#pragma clang diagnostic pop
}
/* Where a followed redirect may go: https only (https_only = 1), or http and https. As above, the _STR option from
   7.85, else the bit mask. */
static inline CURLcode iosiap_curl_allow_redirects(CURL *curl, int https_only) {
#if LIBCURL_VERSION_NUM >= 0x075500
    CURLcode code = curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, https_only ? "https" : "http,https");
    if (code != CURLE_UNKNOWN_OPTION) return code;
#endif
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
    return curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS, (long)(https_only ? CURLPROTO_HTTPS : (CURLPROTO_HTTP | CURLPROTO_HTTPS)));
#pragma clang diagnostic pop
}
/* Lets freeing the handle skip waiting for a name lookup still under way (CURLOPT_QUICK_EXIT, libcurl 7.87 on);
   an older libcurl waits for it, and says so with CURLE_UNKNOWN_OPTION, which is not an error here. */
static inline CURLcode iosiap_curl_quick_exit(CURL *curl) {
#if LIBCURL_VERSION_NUM >= 0x075700
    CURLcode code = curl_easy_setopt(curl, CURLOPT_QUICK_EXIT, 1L);
    return code == CURLE_UNKNOWN_OPTION ? CURLE_OK : code;
#else
    (void)curl;
    return CURLE_OK;
#endif
}
static inline CURLcode iosiap_curl_response_code(CURL *curl, long *code) {
    return curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, code);
}
#endif
