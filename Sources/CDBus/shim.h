#ifndef KK_DBUS_SHIM_H
#define KK_DBUS_SHIM_H

/* libdbus-1's client API, loaded with dlopen on first use, for `karaoke follow`'s MPRIS players.
 *
 * Only following an MPRIS player needs the session bus, so karaoke does not link libdbus: the first
 * connection loads it, and a missing libdbus is an error about `follow` only. Every dlopen and dlsym of
 * libdbus is here. The two structures a caller allocates (`DBusError`, `DBusMessageIter`) are declared below
 * with libdbus's public layout (stable since libdbus 1.0; their sizes are checked at compile time), the rest
 * are opaque pointers, so libdbus-1-dev is not needed to build.
 *
 * Trap: libdbus aborts the process when an argument fails its own checks (an invalid object path, bad
 * UTF-8), so everything karaoke appends is validated first (`kk_dbus_append_*`). */

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* `DBusError` (dbus-errors.h): two public fields, then private ones. */
typedef struct {
    const char *name;
    const char *message;
    unsigned int dummy1 : 1;
    unsigned int dummy2 : 1;
    unsigned int dummy3 : 1;
    unsigned int dummy4 : 1;
    unsigned int dummy5 : 1;
    void *padding1;
} kk_dbus_error;

/* `DBusMessageIter` (dbus-message.h): no public fields, but the caller owns the storage. */
typedef struct {
    void *dummy1;
    void *dummy2;
    uint32_t dummy3;
    int dummy4, dummy5, dummy6, dummy7, dummy8, dummy9, dummy10, dummy11;
    int pad1;
    void *pad2;
    void *pad3;
} kk_dbus_iter;

#if UINTPTR_MAX == 0xffffffffffffffffu
_Static_assert(sizeof(kk_dbus_error) == 32, "DBusError is 32 bytes on 64-bit systems");
_Static_assert(sizeof(kk_dbus_iter) == 72, "DBusMessageIter is 72 bytes on 64-bit systems");
#endif

/* Message types (DBUS_MESSAGE_TYPE_…). */
enum {
    KK_DBUS_METHOD_CALL = 1,
    KK_DBUS_METHOD_RETURN = 2,
    KK_DBUS_ERROR = 3,
    KK_DBUS_SIGNAL = 4
};

/* The libdbus functions used, resolved once. dbus_bool_t is uint32_t. */
typedef struct {
    void (*error_init)(kk_dbus_error *error);
    void (*error_free)(kk_dbus_error *error);
    uint32_t (*error_is_set)(const kk_dbus_error *error);
    void *(*connection_open_private)(const char *address, kk_dbus_error *error);
    uint32_t (*bus_register)(void *connection, kk_dbus_error *error);
    void (*connection_set_exit_on_disconnect)(void *connection, uint32_t exit);
    void (*connection_close)(void *connection);
    void (*connection_unref)(void *connection);
    uint32_t (*connection_get_unix_fd)(void *connection, int *fd);
    uint32_t (*connection_get_is_connected)(void *connection);
    uint32_t (*connection_read_write)(void *connection, int timeout_ms);
    void *(*connection_pop_message)(void *connection);
    void *(*connection_send_with_reply_and_block)(void *connection, void *message, int timeout_ms,
                                                  kk_dbus_error *error);
    uint32_t (*connection_send)(void *connection, void *message, uint32_t *serial);
    void (*connection_flush)(void *connection);
    void (*bus_add_match)(void *connection, const char *rule, kk_dbus_error *error);
    void *(*message_new_method_call)(const char *destination, const char *path, const char *interface,
                                     const char *method);
    void (*message_unref)(void *message);
    int (*message_get_type)(void *message);
    const char *(*message_get_interface)(void *message);
    const char *(*message_get_member)(void *message);
    const char *(*message_get_path)(void *message);
    const char *(*message_get_sender)(void *message);
    const char *(*message_get_error_name)(void *message);
    uint32_t (*message_get_reply_serial)(void *message);
    uint32_t (*message_iter_init)(void *message, kk_dbus_iter *iter);
    void (*message_iter_init_append)(void *message, kk_dbus_iter *iter);
    uint32_t (*message_iter_append_basic)(kk_dbus_iter *iter, int type, const void *value);
    int (*message_iter_get_arg_type)(kk_dbus_iter *iter);
    void (*message_iter_get_basic)(kk_dbus_iter *iter, void *value);
    void (*message_iter_recurse)(kk_dbus_iter *iter, kk_dbus_iter *sub);
    uint32_t (*message_iter_next)(kk_dbus_iter *iter);
    uint32_t (*validate_path)(const char *path, kk_dbus_error *error);
    uint32_t (*validate_utf8)(const char *text, kk_dbus_error *error);
} kk_dbus_functions;

/* The loaded functions, or the reason they could not be loaded. */
typedef struct {
    pthread_once_t once;
    kk_dbus_functions functions;
    int loaded;
    char failure[512];
} kk_dbus_library_state;

/* The one state of the process: a weak definition, which the linker merges into one, and not a `static`.
 *
 * Trap: a release build compiles each Swift file that calls (or inlines a call into) this header as an
 * LLVM module of its own, and a `static` would be one copy per module. In a module whose copy is never
 * loaded, the optimiser takes every function pointer for NULL and deletes the calls, and the code around
 * them, as undefined (the thread then ran into whatever followed). A weak definition may be replaced at
 * link time, so nothing is assumed about it. */
__attribute__((weak)) kk_dbus_library_state kk_dbus_shared_state = {PTHREAD_ONCE_INIT};

/* The state. */
static inline kk_dbus_library_state *kk_dbus_library(void) { return &kk_dbus_shared_state; }

/* The address of `name` in `handle`, or NULL with the first failure recorded. */
static inline void *kk_dbus_symbol(void *handle, const char *name, kk_dbus_library_state *state) {
    void *symbol = dlsym(handle, name);
    if (symbol == NULL && state->failure[0] == 0) {
        const char *reason = dlerror();
        strncpy(state->failure, reason ? reason : name, sizeof state->failure - 1);
    }
    return symbol;
}

/* Loads libdbus-1 and every function used. */
static inline void kk_dbus_load_once(void) {
    kk_dbus_library_state *state = kk_dbus_library();
    void *handle = dlopen("libdbus-1.so.3", RTLD_LAZY | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        strncpy(state->failure, reason ? reason : "libdbus-1.so.3 not found", sizeof state->failure - 1);
        return;
    }
    kk_dbus_functions *f = &state->functions;
    /* Each slot is assigned with its own type (not written through a `void **`, which breaks C's aliasing
     * rules: an optimiser may then take the slot for never written, and the call through it for
     * undefined). */
#define KK_DBUS_RESOLVE(field) f->field = (__typeof__(f->field))kk_dbus_symbol(handle, "dbus_" #field, state)
    KK_DBUS_RESOLVE(error_init);
    KK_DBUS_RESOLVE(error_free);
    KK_DBUS_RESOLVE(error_is_set);
    KK_DBUS_RESOLVE(connection_open_private);
    KK_DBUS_RESOLVE(bus_register);
    KK_DBUS_RESOLVE(connection_set_exit_on_disconnect);
    KK_DBUS_RESOLVE(connection_close);
    KK_DBUS_RESOLVE(connection_unref);
    KK_DBUS_RESOLVE(connection_get_unix_fd);
    KK_DBUS_RESOLVE(connection_get_is_connected);
    KK_DBUS_RESOLVE(connection_read_write);
    KK_DBUS_RESOLVE(connection_pop_message);
    KK_DBUS_RESOLVE(connection_send_with_reply_and_block);
    KK_DBUS_RESOLVE(connection_send);
    KK_DBUS_RESOLVE(connection_flush);
    KK_DBUS_RESOLVE(bus_add_match);
    KK_DBUS_RESOLVE(message_new_method_call);
    KK_DBUS_RESOLVE(message_unref);
    KK_DBUS_RESOLVE(message_get_type);
    KK_DBUS_RESOLVE(message_get_interface);
    KK_DBUS_RESOLVE(message_get_member);
    KK_DBUS_RESOLVE(message_get_path);
    KK_DBUS_RESOLVE(message_get_sender);
    KK_DBUS_RESOLVE(message_get_error_name);
    KK_DBUS_RESOLVE(message_get_reply_serial);
    KK_DBUS_RESOLVE(message_iter_init);
    KK_DBUS_RESOLVE(message_iter_init_append);
    KK_DBUS_RESOLVE(message_iter_append_basic);
    KK_DBUS_RESOLVE(message_iter_get_arg_type);
    KK_DBUS_RESOLVE(message_iter_get_basic);
    KK_DBUS_RESOLVE(message_iter_recurse);
    KK_DBUS_RESOLVE(message_iter_next);
    KK_DBUS_RESOLVE(validate_path);
    KK_DBUS_RESOLVE(validate_utf8);
#undef KK_DBUS_RESOLVE
    /* The handle stays open for the life of the process: libdbus keeps global state. */
    state->loaded = state->failure[0] == 0;
}

/* Loads libdbus on the first call. Returns NULL when it is ready, else why not, a string that lives as long
 * as the process. */
static inline const char *kk_dbus_load(void) {
    kk_dbus_library_state *state = kk_dbus_library();
    pthread_once(&state->once, kk_dbus_load_once);
    return state->loaded ? NULL : state->failure;
}

/* The loaded functions; only after `kk_dbus_load` returned NULL. */
static inline const kk_dbus_functions *kk_dbus(void) { return &kk_dbus_library()->functions; }

/* Copies a set error's message into `text` (if any) and frees it; returns whether one was set. */
static inline int kk_dbus_take_error(kk_dbus_error *error, char *text, size_t size) {
    const kk_dbus_functions *f = kk_dbus();
    if (!f->error_is_set(error)) return 0;
    if (text != NULL && size > 0) {
        text[0] = 0;
        strncat(text, error->message ? error->message : (error->name ? error->name : "D-Bus error"), size - 1);
    }
    f->error_free(error);
    return 1;
}

/* Opens a private connection to the bus at `address` and says Hello to it. Returns the connection, or NULL
 * with the reason in `text`. libdbus must not exit the process when the bus goes away. */
static inline void *kk_dbus_open(const char *address, char *text, size_t size) {
    const kk_dbus_functions *f = kk_dbus();
    kk_dbus_error error;
    f->error_init(&error);
    void *connection = f->connection_open_private(address, &error);
    if (connection == NULL) {
        if (!kk_dbus_take_error(&error, text, size)) strncpy(text, "cannot connect", size - 1);
        return NULL;
    }
    f->connection_set_exit_on_disconnect(connection, 0);
    if (!f->bus_register(connection, &error)) {
        if (!kk_dbus_take_error(&error, text, size)) strncpy(text, "the bus did not answer Hello", size - 1);
        f->connection_close(connection);
        f->connection_unref(connection);
        return NULL;
    }
    return connection;
}

/* Closes and frees a connection from `kk_dbus_open` (a private connection must be closed by its owner). */
static inline void kk_dbus_close(void *connection) {
    kk_dbus()->connection_close(connection);
    kk_dbus()->connection_unref(connection);
}

/* The connection's socket, to poll; -1 when it has none. */
static inline int kk_dbus_fd(void *connection) {
    int fd = -1;
    if (!kk_dbus()->connection_get_unix_fd(connection, &fd)) return -1;
    return fd;
}

/* Asks the bus to route the signals `rule` matches to this connection (waits for its answer). Returns 0,
 * or -1 with the reason in `text`. */
static inline int kk_dbus_add_match(void *connection, const char *rule, char *text, size_t size) {
    kk_dbus_error error;
    kk_dbus()->error_init(&error);
    kk_dbus()->bus_add_match(connection, rule, &error);
    return kk_dbus_take_error(&error, text, size) ? -1 : 0;
}

/* Appends a string argument; 0 when it is not valid UTF-8 (libdbus would abort on it). */
static inline int kk_dbus_append_string(void *message, const char *text) {
    const kk_dbus_functions *f = kk_dbus();
    if (!f->validate_utf8(text, NULL)) return 0;
    kk_dbus_iter iter;
    f->message_iter_init_append(message, &iter);
    return (int)f->message_iter_append_basic(&iter, 's', &text);
}

/* Appends an object path argument; 0 when `path` is not a valid object path (libdbus would abort on it). */
static inline int kk_dbus_append_object_path(void *message, const char *path) {
    const kk_dbus_functions *f = kk_dbus();
    if (!f->validate_path(path, NULL)) return 0;
    kk_dbus_iter iter;
    f->message_iter_init_append(message, &iter);
    return (int)f->message_iter_append_basic(&iter, 'o', &path);
}

/* Appends a signed 64-bit argument (`x`). */
static inline int kk_dbus_append_int64(void *message, int64_t value) {
    kk_dbus_iter iter;
    kk_dbus()->message_iter_init_append(message, &iter);
    return (int)kk_dbus()->message_iter_append_basic(&iter, 'x', &value);
}

/* Sends `message` and waits up to `timeout_ms` for the reply, which it returns (unref it with
 * `kk_dbus_unref`); NULL with the reason in `text` on an error reply, a timeout or a lost connection.
 * Other messages that arrive meanwhile stay queued for `kk_dbus_pop`. Consumes `message`. */
static inline void *kk_dbus_call(void *connection, void *message, int timeout_ms, char *text, size_t size) {
    const kk_dbus_functions *f = kk_dbus();
    kk_dbus_error error;
    f->error_init(&error);
    void *reply = f->connection_send_with_reply_and_block(connection, message, timeout_ms, &error);
    f->message_unref(message);
    if (reply == NULL && !kk_dbus_take_error(&error, text, size)) strncpy(text, "no reply", size - 1);
    return reply;
}

/* Queues `message` without waiting for its reply (which `kk_dbus_pop` gives later, with `reply_serial` equal
 * to the returned serial); 0 when it could not be queued. Consumes `message`. */
static inline uint32_t kk_dbus_send(void *connection, void *message) {
    uint32_t serial = 0;
    if (!kk_dbus()->connection_send(connection, message, &serial)) serial = 0;
    kk_dbus()->message_unref(message);
    kk_dbus()->connection_flush(connection);
    return serial;
}

/* Reads what the socket has and writes what is queued, without waiting; then the next whole message that
 * arrived, or NULL. 0 in `connected` once the connection is gone. */
static inline void *kk_dbus_pop(void *connection, int *connected) {
    const kk_dbus_functions *f = kk_dbus();
    *connected = f->connection_read_write(connection, 0) && f->connection_get_is_connected(connection);
    return f->connection_pop_message(connection);
}

/* Frees a message. */
static inline void kk_dbus_unref(void *message) { kk_dbus()->message_unref(message); }

/* A new method call (NULL when out of memory); send it with `kk_dbus_call` or `kk_dbus_send`. */
static inline void *kk_dbus_method_call(const char *destination, const char *path, const char *interface,
                                        const char *method) {
    return kk_dbus()->message_new_method_call(destination, path, interface, method);
}

/* A message's type (KK_DBUS_…). */
static inline int kk_dbus_message_type(void *message) { return kk_dbus()->message_get_type(message); }

/* A message's header fields, "" when absent. */
static inline const char *kk_dbus_interface(void *message) {
    const char *text = kk_dbus()->message_get_interface(message);
    return text ? text : "";
}
static inline const char *kk_dbus_member(void *message) {
    const char *text = kk_dbus()->message_get_member(message);
    return text ? text : "";
}
static inline const char *kk_dbus_path(void *message) {
    const char *text = kk_dbus()->message_get_path(message);
    return text ? text : "";
}
static inline const char *kk_dbus_sender(void *message) {
    const char *text = kk_dbus()->message_get_sender(message);
    return text ? text : "";
}
static inline const char *kk_dbus_error_name(void *message) {
    const char *text = kk_dbus()->message_get_error_name(message);
    return text ? text : "";
}

/* The serial of the call a reply or error answers. */
static inline uint32_t kk_dbus_reply_serial(void *message) { return kk_dbus()->message_get_reply_serial(message); }

/* Points `iter` at a message's first argument; 0 when it has none. */
static inline int kk_dbus_iter_start(void *message, kk_dbus_iter *iter) {
    return (int)kk_dbus()->message_iter_init(message, iter);
}

/* The type code at `iter` (0 past the end). */
static inline int kk_dbus_iter_type(kk_dbus_iter *iter) { return kk_dbus()->message_iter_get_arg_type(iter); }

/* Points `sub` into the container at `iter`. */
static inline void kk_dbus_iter_enter(kk_dbus_iter *iter, kk_dbus_iter *sub) {
    kk_dbus()->message_iter_recurse(iter, sub);
}

/* Moves `iter` on; 0 when there is nothing more. */
static inline int kk_dbus_iter_next(kk_dbus_iter *iter) { return (int)kk_dbus()->message_iter_next(iter); }

/* One basic value read from an iterator: `type` is its D-Bus type code, and the field that type uses is
 * set (strings, object paths and signatures in `text`, owned by the message). */
typedef struct {
    int type;
    int64_t integer;
    uint64_t unsigned_integer;
    double real;
    const char *text;
} kk_dbus_basic;

/* Reads the basic value at `iter` into `value`; 0 when it is a container (array, variant, struct, dict
 * entry) or a type karaoke does not read (file descriptors). */
static inline int kk_dbus_read_basic(kk_dbus_iter *iter, kk_dbus_basic *value) {
    const kk_dbus_functions *f = kk_dbus();
    memset(value, 0, sizeof *value);
    value->type = f->message_iter_get_arg_type(iter);
    union {
        uint8_t byte;
        uint32_t boolean;
        int16_t i16;
        uint16_t u16;
        int32_t i32;
        uint32_t u32;
        int64_t i64;
        uint64_t u64;
        double real;
        const char *text;
    } raw;
    memset(&raw, 0, sizeof raw);
    switch (value->type) {
    case 'y': f->message_iter_get_basic(iter, &raw); value->unsigned_integer = raw.byte; return 1;
    case 'b': f->message_iter_get_basic(iter, &raw); value->unsigned_integer = raw.boolean; return 1;
    case 'n': f->message_iter_get_basic(iter, &raw); value->integer = raw.i16; return 1;
    case 'q': f->message_iter_get_basic(iter, &raw); value->unsigned_integer = raw.u16; return 1;
    case 'i': f->message_iter_get_basic(iter, &raw); value->integer = raw.i32; return 1;
    case 'u': f->message_iter_get_basic(iter, &raw); value->unsigned_integer = raw.u32; return 1;
    case 'x': f->message_iter_get_basic(iter, &raw); value->integer = raw.i64; return 1;
    case 't': f->message_iter_get_basic(iter, &raw); value->unsigned_integer = raw.u64; return 1;
    case 'd': f->message_iter_get_basic(iter, &raw); value->real = raw.real; return 1;
    case 's': case 'o': case 'g':
        f->message_iter_get_basic(iter, &raw);
        value->text = raw.text ? raw.text : "";
        return 1;
    default: return 0;
    }
}

#endif
