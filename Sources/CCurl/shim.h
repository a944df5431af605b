#ifndef KK_CURL_SHIM_H
#define KK_CURL_SHIM_H

/* libcurl's easy interface, loaded with dlopen on first use, for `karaoke fetch`'s GETs.
 *
 * Only fetching lyrics needs the network, so karaoke does not link libcurl (and the TLS and resolver
 * libraries it brings): the first request loads it, and a missing libcurl is an error about that request
 * only. Every dlopen and dlsym of libcurl is here. The few types and constants used are declared below by
 * their documented ABI (stable across libcurl 7 and 8), so libcurl-dev is not needed to build.
 *
 * libcurl's defaults are kept where they protect: certificates and host names are verified, and the
 * proxy variables (http_proxy, https_proxy, no_proxy, …) are read from the environment. */

#include <dlfcn.h>
#include <pthread.h>
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

/* How a request ended, grouped from CURLcode for the messages karaoke prints. */
enum {
    KK_HTTP_OK = 0,           /* an answer came, whatever its status */
    KK_HTTP_NO_LIBRARY = 1,   /* libcurl could not be loaded; `message` says why */
    KK_HTTP_DNS = 2,          /* the host (or the proxy) name did not resolve */
    KK_HTTP_CONNECT = 3,      /* no connection: refused, unreachable, no network */
    KK_HTTP_TLS = 4,          /* the TLS handshake or the certificate check failed */
    KK_HTTP_TIMEOUT = 5,      /* no whole answer within the time limit */
    KK_HTTP_TOO_LARGE = 6,    /* the answer passed the size limit */
    KK_HTTP_OTHER = 7         /* anything else libcurl reports; `message` says what */
};

/* The libcurl functions used, resolved once. */
typedef struct {
    int (*global_init)(long flags);
    void *(*easy_init)(void);
    int (*easy_setopt)(void *handle, int option, ...);
    int (*easy_perform)(void *handle);
    int (*easy_getinfo)(void *handle, int info, ...);
    void (*easy_cleanup)(void *handle);
    const char *(*easy_strerror)(int code);
} kk_curl_functions;

/* The loaded functions, or the reason they could not be loaded. */
typedef struct {
    pthread_once_t once;
    kk_curl_functions functions;
    int loaded;
    char failure[512];
} kk_curl_library_state;

/* The one state of the process: a weak global, not a static, so every object file that inlines these
 * functions refers to the same one (the linker keeps one definition). With a function-local static, each
 * object got its own copy, and where the loader had been inlined elsewhere the optimiser saw a copy that
 * is never written and removed the calls through it. */
__attribute__((weak)) kk_curl_library_state kk_curl_state = {PTHREAD_ONCE_INIT};

static inline kk_curl_library_state *kk_curl_library(void) { return &kk_curl_state; }

/* Resolves `name` into `slot`; records the first failure. */
static inline void kk_curl_resolve(void *handle, const char *name, void *slot, kk_curl_library_state *state) {
    /* Copied, not stored through a `void **`: the slot is a function pointer, and a store of another
     * type would let the optimiser assume the slot is never written (it removed calls through it). */
    void *symbol = dlsym(handle, name);
    memcpy(slot, &symbol, sizeof symbol);
    if (symbol == NULL && state->failure[0] == 0) {
        const char *reason = dlerror();
        strncpy(state->failure, reason ? reason : name, sizeof state->failure - 1);
    }
}

/* Loads libcurl and every function used, and runs its global set-up (not thread-safe in libcurl 7, hence
 * here, once). */
static inline void kk_curl_load_once(void) {
    kk_curl_library_state *state = kk_curl_library();
    void *handle = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        strncpy(state->failure, reason ? reason : "libcurl.so.4 not found", sizeof state->failure - 1);
        return;
    }
    kk_curl_functions *f = &state->functions;
    kk_curl_resolve(handle, "curl_global_init", (void *)&f->global_init, state);
    kk_curl_resolve(handle, "curl_easy_init", (void *)&f->easy_init, state);
    kk_curl_resolve(handle, "curl_easy_setopt", (void *)&f->easy_setopt, state);
    kk_curl_resolve(handle, "curl_easy_perform", (void *)&f->easy_perform, state);
    kk_curl_resolve(handle, "curl_easy_getinfo", (void *)&f->easy_getinfo, state);
    kk_curl_resolve(handle, "curl_easy_cleanup", (void *)&f->easy_cleanup, state);
    kk_curl_resolve(handle, "curl_easy_strerror", (void *)&f->easy_strerror, state);
    /* The handle stays open for the life of the process: libcurl keeps global state. */
    state->loaded = state->failure[0] == 0 && f->global_init(KK_CURL_GLOBAL_DEFAULT) == 0;
    if (!state->loaded && state->failure[0] == 0) strcpy(state->failure, "curl_global_init failed");
}

/* Loads libcurl on the first call. Returns NULL when it is ready, else why not, a string that lives as long
 * as the process. */
static inline const char *kk_curl_load(void) {
    kk_curl_library_state *state = kk_curl_library();
    pthread_once(&state->once, kk_curl_load_once);
    return state->loaded ? NULL : state->failure;
}

/* What one GET gave: the body (malloc'd, free it with `kk_http_free`), the HTTP status, and how it ended. */
typedef struct {
    char *body;
    size_t length;
    size_t limit;
    int too_large;
    long status;
    int outcome;     /* KK_HTTP_… */
    char message[256];
} kk_http_response;

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

/* GETs `url` (http or https only, redirects followed up to 5) with `user_agent`, giving up after
 * `timeout_ms` in all and after `limit` bytes of body. Fills `response`; its `outcome` says how it ended. */
static inline void kk_http_get(const char *url, const char *user_agent, long timeout_ms, size_t limit,
                               kk_http_response *response) {
    memset(response, 0, sizeof *response);
    response->limit = limit;
    const char *missing = kk_curl_load();
    if (missing != NULL) {
        response->outcome = KK_HTTP_NO_LIBRARY;
        strncpy(response->message, missing, sizeof response->message - 1);
        return;
    }
    const kk_curl_functions *f = &kk_curl_library()->functions;
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

/* Frees a response's body. */
static inline void kk_http_free(kk_http_response *response) {
    free(response->body);
    response->body = NULL;
    response->length = 0;
}

#endif
