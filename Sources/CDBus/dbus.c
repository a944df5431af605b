/* The D-Bus client calls of `karaoke follow`, over libdbus-1 loaded on first use.
 *
 * `DBusError`, which only this file allocates, is declared with libdbus's public layout (size checked at
 * compile time); the rest are opaque pointers. */

#include "CDBus.h"

#include <optional_library.h>
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

#if UINTPTR_MAX == 0xffffffffffffffffu
_Static_assert(sizeof(kk_dbus_error) == 32, "DBusError is 32 bytes on 64-bit systems");
#endif

/* The libdbus functions used, in the order of kk_dbus_library's symbols. dbus_bool_t is uint32_t. */
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

/* libdbus-1, loaded by kk_dbus_load into kk_dbus_table. Every name is `dbus_` and its slot's name. */
KK_OPTIONAL_LIBRARY(kk_dbus_library, kk_dbus_load, kk_dbus_functions, kk_dbus_table, "libdbus-1.so.3",
                    "following MPRIS players needs libdbus-1 (Debian package libdbus-1-3): {reason}",
                    "dbus_error_init dbus_error_free dbus_error_is_set dbus_connection_open_private dbus_bus_register "
                    "dbus_connection_set_exit_on_disconnect dbus_connection_close dbus_connection_unref "
                    "dbus_connection_get_unix_fd dbus_connection_get_is_connected dbus_connection_read_write "
                    "dbus_connection_pop_message dbus_connection_send_with_reply_and_block dbus_connection_send "
                    "dbus_connection_flush dbus_bus_add_match dbus_message_new_method_call dbus_message_unref "
                    "dbus_message_get_type dbus_message_get_interface dbus_message_get_member dbus_message_get_path "
                    "dbus_message_get_sender dbus_message_get_error_name dbus_message_get_reply_serial "
                    "dbus_message_iter_init dbus_message_iter_init_append dbus_message_iter_append_basic "
                    "dbus_message_iter_get_arg_type dbus_message_iter_get_basic dbus_message_iter_recurse "
                    "dbus_message_iter_next dbus_validate_path dbus_validate_utf8",
                    NULL)

/* The loaded functions; only after `kk_dbus_load` returned NULL. */
static const kk_dbus_functions *kk_dbus(void) { return &kk_dbus_table; }

/* Copies a set error's message into `text` (if any) and frees it; returns whether one was set. */
static int kk_dbus_take_error(kk_dbus_error *error, char *text, size_t size) {
    const kk_dbus_functions *f = kk_dbus();
    if (!f->error_is_set(error)) return 0;
    if (text != NULL && size > 0) {
        text[0] = 0;
        strncat(text, error->message ? error->message : (error->name ? error->name : "D-Bus error"), size - 1);
    }
    f->error_free(error);
    return 1;
}

void *kk_dbus_open(const char *address, char *text, size_t size) {
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

void kk_dbus_close(void *connection) {
    kk_dbus()->connection_close(connection);
    kk_dbus()->connection_unref(connection);
}

int kk_dbus_fd(void *connection) {
    int fd = -1;
    if (!kk_dbus()->connection_get_unix_fd(connection, &fd)) return -1;
    return fd;
}

int kk_dbus_add_match(void *connection, const char *rule, char *text, size_t size) {
    kk_dbus_error error;
    kk_dbus()->error_init(&error);
    kk_dbus()->bus_add_match(connection, rule, &error);
    return kk_dbus_take_error(&error, text, size) ? -1 : 0;
}

/* Appends one basic argument of D-Bus `type` from `value`; returns libdbus's verdict. */
static int kk_dbus_append(void *message, int type, const void *value) {
    kk_dbus_iter iter;
    kk_dbus()->message_iter_init_append(message, &iter);
    return (int)kk_dbus()->message_iter_append_basic(&iter, type, value);
}

/* libdbus aborts the process on a string it finds invalid, hence the checks first. */
int kk_dbus_append_string(void *message, const char *text) {
    return kk_dbus()->validate_utf8(text, NULL) && kk_dbus_append(message, 's', &text);
}

int kk_dbus_append_object_path(void *message, const char *path) {
    return kk_dbus()->validate_path(path, NULL) && kk_dbus_append(message, 'o', &path);
}

int kk_dbus_append_int64(void *message, int64_t value) { return kk_dbus_append(message, 'x', &value); }

void *kk_dbus_call(void *connection, void *message, int timeout_ms, char *text, size_t size) {
    const kk_dbus_functions *f = kk_dbus();
    kk_dbus_error error;
    f->error_init(&error);
    void *reply = f->connection_send_with_reply_and_block(connection, message, timeout_ms, &error);
    f->message_unref(message);
    if (reply == NULL && !kk_dbus_take_error(&error, text, size)) strncpy(text, "no reply", size - 1);
    return reply;
}

uint32_t kk_dbus_send(void *connection, void *message) {
    uint32_t serial = 0;
    if (!kk_dbus()->connection_send(connection, message, &serial)) serial = 0;
    kk_dbus()->message_unref(message);
    kk_dbus()->connection_flush(connection);
    return serial;
}

void *kk_dbus_pop(void *connection, int *connected) {
    const kk_dbus_functions *f = kk_dbus();
    *connected = f->connection_read_write(connection, 0) && f->connection_get_is_connected(connection);
    return f->connection_pop_message(connection);
}

void kk_dbus_unref(void *message) { kk_dbus()->message_unref(message); }

void *kk_dbus_method_call(const char *destination, const char *path, const char *interface, const char *method) {
    return kk_dbus()->message_new_method_call(destination, path, interface, method);
}

int kk_dbus_message_type(void *message) { return kk_dbus()->message_get_type(message); }

/* libdbus's NULL for a field a message lacks, as the empty string Swift reads. */
static const char *kk_dbus_text(const char *text) { return text ? text : ""; }

const char *kk_dbus_interface(void *message) { return kk_dbus_text(kk_dbus()->message_get_interface(message)); }
const char *kk_dbus_member(void *message) { return kk_dbus_text(kk_dbus()->message_get_member(message)); }
const char *kk_dbus_path(void *message) { return kk_dbus_text(kk_dbus()->message_get_path(message)); }
const char *kk_dbus_sender(void *message) { return kk_dbus_text(kk_dbus()->message_get_sender(message)); }
const char *kk_dbus_error_name(void *message) { return kk_dbus_text(kk_dbus()->message_get_error_name(message)); }

uint32_t kk_dbus_reply_serial(void *message) { return kk_dbus()->message_get_reply_serial(message); }

int kk_dbus_iter_start(void *message, kk_dbus_iter *iter) {
    return (int)kk_dbus()->message_iter_init(message, iter);
}

int kk_dbus_iter_type(kk_dbus_iter *iter) { return kk_dbus()->message_iter_get_arg_type(iter); }

void kk_dbus_iter_enter(kk_dbus_iter *iter, kk_dbus_iter *sub) {
    kk_dbus()->message_iter_recurse(iter, sub);
}

int kk_dbus_iter_next(kk_dbus_iter *iter) { return (int)kk_dbus()->message_iter_next(iter); }

int kk_dbus_read_basic(kk_dbus_iter *iter, kk_dbus_basic *value) {
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
