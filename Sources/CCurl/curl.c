/* The GET of `karaoke fetch` over libcurl, loaded on first use.
 *
 * The few libcurl types and constants used are declared here by their documented ABI (stable across
 * libcurl 7 and 8), so libcurl-dev is not needed to build. libcurl's defaults are kept where they protect:
 * certificates and host names are verified, and the proxy variables (http_proxy, https_proxy, no_proxy, …)
 * are read from the environment. */

#include "CCurl.h"

#include <optional_library.h>
#include <stdlib.h>
#include <string.h>

/* CURLoption values (curl.h: LONG options + 0, OBJECTPOINT + 10000, FUNCTIONPOINT + 20000). */
enum {
    KK_CURLOPT_WRITEDATA = 10001,
    KK_CURLOPT_URL = 10002,
    KK_CURLOPT_ERRORBUFFER = 10010,
    KK_CURLOPT_WRITEFUNCTION = 20011,
    KK_CURLOPT_USERAGENT = 10018,
    KK_CURLOPT_FOLLOWLOCATION = 52,
    KK_CURLOPT_MAXREDIRS = 68,
    KK_CURLOPT_NOSIGNAL = 99,
    KK_CURLOPT_TIMEOUT_MS = 155,
    KK_CURLOPT_PROTOCOLS_STR = 10318,
    KK_CURLOPT_REDIR_PROTOCOLS_STR = 10319
};

/* CURLINFO_RESPONSE_CODE (CURLINFO_LONG + 2). */
enum { KK_CURLINFO_RESPONSE_CODE = 0x200002 };

/* CURL_GLOBAL_DEFAULT (SSL and Win32 flags). */
enum { KK_CURL_GLOBAL_DEFAULT = 3 };

/* The libcurl functions used, in the order of kk_curl_library's symbols. */
typedef struct {
    int (*global_init)(long flags);
    void *(*easy_init)(void);
    int (*easy_setopt)(void *handle, int option, ...);
    int (*easy_perform)(void *handle);
    int (*easy_getinfo)(void *handle, int info, ...);
    void (*easy_cleanup)(void *handle);
    const char *(*easy_strerror)(int code);
} kk_curl_functions;

/* Filled by the loader; declared ahead of its KK_OPTIONAL_LIBRARY for the set-up below. */
static kk_curl_functions kk_curl;

/* libcurl's global set-up: not thread-safe in libcurl 7, hence here, under the loader's once. */
static const char *kk_curl_set_up(void) {
    return kk_curl.global_init(KK_CURL_GLOBAL_DEFAULT) == 0 ? NULL : "curl_global_init failed";
}

/* libcurl, loaded by kk_curl_load into kk_curl. */
KK_OPTIONAL_LIBRARY(kk_curl_library, kk_curl_load, kk_curl_functions, kk_curl, "libcurl.so.4",
                    "cannot load libcurl ({reason}); install libcurl4 to fetch lyrics",
                    "curl_global_init curl_easy_init curl_easy_setopt curl_easy_perform curl_easy_getinfo "
                    "curl_easy_cleanup curl_easy_strerror",
                    kk_curl_set_up)

/* libcurl's write callback: keeps the bytes, or stops the transfer (by taking fewer than offered) as soon
 * as the body would pass the limit. */
static size_t kk_http_on_data(char *data, size_t size, size_t count, void *context) {
    kk_http_response *response = (kk_http_response *)context;
    size_t bytes = size * count;
    if (response->length + bytes > response->limit) {
        response->too_large = 1;
        return 0;
    }
    char *grown = (char *)realloc(response->body, response->length + bytes + 1);
    if (grown == NULL) return 0;
    response->body = grown;
    memcpy(response->body + response->length, data, bytes);
    response->length += bytes;
    response->body[response->length] = 0;
    return bytes;
}

void kk_http_get(const char *url, const char *user_agent, long timeout_ms, size_t limit, kk_http_response *response) {
    memset(response, 0, sizeof *response);
    response->limit = limit;
    const char *missing = kk_curl_load();
    if (missing != NULL) {
        response->outcome = KK_HTTP_NO_LIBRARY;
        strncpy(response->message, missing, sizeof response->message - 1);
        return;
    }
    const kk_curl_functions *f = &kk_curl;
    void *handle = f->easy_init();
    if (handle == NULL) {
        response->outcome = KK_HTTP_OTHER;
        strcpy(response->message, "curl_easy_init failed");
        return;
    }
    char error[256] = {0};
    f->easy_setopt(handle, KK_CURLOPT_URL, url);
    f->easy_setopt(handle, KK_CURLOPT_USERAGENT, user_agent);
    f->easy_setopt(handle, KK_CURLOPT_WRITEFUNCTION, kk_http_on_data);
    f->easy_setopt(handle, KK_CURLOPT_WRITEDATA, (void *)response);
    f->easy_setopt(handle, KK_CURLOPT_ERRORBUFFER, error);
    f->easy_setopt(handle, KK_CURLOPT_TIMEOUT_MS, timeout_ms);
    /* No signals: the time limit must not raise SIGALRM in a program that has its own handlers. */
    f->easy_setopt(handle, KK_CURLOPT_NOSIGNAL, 1L);
    f->easy_setopt(handle, KK_CURLOPT_FOLLOWLOCATION, 1L);
    f->easy_setopt(handle, KK_CURLOPT_MAXREDIRS, 5L);
    f->easy_setopt(handle, KK_CURLOPT_PROTOCOLS_STR, "http,https");
    f->easy_setopt(handle, KK_CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    int code = f->easy_perform(handle);
    f->easy_getinfo(handle, KK_CURLINFO_RESPONSE_CODE, &response->status);
    f->easy_cleanup(handle);
    switch (code) {
    case 0: response->outcome = KK_HTTP_OK; break;
    case 5: case 6: response->outcome = KK_HTTP_DNS; break;                      /* COULDNT_RESOLVE_* */
    case 7: response->outcome = KK_HTTP_CONNECT; break;                          /* COULDNT_CONNECT */
    case 28: response->outcome = KK_HTTP_TIMEOUT; break;                         /* OPERATION_TIMEDOUT */
    case 35: case 53: case 54: case 58: case 59: case 60: case 64: case 66: case 77: case 80: case 82:
    case 83: case 90: case 91: response->outcome = KK_HTTP_TLS; break;           /* SSL_* and PEER_FAILED_* */
    case 23: case 63:                                                            /* WRITE_ERROR, FILESIZE_EXCEEDED */
        response->outcome = response->too_large || code == 63 ? KK_HTTP_TOO_LARGE : KK_HTTP_OTHER;
        break;
    default: response->outcome = KK_HTTP_OTHER; break;
    }
    if (response->outcome != KK_HTTP_OK) {
        const char *text = error[0] ? error : f->easy_strerror(code);
        strncpy(response->message, text ? text : "request failed", sizeof response->message - 1);
    }
}

void kk_http_free(kk_http_response *response) {
    free(response->body);
    response->body = NULL;
    response->length = 0;
}
