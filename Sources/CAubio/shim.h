#ifndef KK_AUBIO_SHIM_H
#define KK_AUBIO_SHIM_H

/* aubio's pitch detector (libaubio), loaded with dlopen on first use, for the microphone.
 *
 * Only scoring and `karaoke calibrate`/`mic` detect pitch, so karaoke does not link aubio (which brings
 * FFmpeg, FFTW and more with it): the first detector loads it. Every dlopen and dlsym of aubio is here.
 * Its vectors and detector are opaque pointers; samples are `smpl_t`, which is `float` unless aubio was
 * built with HAVE_AUBIO_DOUBLE (Debian's is not), and `uint_t` is `unsigned int`, so libaubio-dev is not
 * needed to build. */

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

/* The aubio functions used, resolved once. */
typedef struct {
    void *(*new_fvec)(unsigned int length);
    void (*del_fvec)(void *vector);
    float *(*fvec_get_data)(const void *vector);
    void *(*new_pitch)(const char *method, unsigned int window, unsigned int hop, unsigned int rate);
    void (*del_pitch)(void *pitch);
    void (*pitch_do)(void *pitch, const void *input, void *output);
    unsigned int (*pitch_set_unit)(void *pitch, const char *unit);
    unsigned int (*pitch_set_silence)(void *pitch, float silence);
    unsigned int (*pitch_set_tolerance)(void *pitch, float tolerance);
    float (*pitch_get_confidence)(void *pitch);
} kk_aubio_functions;

/* The loaded functions, or the reason they could not be loaded. */
typedef struct {
    pthread_once_t once;
    kk_aubio_functions functions;
    int loaded;
    char failure[512];
} kk_aubio_library_state;

/* The one state of the process: a weak global, not a static (see CPulseSimple's shim). */
__attribute__((weak)) kk_aubio_library_state kk_aubio_state = {PTHREAD_ONCE_INIT};

/* Resolves `name` into `slot`; records the first failure. */
static inline void kk_aubio_resolve(void *handle, const char *name, void *slot, kk_aubio_library_state *state) {
    void *symbol = dlsym(handle, name);
    memcpy(slot, &symbol, sizeof symbol);
    if (symbol == NULL && state->failure[0] == 0) {
        const char *reason = dlerror();
        strncpy(state->failure, reason ? reason : name, sizeof state->failure - 1);
    }
}

/* Loads libaubio and every function used. */
static inline void kk_aubio_load_once(void) {
    kk_aubio_library_state *state = &kk_aubio_state;
    void *handle = dlopen("libaubio.so.5", RTLD_LAZY | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        strncpy(state->failure, reason ? reason : "libaubio.so.5 not found", sizeof state->failure - 1);
        return;
    }
    kk_aubio_functions *f = &state->functions;
    kk_aubio_resolve(handle, "new_fvec", (void *)&f->new_fvec, state);
    kk_aubio_resolve(handle, "del_fvec", (void *)&f->del_fvec, state);
    kk_aubio_resolve(handle, "fvec_get_data", (void *)&f->fvec_get_data, state);
    kk_aubio_resolve(handle, "new_aubio_pitch", (void *)&f->new_pitch, state);
    kk_aubio_resolve(handle, "del_aubio_pitch", (void *)&f->del_pitch, state);
    kk_aubio_resolve(handle, "aubio_pitch_do", (void *)&f->pitch_do, state);
    kk_aubio_resolve(handle, "aubio_pitch_set_unit", (void *)&f->pitch_set_unit, state);
    kk_aubio_resolve(handle, "aubio_pitch_set_silence", (void *)&f->pitch_set_silence, state);
    kk_aubio_resolve(handle, "aubio_pitch_set_tolerance", (void *)&f->pitch_set_tolerance, state);
    kk_aubio_resolve(handle, "aubio_pitch_get_confidence", (void *)&f->pitch_get_confidence, state);
    state->loaded = state->failure[0] == 0;
}

/* Loads libaubio on the first call. Returns NULL when it is ready, else why not (a string that lives as
 * long as the process). */
static inline const char *kk_aubio_load(void) {
    pthread_once(&kk_aubio_state.once, kk_aubio_load_once);
    return kk_aubio_state.loaded ? NULL : kk_aubio_state.failure;
}

/* One pitch detector with its input and output vectors. */
typedef struct {
    void *pitch;
    void *input;
    void *output;
    unsigned int hop;
} kk_aubio_detector;

/* Makes a detector of `method` ("yinfft", "yin", …) over `window` samples, advanced `hop` at a time, giving
 * MIDI note numbers; 0 when it did, -1 when aubio refused (an unknown method, a bad size). Call after
 * `kk_aubio_load`. `silence` is in dB (frames below it give 0), `tolerance` the method's threshold. */
static inline int kk_aubio_detector_open(kk_aubio_detector *detector, const char *method, unsigned int window,
                                         unsigned int hop, unsigned int rate, float silence, float tolerance) {
    const kk_aubio_functions *f = &kk_aubio_state.functions;
    memset(detector, 0, sizeof *detector);
    detector->pitch = f->new_pitch(method, window, hop, rate);
    if (detector->pitch == NULL) return -1;
    detector->input = f->new_fvec(hop);
    detector->output = f->new_fvec(1);
    detector->hop = hop;
    if (detector->input == NULL || detector->output == NULL) return -1;
    f->pitch_set_unit(detector->pitch, "midi");
    f->pitch_set_silence(detector->pitch, silence);
    f->pitch_set_tolerance(detector->pitch, tolerance);
    return 0;
}

/* Feeds one hop of samples; returns the pitch of the window ending with them, as a MIDI note number (0:
 * none), and its confidence (0…1) in `*confidence`. */
static inline float kk_aubio_detector_push(kk_aubio_detector *detector, const float *samples, float *confidence) {
    const kk_aubio_functions *f = &kk_aubio_state.functions;
    memcpy(f->fvec_get_data(detector->input), samples, detector->hop * sizeof(float));
    f->pitch_do(detector->pitch, detector->input, detector->output);
    *confidence = f->pitch_get_confidence(detector->pitch);
    return f->fvec_get_data(detector->output)[0];
}

/* Frees the detector (what was made of it; safe after a failed open). */
static inline void kk_aubio_detector_close(kk_aubio_detector *detector) {
    const kk_aubio_functions *f = &kk_aubio_state.functions;
    if (detector->pitch) f->del_pitch(detector->pitch);
    if (detector->input) f->del_fvec(detector->input);
    if (detector->output) f->del_fvec(detector->output);
    memset(detector, 0, sizeof *detector);
}

#endif
