#ifndef KK_CURL_SHIM_H
#define KK_CURL_SHIM_H

/* libcurl's easy interface, loaded on first use, for `karaoke fetch`'s GETs.
 *
 * Only fetching lyrics needs the network, so karaoke does not link libcurl (and the TLS and resolver
 * libraries it brings): the first request loads it through the optional-library loader, and a missing
 * libcurl is an error about that request only. The request itself is C (curl.c), since libcurl's options
 * are variadic and its write callback a C function; this header declares what Swift calls. */

#include <stddef.h>

/* How a request ended, grouped from CURLcode for the messages karaoke prints. */
enum {
    KK_HTTP_OK = 0,           /* an answer came, whatever its status */
    KK_HTTP_NO_LIBRARY = 1,   /* libcurl could not be loaded; `message` is the whole message to show */
    KK_HTTP_DNS = 2,          /* the host (or the proxy) name did not resolve */
    KK_HTTP_CONNECT = 3,      /* no connection: refused, unreachable, no network */
    KK_HTTP_TLS = 4,          /* the TLS handshake or the certificate check failed */
    KK_HTTP_TIMEOUT = 5,      /* no whole answer within the time limit */
    KK_HTTP_TOO_LARGE = 6,    /* the answer passed the size limit */
    KK_HTTP_OTHER = 7         /* anything else libcurl reports; `message` says what */
};

/* What one GET gave: the body (malloc'd, free it with `kk_http_free`), the HTTP status, and how it ended. */
typedef struct {
    char *body;
    size_t length;
    size_t limit;
    int too_large;
    long status;
    int outcome;     /* KK_HTTP_… */
    char message[640];
} kk_http_response;

/* Loads libcurl on the first call. Returns NULL when it is ready, else the message to show, naming the
 * Debian package. `kk_http_get` calls it itself; Swift need not. */
const char *kk_curl_load(void);

/* GETs `url` (http or https only, redirects followed up to 5) with `user_agent`, giving up after
 * `timeout_ms` in all and after `limit` bytes of body. Fills `response`; its `outcome` says how it ended.
 * Loads libcurl on the first call. */
void kk_http_get(const char *url, const char *user_agent, long timeout_ms, size_t limit, kk_http_response *response);

/* Frees a response's body. */
void kk_http_free(kk_http_response *response);

#endif
