#ifndef KK_PULSE_SHIM_H
#define KK_PULSE_SHIM_H

/* PulseAudio's simple API (libpulse-simple), loaded with dlopen on first use, for the microphone.
 *
 * Only scoring and `karaoke calibrate`/`mic` listen, so karaoke does not link libpulse: the first capture
 * loads it, and a missing library is an error about listening only. Every dlopen and dlsym of libpulse is
 * here. The two structures a caller fills (`pa_sample_spec`, `pa_buffer_attr`) are declared below with
 * their public layout (stable since PulseAudio 0.9), the connection is an opaque pointer, so libpulse-dev
 * is not needed to build. pa_strerror lives in libpulse.so.0, which libpulse-simple depends on: dlsym on
 * libpulse-simple's handle finds it there. */

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* `pa_sample_spec` (sample.h). */
typedef struct {
    int format;        /* pa_sample_format_t */
    uint32_t rate;
    uint8_t channels;
} kk_pa_sample_spec;

/* `pa_buffer_attr` (def.h); (uint32_t) -1 asks the server's default. */
typedef struct {
    uint32_t maxlength;
    uint32_t tlength;
    uint32_t prebuf;
    uint32_t minreq;
    uint32_t fragsize;
} kk_pa_buffer_attr;

/* The values used: PA_SAMPLE_FLOAT32LE, PA_STREAM_RECORD, and the error codes karaoke words itself. */
enum {
    KK_PA_SAMPLE_FLOAT32LE = 5,
    KK_PA_STREAM_RECORD = 2,
    KK_PA_ERR_NOENTITY = 5,
    KK_PA_ERR_CONNECTIONREFUSED = 6,
    KK_PA_ERR_TIMEOUT = 8,
    KK_PA_ERR_CONNECTIONTERMINATED = 11,
    KK_PA_ERR_INVALIDSERVER = 13
};

/* The libpulse-simple functions used, resolved once. */
typedef struct {
    void *(*simple_new)(const char *server, const char *name, int direction, const char *device,
                        const char *stream_name, const kk_pa_sample_spec *spec, const void *channel_map,
                        const kk_pa_buffer_attr *attributes, int *error);
    int (*simple_read)(void *connection, void *data, size_t bytes, int *error);
    uint64_t (*simple_get_latency)(void *connection, int *error);
    void (*simple_free)(void *connection);
    const char *(*strerror)(int error);
} kk_pulse_functions;

/* The loaded functions, or the reason they could not be loaded. */
typedef struct {
    pthread_once_t once;
    kk_pulse_functions functions;
    int loaded;
    char failure[512];
} kk_pulse_library_state;

/* The one state of the process: a weak global, not a static, so every object file that inlines these
 * functions refers to the same one (a function-local static was once a per-module copy, never written,
 * in the release build). */
__attribute__((weak)) kk_pulse_library_state kk_pulse_state = {PTHREAD_ONCE_INIT};

/* Resolves `name` into `slot`; records the first failure. */
static inline void kk_pulse_resolve(void *handle, const char *name, void *slot, kk_pulse_library_state *state) {
    /* Copied, not stored through a `void **`: the slot is a function pointer (see CCurl's shim). */
    void *symbol = dlsym(handle, name);
    memcpy(slot, &symbol, sizeof symbol);
    if (symbol == NULL && state->failure[0] == 0) {
        const char *reason = dlerror();
        strncpy(state->failure, reason ? reason : name, sizeof state->failure - 1);
    }
}

/* Loads libpulse-simple and every function used. */
static inline void kk_pulse_load_once(void) {
    kk_pulse_library_state *state = &kk_pulse_state;
    void *handle = dlopen("libpulse-simple.so.0", RTLD_LAZY | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        strncpy(state->failure, reason ? reason : "libpulse-simple.so.0 not found", sizeof state->failure - 1);
        return;
    }
    kk_pulse_functions *f = &state->functions;
    kk_pulse_resolve(handle, "pa_simple_new", (void *)&f->simple_new, state);
    kk_pulse_resolve(handle, "pa_simple_read", (void *)&f->simple_read, state);
    kk_pulse_resolve(handle, "pa_simple_get_latency", (void *)&f->simple_get_latency, state);
    kk_pulse_resolve(handle, "pa_simple_free", (void *)&f->simple_free, state);
    kk_pulse_resolve(handle, "pa_strerror", (void *)&f->strerror, state);
    /* The handle stays open for the life of the process: libpulse keeps thread-local and global state. */
    state->loaded = state->failure[0] == 0;
}

/* Loads libpulse-simple on the first call. Returns NULL when it is ready, else why not (a string that
 * lives as long as the process). */
static inline const char *kk_pulse_load(void) {
    pthread_once(&kk_pulse_state.once, kk_pulse_load_once);
    return kk_pulse_state.loaded ? NULL : kk_pulse_state.failure;
}

/* Opens a mono float32 record stream from `device` (NULL: the server's default source) on `server` (NULL:
 * PULSE_SERVER or the user's server) at `rate` Hz, delivering `fragment_bytes` at a time.
 *
 * The small fragment size matters twice: reads come back every fragment instead of every ~2 s of the
 * server's default, and a stream asking for low latency makes a null sink's monitor render close to real
 * time. Returns NULL with `*error` set (a pa_error_code_t) when it cannot. Call after `kk_pulse_load`. */
static inline void *kk_pulse_open_record(const char *server, const char *client_name, const char *device,
                                         uint32_t rate, uint32_t fragment_bytes, int *error) {
    kk_pa_sample_spec spec = {KK_PA_SAMPLE_FLOAT32LE, rate, 1};
    kk_pa_buffer_attr attributes = {(uint32_t)-1, (uint32_t)-1, (uint32_t)-1, (uint32_t)-1, fragment_bytes};
    return kk_pulse_state.functions.simple_new(server, client_name, KK_PA_STREAM_RECORD, device, "microphone",
                                               &spec, NULL, &attributes, error);
}

/* Reads exactly `bytes` (blocking until they are there); 0 when it did, else -1 with `*error` set. */
static inline int kk_pulse_read(void *connection, void *data, size_t bytes, int *error) {
    return kk_pulse_state.functions.simple_read(connection, data, bytes, error);
}

/* How long ago the last sample read reached the source, in microseconds; (uint64_t) -1 with `*error` set
 * when the server cannot say. */
static inline uint64_t kk_pulse_latency(void *connection, int *error) {
    return kk_pulse_state.functions.simple_get_latency(connection, error);
}

/* Closes the stream and the connection. */
static inline void kk_pulse_close(void *connection) { kk_pulse_state.functions.simple_free(connection); }

/* PulseAudio's words for an error code. */
static inline const char *kk_pulse_error_text(int error) {
    const char *text = kk_pulse_state.functions.strerror(error);
    return text ? text : "unknown error";
}

#endif
