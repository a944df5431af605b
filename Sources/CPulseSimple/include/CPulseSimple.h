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

/* Reads exactly `bytes` (blocking until they are there); 0 when it did, else -1 with `*error` set. */
int kk_pulse_read(void *connection, void *data, size_t bytes, int *error);

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

#endif
