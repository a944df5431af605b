#ifndef KK_MICROHTTPD_SHIM_H
#define KK_MICROHTTPD_SHIM_H

/* libmicrohttpd's daemon, loaded on first use, for the party's server (DESIGN §21).
 *
 * Only `karaoke party` serves, so karaoke does not link libmicrohttpd: the first server started loads it
 * through the optional-library loader. The daemon runs on libmicrohttpd's own polling thread; each complete
 * request reaches one handler, which fills in the reply. This edge only moves bytes: it reads no path, serves
 * no file and decides nothing about what a request may do. */

#include <stddef.h>

/* One complete request, valid only during the handler's call. */
typedef struct {
    /* The method as sent (`GET`, `POST`, …). */
    const char *method;
    /* The request target before the first `?`, exactly as sent: not percent-decoded, `..` left in. */
    const char *path;
    /* The request target after the first `?`, exactly as sent; "" when there is none. */
    const char *query;
    /* The body's bytes, `body_length` of them; none when `body_too_large`. */
    const unsigned char *body;
    size_t body_length;
    /* 1 when the client sent, or announced, more body than the server's limit: none of it was kept. */
    int body_too_large;
    /* The client's address as text (`192.0.2.7`); "" when the system did not say. */
    const char *client;
} kk_httpd_request;

/* The reply being made for one request; the handler sets it with `kk_httpd_reply_set`. */
typedef struct kk_httpd_reply kk_httpd_reply;

/* The one handler of a server: called on the server's thread, one request at a time, with the `context`
 * given at the start. A handler that sets no reply gets a 500 with a JSON error. */
typedef void (*kk_httpd_handler)(void *context, const kk_httpd_request *request, kk_httpd_reply *reply);

/* Sets `reply` to `status` (200…599) with the `Content-Type` `content_type` (printable ASCII, under 256
 * bytes) and the `length` bytes at `body` (copied; NULL when `length` is 0). Every reply also carries
 * `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`. Returns 0, or -1 (and leaves the reply as
 * it was) for a status or content type outside those bounds, or when memory ran out. A later call replaces an
 * earlier one. */
int kk_httpd_reply_set(kk_httpd_reply *reply, int status, const char *content_type, const void *body, size_t length);

/* What a server is started with. */
typedef struct {
    /* The IPv4 address to listen on, as text (`127.0.0.1`); NULL or "" for every address. */
    const char *bind;
    /* The port, 0…65535; 0 picks a free one (`kk_httpd_port` says which). */
    int port;
    /* The most connections open at once; further clients wait in the listen queue until one closes. */
    unsigned int connection_limit;
    /* The most connections open at once from one address (0: no limit of its own); more are closed as they
     * are accepted. */
    unsigned int per_client_limit;
    /* Seconds a connection may stay silent (mid-request, or idle between requests) before it is closed. */
    unsigned int timeout_seconds;
    /* The most body bytes kept for a request; past it the request is marked too large. */
    size_t body_limit;
    kk_httpd_handler handler;
    void *context;
} kk_httpd_options;

/* One running server. */
typedef struct kk_httpd_server kk_httpd_server;

/* Loads libmicrohttpd on the first call. Returns NULL when it is ready, else the message to show, naming the
 * Debian package (a string that lives as long as the process). */
const char *kk_httpd_load(void);

/* Starts a server, listening when this returns; NULL when it could not, with the reason in `reason` (`size`
 * bytes). Its thread starts with every signal blocked. Call after `kk_httpd_load`. */
kk_httpd_server *kk_httpd_start(const kk_httpd_options *options, char *reason, size_t size);

/* The port `server` listens on. */
int kk_httpd_port(const kk_httpd_server *server);

/* Stops `server`: closes the listening socket and every connection, waits for its thread (so the handler is
 * never called again once this returns), and frees it. Safe with NULL. */
void kk_httpd_stop(kk_httpd_server *server);

#endif
