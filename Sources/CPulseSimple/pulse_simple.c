/* The microphone's record stream over PulseAudio's simple API, loaded on first use.
 *
 * The two structures a caller fills (`pa_sample_spec`, `pa_buffer_attr`) are declared here with their
 * public layout (stable since PulseAudio 0.9), so libpulse-dev is not needed to build. pa_strerror lives
 * in libpulse.so.0, which libpulse-simple depends on: dlsym on libpulse-simple's handle finds it there, and
 * so do the few calls of libpulse's own API that ask the server which source is its default (the simple
 * API cannot say). */

#include "CPulseSimple.h"

#include <optional_library.h>
#include <string.h>
#include <time.h>

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

/* PA_SAMPLE_FLOAT32LE, PA_STREAM_PLAYBACK and PA_STREAM_RECORD. */
enum { KK_PA_SAMPLE_FLOAT32LE = 5, KK_PA_STREAM_PLAYBACK = 1, KK_PA_STREAM_RECORD = 2 };

/* The leading fields of `pa_server_info` (introspect.h), up to the one read; libpulse allocates it. */
typedef struct {
    const char *user_name;
    const char *host_name;
    const char *server_version;
    const char *server_name;
    kk_pa_sample_spec sample_spec;
    const char *default_sink_name;
    const char *default_source_name;
} kk_pa_server_info;

/* pa_context_state_t's READY, FAILED and TERMINATED, pa_operation_state_t's RUNNING, and
 * PA_CONTEXT_NOAUTOSPAWN: asking must never start a server. */
enum {
    KK_PA_CONTEXT_READY = 4,
    KK_PA_CONTEXT_FAILED = 5,
    KK_PA_CONTEXT_TERMINATED = 6,
    KK_PA_OPERATION_RUNNING = 0,
    KK_PA_CONTEXT_NOAUTOSPAWN = 1
};

typedef void (*kk_pa_server_info_cb)(void *context, const kk_pa_server_info *info, void *userdata);

/* The libpulse-simple functions used, in the order of kk_pulse_library's symbols. */
typedef struct {
    void *(*simple_new)(const char *server, const char *name, int direction, const char *device,
                        const char *stream_name, const kk_pa_sample_spec *spec, const void *channel_map,
                        const kk_pa_buffer_attr *attributes, int *error);
    int (*simple_read)(void *connection, void *data, size_t bytes, int *error);
    int (*simple_write)(void *connection, const void *data, size_t bytes, int *error);
    int (*simple_flush)(void *connection, int *error);
    uint64_t (*simple_get_latency)(void *connection, int *error);
    void (*simple_free)(void *connection);
    const char *(*strerror)(int error);
    void *(*mainloop_new)(void);
    void *(*mainloop_get_api)(void *mainloop);
    int (*mainloop_prepare)(void *mainloop, int timeout_usec);
    int (*mainloop_poll)(void *mainloop);
    int (*mainloop_dispatch)(void *mainloop);
    void (*mainloop_free)(void *mainloop);
    void *(*context_new)(void *api, const char *name);
    int (*context_connect)(void *context, const char *server, int flags, const void *spawn_api);
    int (*context_get_state)(void *context);
    void *(*context_get_server_info)(void *context, kk_pa_server_info_cb callback, void *userdata);
    void (*context_disconnect)(void *context);
    void (*context_unref)(void *context);
    int (*operation_get_state)(void *operation);
    void (*operation_unref)(void *operation);
} kk_pulse_functions;

/* libpulse-simple, loaded by kk_pulse_load into kk_pulse. */
KK_OPTIONAL_LIBRARY(kk_pulse_library, kk_pulse_load, kk_pulse_functions, kk_pulse, "libpulse-simple.so.0",
                    "scoring needs PulseAudio's libpulse-simple.so.0 (Debian: libpulse0)",
                    "pa_simple_new pa_simple_read pa_simple_write pa_simple_flush pa_simple_get_latency pa_simple_free pa_strerror "
                    "pa_mainloop_new pa_mainloop_get_api pa_mainloop_prepare pa_mainloop_poll pa_mainloop_dispatch "
                    "pa_mainloop_free pa_context_new pa_context_connect pa_context_get_state "
                    "pa_context_get_server_info pa_context_disconnect pa_context_unref pa_operation_get_state "
                    "pa_operation_unref",
                    NULL)

void *kk_pulse_open_record(const char *server, const char *client_name, const char *device, uint32_t rate,
                           uint32_t fragment_bytes, int *error) {
    kk_pa_sample_spec spec = {KK_PA_SAMPLE_FLOAT32LE, rate, 1};
    kk_pa_buffer_attr attributes = {(uint32_t)-1, (uint32_t)-1, (uint32_t)-1, (uint32_t)-1, fragment_bytes};
    return kk_pulse.simple_new(server, client_name, KK_PA_STREAM_RECORD, device, "microphone", &spec, NULL,
                               &attributes, error);
}

void *kk_pulse_open_stream(const char *server, const char *client_name, const char *stream_name, int records,
                           const char *device, uint32_t rate, kk_pulse_buffer buffer, int *error) {
    kk_pa_sample_spec spec = {KK_PA_SAMPLE_FLOAT32LE, rate, 1};
    kk_pa_buffer_attr attributes = {buffer.maximum_length, buffer.target_length, buffer.prebuffer,
                                    buffer.minimum_request, buffer.fragment};
    return kk_pulse.simple_new(server, client_name, records ? KK_PA_STREAM_RECORD : KK_PA_STREAM_PLAYBACK, device,
                               stream_name, &spec, NULL, &attributes, error);
}

int kk_pulse_write(void *connection, const void *data, size_t bytes, int *error) {
    return kk_pulse.simple_write(connection, data, bytes, error);
}

int kk_pulse_flush(void *connection, int *error) { return kk_pulse.simple_flush(connection, error); }

int kk_pulse_read(void *connection, void *data, size_t bytes, int *error) {
    return kk_pulse.simple_read(connection, data, bytes, error);
}

uint64_t kk_pulse_latency(void *connection, int *error) { return kk_pulse.simple_get_latency(connection, error); }

void kk_pulse_close(void *connection) { kk_pulse.simple_free(connection); }

const char *kk_pulse_error_text(int error) {
    const char *text = kk_pulse.strerror(error);
    return text ? text : "unknown error";
}

/* What the server-info callback fills: the default source's name, and whether the answer came. */
typedef struct {
    char *name;
    size_t size;
    int answered;
    int sink;
} kk_pulse_default_source_answer;

static void kk_pulse_take_server_info(void *context, const kk_pa_server_info *info, void *userdata) {
    (void)context;
    kk_pulse_default_source_answer *answer = userdata;
    answer->answered = 1;
    const char *name = info ? (answer->sink ? info->default_sink_name : info->default_source_name) : NULL;
    if (name && answer->size > 0) {
        strncpy(answer->name, name, answer->size - 1);
        answer->name[answer->size - 1] = '\0';
    }
}

/* Milliseconds on CLOCK_MONOTONIC. */
static long long kk_pulse_now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

int kk_pulse_default_source(const char *server, char *name, size_t size, int timeout_ms) {
    return kk_pulse_default_device(server, 0, name, size, timeout_ms);
}

int kk_pulse_default_device(const char *server, int sink, char *name, size_t size, int timeout_ms) {
    if (size > 0) name[0] = '\0';
    void *mainloop = kk_pulse.mainloop_new();
    if (!mainloop) return -1;
    void *context = kk_pulse.context_new(kk_pulse.mainloop_get_api(mainloop), "karaoke");
    int result = -1;
    if (context && kk_pulse.context_connect(context, server, KK_PA_CONTEXT_NOAUTOSPAWN, NULL) >= 0) {
        kk_pulse_default_source_answer answer = {name, size, 0, sink};
        void *operation = NULL;
        long long deadline = kk_pulse_now_ms() + timeout_ms;
        /* One wait at a time, never past the deadline: the server may be slow or gone. */
        for (;;) {
            int state = kk_pulse.context_get_state(context);
            if (state == KK_PA_CONTEXT_FAILED || state == KK_PA_CONTEXT_TERMINATED) break;
            if (state == KK_PA_CONTEXT_READY && !operation) {
                operation = kk_pulse.context_get_server_info(context, kk_pulse_take_server_info, &answer);
                if (!operation) break;
            }
            if (operation && kk_pulse.operation_get_state(operation) != KK_PA_OPERATION_RUNNING) break;
            long long left = deadline - kk_pulse_now_ms();
            if (left <= 0) break;
            if (kk_pulse.mainloop_prepare(mainloop, (int)(left * 1000)) < 0 || kk_pulse.mainloop_poll(mainloop) < 0 ||
                kk_pulse.mainloop_dispatch(mainloop) < 0)
                break;
        }
        if (operation) kk_pulse.operation_unref(operation);
        if (answer.answered && size > 0 && name[0] != '\0') result = 0;
        kk_pulse.context_disconnect(context);
    }
    if (context) kk_pulse.context_unref(context);
    kk_pulse.mainloop_free(mainloop);
    return result;
}
