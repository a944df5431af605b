/* aubio's pitch detector, loaded on first use.
 *
 * Samples are `smpl_t`, which is `float` unless aubio was built with HAVE_AUBIO_DOUBLE (Debian's is not),
 * and `uint_t` is `unsigned int`, so libaubio-dev is not needed to build. */

#include "CAubio.h"

#include <optional_library.h>
#include <string.h>

/* The aubio functions used, in the order of kk_aubio_library's symbols. */
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

/* aubio, loaded by kk_aubio_load into kk_aubio. */
KK_OPTIONAL_LIBRARY(kk_aubio_library, kk_aubio_load, kk_aubio_functions, kk_aubio, "libaubio.so.5",
                    "scoring needs aubio's libaubio.so.5 (Debian: libaubio5)",
                    "new_fvec del_fvec fvec_get_data new_aubio_pitch del_aubio_pitch aubio_pitch_do "
                    "aubio_pitch_set_unit aubio_pitch_set_silence aubio_pitch_set_tolerance aubio_pitch_get_confidence",
                    NULL)

int kk_aubio_detector_open(kk_aubio_detector *detector, const char *method, unsigned int window, unsigned int hop,
                           unsigned int rate, float silence, float tolerance) {
    const kk_aubio_functions *f = &kk_aubio;
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

float kk_aubio_detector_push(kk_aubio_detector *detector, const float *samples, float *confidence) {
    const kk_aubio_functions *f = &kk_aubio;
    memcpy(f->fvec_get_data(detector->input), samples, detector->hop * sizeof(float));
    f->pitch_do(detector->pitch, detector->input, detector->output);
    *confidence = f->pitch_get_confidence(detector->pitch);
    return f->fvec_get_data(detector->output)[0];
}

void kk_aubio_detector_close(kk_aubio_detector *detector) {
    const kk_aubio_functions *f = &kk_aubio;
    if (detector->pitch) f->del_pitch(detector->pitch);
    if (detector->input) f->del_fvec(detector->input);
    if (detector->output) f->del_fvec(detector->output);
    memset(detector, 0, sizeof *detector);
}
