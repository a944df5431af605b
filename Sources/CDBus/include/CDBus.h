#ifndef KK_DBUS_SHIM_H
#define KK_DBUS_SHIM_H

/* libdbus-1's client API, loaded on first use, for `karaoke follow`'s MPRIS players.
 *
 * Only following an MPRIS player needs the session bus, so karaoke does not link libdbus: the first
 * connection loads it through the optional-library loader, and a missing libdbus is an error about
 * `follow` only. Connections and messages are opaque pointers; the one structure Swift allocates,
 * `DBusMessageIter`, is declared below with libdbus's public layout (stable since libdbus 1.0; its size is
 * checked at compile time), so libdbus-1-dev is not needed to build.
 *
 * Trap: libdbus aborts the process when an argument fails its own checks (an invalid object path, bad
 * UTF-8), so everything karaoke appends is validated first (`kk_dbus_append_*`). */

#include <stddef.h>
#include <stdint.h>

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
_Static_assert(sizeof(kk_dbus_iter) == 72, "DBusMessageIter is 72 bytes on 64-bit systems");
#endif

/* Message types (DBUS_MESSAGE_TYPE_…). */
enum {
    KK_DBUS_METHOD_CALL = 1,
    KK_DBUS_METHOD_RETURN = 2,
    KK_DBUS_ERROR = 3,
    KK_DBUS_SIGNAL = 4
};

/* One basic value read from an iterator: `type` is its D-Bus type code, and the field that type uses is
 * set (strings, object paths and signatures in `text`, owned by the message). */
typedef struct {
    int type;
    int64_t integer;
    uint64_t unsigned_integer;
    double real;
    const char *text;
} kk_dbus_basic;

/* Loads libdbus on the first call. Returns NULL when it is ready, else the message to show, naming the
 * Debian package (a string that lives as long as the process). */
const char *kk_dbus_load(void);

/* Opens a private connection to the bus at `address` and says Hello to it. Returns the connection, or NULL
 * with the reason in `text`. libdbus must not exit the process when the bus goes away. */
void *kk_dbus_open(const char *address, char *text, size_t size);

/* Closes and frees a connection from `kk_dbus_open` (a private connection must be closed by its owner). */
void kk_dbus_close(void *connection);

/* The connection's socket, to poll; -1 when it has none. */
int kk_dbus_fd(void *connection);

/* Asks the bus to route the signals `rule` matches to this connection (waits for its answer). Returns 0,
 * or -1 with the reason in `text`. */
int kk_dbus_add_match(void *connection, const char *rule, char *text, size_t size);

/* Appends a string argument; 0 when it is not valid UTF-8 (libdbus would abort on it). */
int kk_dbus_append_string(void *message, const char *text);

/* Appends an object path argument; 0 when `path` is not a valid object path (libdbus would abort on it). */
int kk_dbus_append_object_path(void *message, const char *path);

/* Appends a signed 64-bit argument (`x`). */
int kk_dbus_append_int64(void *message, int64_t value);

/* Sends `message` and waits up to `timeout_ms` for the reply, which it returns (unref it with
 * `kk_dbus_unref`); NULL with the reason in `text` on an error reply, a timeout or a lost connection.
 * Other messages that arrive meanwhile stay queued for `kk_dbus_pop`. Consumes `message`. */
void *kk_dbus_call(void *connection, void *message, int timeout_ms, char *text, size_t size);

/* Queues `message` without waiting for its reply (which `kk_dbus_pop` gives later, with `reply_serial` equal
 * to the returned serial); 0 when it could not be queued. Consumes `message`. */
uint32_t kk_dbus_send(void *connection, void *message);

/* Reads what the socket has and writes what is queued, without waiting; then the next whole message that
 * arrived, or NULL. 0 in `connected` once the connection is gone. */
void *kk_dbus_pop(void *connection, int *connected);

/* Frees a message. */
void kk_dbus_unref(void *message);

/* A new method call (NULL when out of memory); send it with `kk_dbus_call` or `kk_dbus_send`. */
void *kk_dbus_method_call(const char *destination, const char *path, const char *interface, const char *method);

/* A message's type (KK_DBUS_…). */
int kk_dbus_message_type(void *message);

/* A message's header fields, "" when absent. */
const char *kk_dbus_interface(void *message);
const char *kk_dbus_member(void *message);
const char *kk_dbus_path(void *message);
const char *kk_dbus_sender(void *message);
const char *kk_dbus_error_name(void *message);

/* The serial of the call a reply or error answers. */
uint32_t kk_dbus_reply_serial(void *message);

/* Points `iter` at a message's first argument; 0 when it has none. */
int kk_dbus_iter_start(void *message, kk_dbus_iter *iter);

/* The type code at `iter` (0 past the end). */
int kk_dbus_iter_type(kk_dbus_iter *iter);

/* Points `sub` into the container at `iter`. */
void kk_dbus_iter_enter(kk_dbus_iter *iter, kk_dbus_iter *sub);

/* Moves `iter` on; 0 when there is nothing more. */
int kk_dbus_iter_next(kk_dbus_iter *iter);

/* Reads the basic value at `iter` into `value`; 0 when it is a container (array, variant, struct, dict
 * entry) or a type karaoke does not read (file descriptors). */
int kk_dbus_read_basic(kk_dbus_iter *iter, kk_dbus_basic *value);

#endif
