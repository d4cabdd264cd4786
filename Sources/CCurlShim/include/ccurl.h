#ifndef MAKIMA_CCURL_H
#define MAKIMA_CCURL_H
#include <stddef.h>
#include <curl/curl.h>

// curl_easy_setopt / curl_easy_getinfo are variadic and cannot be called from Swift.
CURLcode mk_curl_setopt_long(CURL *h, CURLoption opt, long value);
CURLcode mk_curl_setopt_str(CURL *h, CURLoption opt, const char *value);
CURLcode mk_curl_setopt_ptr(CURL *h, CURLoption opt, void *value);
CURLcode mk_curl_setopt_slist(CURL *h, CURLoption opt, struct curl_slist *value);

typedef size_t (*mk_curl_data_cb)(char *ptr, size_t size, size_t nmemb, void *userdata);
CURLcode mk_curl_setopt_write(CURL *h, mk_curl_data_cb cb, void *userdata);
CURLcode mk_curl_setopt_header(CURL *h, mk_curl_data_cb cb, void *userdata);

CURLcode mk_curl_getinfo_long(CURL *h, CURLINFO info, long *out);
CURLcode mk_curl_getinfo_socket(CURL *h, curl_socket_t *out);

// CURL_GLOBAL_DEFAULT is a macro; call once before any thread uses curl.
CURLcode mk_curl_global_init(void);

// International domain names through libidn2 (UTF-8 in, whatever the locale): the ASCII
// (punycode) form, or NULL with the libidn2 status in *status. Free with mk_idn2_free.
char *mk_idn2_to_ascii(const char *utf8, int *status);
const char *mk_idn2_strerror(int status);
void mk_idn2_free(char *p);
#endif
