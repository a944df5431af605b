#ifndef KK_PULSE_SHIM_H
#define KK_PULSE_SHIM_H

/* PulseAudio's simple API (libpulse-simple), loaded on first use, for the microphone.
 *
 * Only scoring and `karaoke calibrate`/`mic` listen, so karaoke does not link libpulse: the first capture
 * loads it through the optional-library loader, and a missing library is an error about listening only.
 * The connection is an opaque pointer; the structures libpulse wants filled are pulse_simple.c's. */

#include <stddef.h>
#include <stdint.h>

/* The error codes (pa_error_code_t) karaoke words itself. */
enum {
    KK_PA_ERR_NOENTITY = 5,
    KK_PA_ERR_CONNECTIONREFUSED = 6,
    KK_PA_ERR_TIMEOUT = 8,
    KK_PA_ERR_CONNECTIONTERMINATED = 11,
    KK_PA_ERR_INVALIDSERVER = 13
};

/* Loads libpulse-simple on the first call. Returns NULL when it is ready, else the message to show, naming
 * the Debian package (a string that lives as long as the process). */
const char *kk_pulse_load(void);

/* Opens a mono float32 record stream from `device` (NULL: the server's default source) on `server` (NULL:
 * PULSE_SERVER or the user's server) at `rate` Hz, delivering `fragment_bytes` at a time.
 *
 * The small fragment size matters twice: reads come back every fragment instead of every ~2 s of the
 * server's default, and a stream asking for low latency makes a null sink's monitor render close to real
 * time. Returns NULL with `*error` set (a pa_error_code_t) when it cannot. Call after `kk_pulse_load`. */
void *kk_pulse_open_record(const char *server, const char *client_name, const char *device, uint32_t rate,
                           uint32_t fragment_bytes, int *error);

/* The buffer sizes of a low-latency stream, in bytes, as `pa_buffer_attr` takes them: `(uint32_t) -1` asks
 * the server's default. A playback stream uses `target_length`, `prebuffer` and `minimum_request`; a record stream
 * `fragment` and `maximum_length` (the server drops the oldest audio past it, so a late reader never falls
 * further behind than that). */
typedef struct {
    uint32_t maximum_length;
    uint32_t target_length;
    uint32_t prebuffer;
    uint32_t minimum_request;
    uint32_t fragment;
} kk_pulse_buffer;

/* Opens a mono float32 stream named `stream_name` at `rate` Hz: recording from `device` when `records` is
 * nonzero, else playing to it (NULL: the server's default source or sink), with the buffer sizes `buffer`.
 * Returns NULL with `*error` set when it cannot. Call after `kk_pulse_load`.
 *
 * The stream is the process's own: the server drops it when the connection closes, also when the process
 * is killed, so nothing is left behind in the server. */
void *kk_pulse_open_stream(const char *server, const char *client_name, const char *stream_name, int records,
                           const char *device, uint32_t rate, kk_pulse_buffer buffer, int *error);

/* Writes `bytes` to a playback stream, blocking while its buffer is full; 0 when it did, else -1 with
 * `*error` set. */
int kk_pulse_write(void *connection, const void *data, size_t bytes, int *error);

/* Reads exactly `bytes` (blocking until they are there); 0 when it did, else -1 with `*error` set. */
int kk_pulse_read(void *connection, void *data, size_t bytes, int *error);

/* Drops what a record stream holds unread, or a playback stream has not yet played; 0 when it did. */
int kk_pulse_flush(void *connection, int *error);

/* How long ago the last sample read reached the source, in microseconds; (uint64_t) -1 with `*error` set
 * when the server cannot say. */
uint64_t kk_pulse_latency(void *connection, int *error);

/* Closes the stream and the connection. */
void kk_pulse_close(void *connection);

/* PulseAudio's words for an error code. */
const char *kk_pulse_error_text(int error);

/* Asks `server` (NULL: PULSE_SERVER or the user's server) for the name of its default source, waiting at most
 * `timeout_ms`, and writes it into `name` (`size` bytes, always terminated). Returns 0 when it did, else -1
 * (no server, no answer in time, no default source). Never starts a server. Call after `kk_pulse_load`. */
int kk_pulse_default_source(const char *server, char *name, size_t size, int timeout_ms);

/* As `kk_pulse_default_source`, for the default sink when `sink` is nonzero, else the default source. */
int kk_pulse_default_device(const char *server, int sink, char *name, size_t size, int timeout_ms);

#endif
