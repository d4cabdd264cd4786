#include "ccurl.h"

CURLcode mk_curl_setopt_long(CURL *h, CURLoption opt, long value) { return curl_easy_setopt(h, opt, value); }
CURLcode mk_curl_setopt_str(CURL *h, CURLoption opt, const char *value) { return curl_easy_setopt(h, opt, value); }
CURLcode mk_curl_setopt_ptr(CURL *h, CURLoption opt, void *value) { return curl_easy_setopt(h, opt, value); }
CURLcode mk_curl_setopt_slist(CURL *h, CURLoption opt, struct curl_slist *value) { return curl_easy_setopt(h, opt, value); }

CURLcode mk_curl_setopt_write(CURL *h, mk_curl_data_cb cb, void *userdata) {
    CURLcode rc = curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, cb);
    if (rc != CURLE_OK) return rc;
    return curl_easy_setopt(h, CURLOPT_WRITEDATA, userdata);
}
CURLcode mk_curl_setopt_header(CURL *h, mk_curl_data_cb cb, void *userdata) {
    CURLcode rc = curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, cb);
    if (rc != CURLE_OK) return rc;
    return curl_easy_setopt(h, CURLOPT_HEADERDATA, userdata);
}

CURLcode mk_curl_getinfo_long(CURL *h, CURLINFO info, long *out) { return curl_easy_getinfo(h, info, out); }
CURLcode mk_curl_getinfo_socket(CURL *h, curl_socket_t *out) { return curl_easy_getinfo(h, CURLINFO_ACTIVESOCKET, out); }

CURLcode mk_curl_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }
