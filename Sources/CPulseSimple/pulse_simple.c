/* The microphone's record stream over PulseAudio's simple API, loaded on first use.
 *
 * The two structures a caller fills (`pa_sample_spec`, `pa_buffer_attr`) are declared here with their
 * public layout (stable since PulseAudio 0.9), so libpulse-dev is not needed to build. pa_strerror lives
 * in libpulse.so.0, which libpulse-simple depends on: dlsym on libpulse-simple's handle finds it there. */

#include "CPulseSimple.h"

#include <optional_library.h>

/* `pa_sample_spec` (sample.h). */
typedef struct {
    int format; /* pa_sample_format_t */
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

/* PA_SAMPLE_FLOAT32LE and PA_STREAM_RECORD. */
enum { KK_PA_SAMPLE_FLOAT32LE = 5, KK_PA_STREAM_RECORD = 2 };

/* The libpulse-simple functions used, in the order of kk_pulse_library's symbols. */
typedef struct {
    void *(*simple_new)(const char *server, const char *name, int direction, const char *device,
                        const char *stream_name, const kk_pa_sample_spec *spec, const void *channel_map,
                        const kk_pa_buffer_attr *attributes, int *error);
    int (*simple_read)(void *connection, void *data, size_t bytes, int *error);
    uint64_t (*simple_get_latency)(void *connection, int *error);
    void (*simple_free)(void *connection);
    const char *(*strerror)(int error);
} kk_pulse_functions;

/* Filled by the loader. */
static kk_pulse_functions kk_pulse;

/* libpulse-simple, loaded by kk_pulse_load into kk_pulse. */
KK_OPTIONAL_LIBRARY(kk_pulse_library, kk_pulse_load, kk_pulse, "libpulse-simple.so.0",
                    "scoring needs PulseAudio's libpulse-simple.so.0 (Debian: libpulse0)",
                    "pa_simple_new pa_simple_read pa_simple_get_latency pa_simple_free pa_strerror", NULL)

void *kk_pulse_open_record(const char *server, const char *client_name, const char *device, uint32_t rate,
                           uint32_t fragment_bytes, int *error) {
    kk_pa_sample_spec spec = {KK_PA_SAMPLE_FLOAT32LE, rate, 1};
    kk_pa_buffer_attr attributes = {(uint32_t)-1, (uint32_t)-1, (uint32_t)-1, (uint32_t)-1, fragment_bytes};
    return kk_pulse.simple_new(server, client_name, KK_PA_STREAM_RECORD, device, "microphone", &spec, NULL,
                               &attributes, error);
}

int kk_pulse_read(void *connection, void *data, size_t bytes, int *error) {
    return kk_pulse.simple_read(connection, data, bytes, error);
}

uint64_t kk_pulse_latency(void *connection, int *error) { return kk_pulse.simple_get_latency(connection, error); }

void kk_pulse_close(void *connection) { kk_pulse.simple_free(connection); }

const char *kk_pulse_error_text(int error) {
    const char *text = kk_pulse.strerror(error);
    return text ? text : "unknown error";
}
