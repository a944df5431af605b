#ifndef KK_AUBIO_SHIM_H
#define KK_AUBIO_SHIM_H

/* aubio's pitch detector (libaubio), loaded on first use, for the microphone.
 *
 * Only scoring and `karaoke calibrate`/`mic` detect pitch, so karaoke does not link aubio (which brings
 * FFmpeg, FFTW and more with it): the first detector loads it through the optional-library loader. Its
 * vectors and detector are opaque pointers, held in `kk_aubio_detector`. */

/* One pitch detector with its input and output vectors. */
typedef struct {
    void *pitch;
    void *input;
    void *output;
    unsigned int hop;
} kk_aubio_detector;

/* Loads libaubio on the first call. Returns NULL when it is ready, else the message to show, naming the
 * Debian package (a string that lives as long as the process). */
const char *kk_aubio_load(void);

/* Makes a detector of `method` ("yinfft", "yin", …) over `window` samples, advanced `hop` at a time, giving
 * MIDI note numbers; 0 when it did, -1 when aubio refused (an unknown method, a bad size). Call after
 * `kk_aubio_load`. `silence` is in dB (frames below it give 0), `tolerance` the method's threshold. */
int kk_aubio_detector_open(kk_aubio_detector *detector, const char *method, unsigned int window, unsigned int hop,
                           unsigned int rate, float silence, float tolerance);

/* Feeds one hop of samples; returns the pitch of the window ending with them, as a MIDI note number (0:
 * none), and its confidence (0…1) in `*confidence`. */
float kk_aubio_detector_push(kk_aubio_detector *detector, const float *samples, float *confidence);

/* Frees the detector (what was made of it; safe after a failed open). */
void kk_aubio_detector_close(kk_aubio_detector *detector);

#endif
