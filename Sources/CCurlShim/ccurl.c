#include "ccurl.h"
#include <idn2.h>

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

char *mk_idn2_to_ascii(const char *utf8, int *status) {
    char *out = NULL;
    int rc = idn2_to_ascii_8z(utf8, &out, IDN2_NONTRANSITIONAL | IDN2_NFC_INPUT);
    if (status) *status = rc;
    if (rc != IDN2_OK) {
        idn2_free(out);
        return NULL;
    }
    return out;
}

const char *mk_idn2_strerror(int status) { return idn2_strerror(status); }

void mk_idn2_free(char *p) { idn2_free(p); }
