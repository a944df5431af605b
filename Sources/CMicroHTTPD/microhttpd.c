/* The party's HTTP server over libmicrohttpd, loaded on first use.
 *
 * The few libmicrohttpd types and constants used are declared here by their documented ABI (microhttpd.h of
 * 0.9.75, Debian 12's), so libmicrohttpd-dev is not needed to build. One daemon
 * per server, on libmicrohttpd's own polling thread (epoll); every callback below runs on that thread. */

#include "CMicroHTTPD.h"

#include <arpa/inet.h>
#include <limits.h>
#include <netinet/in.h>
#include <optional_library.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* enum MHD_FLAG: the daemon runs its own thread, which sleeps in epoll; its messages go to kk_httpd_log below
 * (MHD_OPTION_EXTERNAL_LOGGER), never to stderr, which is the screen's. */
enum { KK_MHD_USE_ERROR_LOG = 1, KK_MHD_USE_INTERNAL_POLLING_THREAD = 8, KK_MHD_USE_EPOLL = 512 };

/* enum MHD_OPTION. */
enum {
    KK_MHD_OPTION_END = 0,
    KK_MHD_OPTION_CONNECTION_LIMIT = 2,
    KK_MHD_OPTION_CONNECTION_TIMEOUT = 3,
    KK_MHD_OPTION_NOTIFY_COMPLETED = 4,
    KK_MHD_OPTION_PER_IP_CONNECTION_LIMIT = 5,
    KK_MHD_OPTION_SOCK_ADDR = 6,
    KK_MHD_OPTION_URI_LOG_CALLBACK = 7,
    KK_MHD_OPTION_EXTERNAL_LOGGER = 13
};

/* enum MHD_Result, enum MHD_ResponseMemoryMode, enum MHD_DaemonInfoType, enum MHD_ConnectionInfoType. */
enum { KK_MHD_NO = 0, KK_MHD_YES = 1 };
enum { KK_MHD_RESPMEM_MUST_COPY = 2 };
enum { KK_MHD_DAEMON_INFO_LISTEN_FD = 2 };
enum { KK_MHD_CONNECTION_INFO_CLIENT_ADDRESS = 2 };
/* enum MHD_ValueKind: a request header. */
enum { KK_MHD_HEADER_KIND = 1 };

/* The members read of union MHD_DaemonInfo and union MHD_ConnectionInfo: each a union, so every member is at
 * its start. */
typedef union {
    int listen_fd;
} kk_mhd_daemon_info;
typedef union {
    struct sockaddr *client_addr;
} kk_mhd_connection_info;

/* The callbacks libmicrohttpd calls (MHD_AccessHandlerCallback, MHD_RequestCompletedCallback, the URI log
 * callback and MHD_LogCallback). */
typedef int (*kk_mhd_access_handler)(void *cls, void *connection, const char *url, const char *method,
                                     const char *version, const char *upload_data, size_t *upload_data_size,
                                     void **request_context);
typedef void (*kk_mhd_completed)(void *cls, void *connection, void **request_context, int termination);
typedef void *(*kk_mhd_uri_logger)(void *cls, const char *uri, void *connection);
typedef void (*kk_mhd_logger)(void *cls, const char *format, va_list arguments);

/* The libmicrohttpd functions used, in the order of kk_httpd_library's symbols. */
typedef struct {
    void *(*start_daemon)(unsigned int flags, unsigned short port, void *accept_policy, void *accept_policy_cls,
                          kk_mhd_access_handler handler, void *handler_cls, ...);
    void (*stop_daemon)(void *daemon);
    const kk_mhd_daemon_info *(*get_daemon_info)(void *daemon, int info, ...);
    const kk_mhd_connection_info *(*get_connection_info)(void *connection, int info, ...);
    const char *(*lookup_connection_value)(void *connection, int kind, const char *key);
    void *(*create_response_from_buffer)(size_t size, void *buffer, int mode);
    int (*add_response_header)(void *response, const char *header, const char *content);
    int (*queue_response)(void *connection, unsigned int status, void *response);
    void (*destroy_response)(void *response);
} kk_mhd_functions;

/* libmicrohttpd, loaded by kk_httpd_load into kk_mhd. */
KK_OPTIONAL_LIBRARY(kk_httpd_library, kk_httpd_load, kk_mhd_functions, kk_mhd, "libmicrohttpd.so.12",
                    "the party's server needs libmicrohttpd.so.12 (Debian: libmicrohttpd12): {reason}",
                    "MHD_start_daemon MHD_stop_daemon MHD_get_daemon_info MHD_get_connection_info "
                    "MHD_lookup_connection_value MHD_create_response_from_buffer MHD_add_response_header "
                    "MHD_queue_response MHD_destroy_response",
                    NULL)

struct kk_httpd_server {
    void *daemon;
    kk_httpd_handler handler;
    void *context;
    size_t body_limit;
    int port;
    /* 1 while kk_httpd_start runs: only then is the daemon's last message kept, for the reason it failed
     * (after the start nobody reads it, and the daemon's thread would be writing it). */
    atomic_int starting;
    char last_message[256];
};

struct kk_httpd_reply {
    void *response;
    unsigned int status;
};

/* One request on its way in: its target as sent, split at the first `?`, and its body so far. Made by the
 * URI logger, which libmicrohttpd calls with the request line's target before it decodes anything, and freed
 * when the request is over. */
typedef struct {
    /* The target's copy, with the `?` overwritten by a NUL; `query` points past it, or to "". */
    char *path;
    const char *query;
    unsigned char *body;
    size_t body_length;
    int body_too_large;
    /* 1 once the handler's first call (the headers) has passed: the next call without data ends the body. */
    int headers_seen;
} kk_httpd_exchange;

/* Keeps the daemon's message during the start (the reason a bind failed); drops it otherwise. */
static void kk_httpd_log(void *cls, const char *format, va_list arguments) {
    kk_httpd_server *server = cls;
    if (!atomic_load(&server->starting)) return;
    vsnprintf(server->last_message, sizeof server->last_message, format, arguments);
    /* Worded as karaoke's messages are: lower case, no full stop. */
    if (server->last_message[0] >= 'A' && server->last_message[0] <= 'Z') server->last_message[0] += 'a' - 'A';
    size_t length = strlen(server->last_message);
    while (length > 0 && (server->last_message[length - 1] == '\n' || server->last_message[length - 1] == '.'))
        server->last_message[--length] = 0;
}

static void *kk_httpd_begin(void *cls, const char *uri, void *connection) {
    (void)cls, (void)connection;
    /* A request line without a target gives none. */
    if (uri == NULL) uri = "";
    size_t length = strlen(uri);
    kk_httpd_exchange *exchange = calloc(1, sizeof *exchange + length + 1);
    if (exchange == NULL) return NULL;
    exchange->path = (char *)(exchange + 1);
    memcpy(exchange->path, uri, length + 1);
    char *mark = strchr(exchange->path, '?');
    if (mark != NULL) {
        *mark = 0;
        exchange->query = mark + 1;
    } else {
        exchange->query = "";
    }
    return exchange;
}

static void kk_httpd_end(void *cls, void *connection, void **request_context, int termination) {
    (void)cls, (void)connection, (void)termination;
    kk_httpd_exchange *exchange = *request_context;
    if (exchange == NULL) return;
    free(exchange->body);
    free(exchange);
    *request_context = NULL;
}

/* Keeps `length` more body bytes, up to the limit; past it the request is too large and no byte is kept
 * (the core answers 413 without reading any). */
static void kk_httpd_take(kk_httpd_exchange *exchange, size_t limit, const char *data, size_t length) {
    if (exchange->body_too_large) return;
    if (length > limit - exchange->body_length) {
        exchange->body_too_large = 1;
        free(exchange->body);
        exchange->body = NULL;
        exchange->body_length = 0;
        return;
    }
    if (exchange->body == NULL) {
        /* The whole limit at once: it is small, and the connection's life is short. */
        exchange->body = malloc(limit > 0 ? limit : 1);
        if (exchange->body == NULL) {
            /* Out of memory reads, to the core, as a body it cannot take. */
            exchange->body_too_large = 1;
            return;
        }
    }
    memcpy(exchange->body + exchange->body_length, data, length);
    exchange->body_length += length;
}

/* The client's address as text into `text` ("" when unknown). */
static void kk_httpd_client(void *connection, char *text, size_t size) {
    text[0] = 0;
    const kk_mhd_connection_info *info = kk_mhd.get_connection_info(connection, KK_MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, text, (socklen_t)size);
    } else if (address->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, text, (socklen_t)size);
    }
}

int kk_httpd_reply_set(kk_httpd_reply *reply, int status, const char *content_type, const void *body, size_t length) {
    if (status < 200 || status > 599 || content_type == NULL) return -1;
    /* A header value with a line break would let the reply write headers of its own. */
    size_t type_length = strlen(content_type);
    if (type_length == 0 || type_length >= 256) return -1;
    for (size_t i = 0; i < type_length; i++)
        if (content_type[i] < 0x20 || content_type[i] > 0x7E) return -1;
    if (body == NULL) {
        if (length > 0) return -1;
        body = "";
    }
    /* Copied: the caller's bytes live only for its call. */
    void *response = kk_mhd.create_response_from_buffer(length, (void *)body, KK_MHD_RESPMEM_MUST_COPY);
    if (response == NULL) return -1;
    if (kk_mhd.add_response_header(response, "Content-Type", content_type) != KK_MHD_YES ||
        kk_mhd.add_response_header(response, "Cache-Control", "no-store") != KK_MHD_YES ||
        kk_mhd.add_response_header(response, "X-Content-Type-Options", "nosniff") != KK_MHD_YES) {
        kk_mhd.destroy_response(response);
        return -1;
    }
    if (reply->response != NULL) kk_mhd.destroy_response(reply->response);
    reply->response = response;
    reply->status = (unsigned int)status;
    return 0;
}

/* The reply when the handler set none, or when the request never got as far as the handler. */
static int kk_httpd_fail(kk_httpd_reply *reply) {
    static const char body[] = "{\"error\":\"the server could not answer\"}";
    return kk_httpd_reply_set(reply, 500, "application/json; charset=utf-8", body, sizeof body - 1);
}

/* Whether the request's Content-Length says more than `limit` bytes are coming. */
static int kk_httpd_declares_more(void *connection, size_t limit) {
    const char *declared = kk_mhd.lookup_connection_value(connection, KK_MHD_HEADER_KIND, "Content-Length");
    if (declared == NULL) return 0;
    unsigned long long length = 0;
    for (const char *digit = declared; *digit >= '0' && *digit <= '9'; digit++) {
        /* Stops rather than wraps: any length past the limit is too much. */
        if (length > limit || length > (ULLONG_MAX - 9) / 10) return 1;
        length = length * 10 + (unsigned long long)(*digit - '0');
    }
    return length > limit;
}

/* Hands the request to the handler and queues its reply; libmicrohttpd's result. */
static int kk_httpd_answer(kk_httpd_server *server, void *connection, const char *method,
                           const kk_httpd_exchange *exchange) {
    char client[INET6_ADDRSTRLEN];
    kk_httpd_client(connection, client, sizeof client);
    kk_httpd_request request = {
        .method = method ? method : "",
        .path = exchange->path,
        .query = exchange->query,
        .body = exchange->body_too_large ? NULL : exchange->body,
        .body_length = exchange->body_too_large ? 0 : exchange->body_length,
        .body_too_large = exchange->body_too_large,
        .client = client,
    };
    kk_httpd_reply reply = {NULL, 0};
    if (server->handler != NULL) server->handler(server->context, &request, &reply);
    if (reply.response == NULL && kk_httpd_fail(&reply) != 0) return KK_MHD_NO;
    int queued = kk_mhd.queue_response(connection, reply.status, reply.response);
    /* The connection holds its own reference until the reply is sent. */
    kk_mhd.destroy_response(reply.response);
    return queued;
}

static int kk_httpd_access(void *cls, void *connection, const char *url, const char *method, const char *version,
                           const char *upload_data, size_t *upload_data_size, void **request_context) {
    (void)url, (void)version;
    kk_httpd_server *server = cls;
    kk_httpd_exchange *exchange = *request_context;
    if (exchange == NULL) {
        /* The URI logger ran out of memory: answered at once, whatever body follows is not read. */
        kk_httpd_reply reply = {NULL, 0};
        if (kk_httpd_fail(&reply) != 0) return KK_MHD_NO;
        int queued = kk_mhd.queue_response(connection, reply.status, reply.response);
        kk_mhd.destroy_response(reply.response);
        return queued;
    }
    if (!exchange->headers_seen) {
        exchange->headers_seen = 1;
        /* A body announced too large is answered before a byte of it is read: libmicrohttpd then drops the
         * rest and closes the connection, so a huge upload costs its sender, not the server. */
        if (!kk_httpd_declares_more(connection, server->body_limit)) return KK_MHD_YES;
        exchange->body_too_large = 1;
        return kk_httpd_answer(server, connection, method, exchange);
    }
    if (*upload_data_size > 0) {
        kk_httpd_take(exchange, server->body_limit, upload_data, *upload_data_size);
        *upload_data_size = 0;
        return KK_MHD_YES;
    }
    return kk_httpd_answer(server, connection, method, exchange);
}

kk_httpd_server *kk_httpd_start(const kk_httpd_options *options, char *reason, size_t size) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_ANY);
    if (options->port < 0 || options->port > 65535) {
        snprintf(reason, size, "port %d is not between 0 and 65535", options->port);
        return NULL;
    }
    address.sin_port = htons((unsigned short)options->port);
    if (options->bind != NULL && options->bind[0] != 0 && inet_pton(AF_INET, options->bind, &address.sin_addr) != 1) {
        snprintf(reason, size, "'%s' is not an IPv4 address", options->bind);
        return NULL;
    }
    kk_httpd_server *server = calloc(1, sizeof *server);
    if (server == NULL) {
        snprintf(reason, size, "out of memory");
        return NULL;
    }
    server->handler = options->handler;
    server->context = options->context;
    server->body_limit = options->body_limit;
    atomic_store(&server->starting, 1);
    /* The daemon's thread inherits this thread's signal mask: with every signal blocked in it, signals reach
     * only the thread that waits for them (DESIGN §17.3), as in every thread karaoke starts itself. */
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    server->daemon = kk_mhd.start_daemon(
        KK_MHD_USE_INTERNAL_POLLING_THREAD | KK_MHD_USE_EPOLL | KK_MHD_USE_ERROR_LOG, (unsigned short)options->port,
        NULL, NULL, kk_httpd_access, server, KK_MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        KK_MHD_OPTION_CONNECTION_LIMIT, options->connection_limit, KK_MHD_OPTION_PER_IP_CONNECTION_LIMIT,
        options->per_client_limit, KK_MHD_OPTION_CONNECTION_TIMEOUT, options->timeout_seconds,
        KK_MHD_OPTION_URI_LOG_CALLBACK, (kk_mhd_uri_logger)kk_httpd_begin, NULL, KK_MHD_OPTION_NOTIFY_COMPLETED,
        (kk_mhd_completed)kk_httpd_end, NULL, KK_MHD_OPTION_EXTERNAL_LOGGER, (kk_mhd_logger)kk_httpd_log, server,
        KK_MHD_OPTION_END);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    atomic_store(&server->starting, 0);
    if (server->daemon == NULL) {
        snprintf(reason, size, "%s", server->last_message[0] ? server->last_message : "libmicrohttpd refused to start");
        free(server);
        return NULL;
    }
    /* The port bound, which is not the one asked for when that was 0. */
    const kk_mhd_daemon_info *info = kk_mhd.get_daemon_info(server->daemon, KK_MHD_DAEMON_INFO_LISTEN_FD);
    struct sockaddr_in bound;
    socklen_t bound_length = sizeof bound;
    if (info == NULL || getsockname(info->listen_fd, (struct sockaddr *)&bound, &bound_length) != 0) {
        snprintf(reason, size, "the listening socket's port is unknown");
        kk_mhd.stop_daemon(server->daemon);
        free(server);
        return NULL;
    }
    server->port = ntohs(bound.sin_port);
    return server;
}

int kk_httpd_port(const kk_httpd_server *server) { return server->port; }

void kk_httpd_stop(kk_httpd_server *server) {
    if (server == NULL) return;
    kk_mhd.stop_daemon(server->daemon);
    free(server);
}
