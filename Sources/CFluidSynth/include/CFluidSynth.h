#ifndef KK_FLUIDSYNTH_SHIM_H
#define KK_FLUIDSYNTH_SHIM_H

/* FluidSynth (libfluidsynth), loaded on first use, for the music of MIDI karaoke.
 *
 * Only a MIDI song needs a synthesiser, so karaoke does not link FluidSynth (which brings glib, libsndfile,
 * PulseAudio, SDL and more with it): the first renderer loads it through the optional-library loader. No
 * audio driver is made: the synthesiser renders into memory, block by block, as fast as it can, and Swift
 * writes the blocks to a WAV file. With a melody channel, one MIDI file drives two synthesisers in step, the
 * melody channel and the rest, mixed into the whole song and the song with the melody down (DESIGN §18). */

#include <stddef.h>
#include <stdint.h>

/* The frames rendered at a time, and the multiple every request is rounded to: FluidSynth's own block, so
 * that the second synthesiser receives each event at the same sample as the first. */
#define KK_FLUIDSYNTH_BLOCK 64

/* One MIDI file being rendered. */
typedef struct kk_fluidsynth_renderer kk_fluidsynth_renderer;

/* Loads libfluidsynth on the first call. Returns NULL when it is ready, else the message to show, naming the
 * Debian package (a string that lives as long as the process). */
const char *kk_fluidsynth_load(void);

/* A renderer of the `length` bytes of a Standard MIDI File at `midi` (copied: the caller may free them),
 * through the SoundFont `soundfont`, at `rate` Hz in 16-bit stereo. With `melody_channel` 0…15 that channel
 * is rendered apart, and the accompaniment has it at `melody_percent` percent of its level (0: silent); -1
 * renders the whole song only. NULL when FluidSynth refused, with the reason (FluidSynth's
 * last error, or ours) in `reason` (`size` bytes). Call after `kk_fluidsynth_load`. */
kk_fluidsynth_renderer *kk_fluidsynth_open(const char *soundfont, const void *midi, size_t length, int melody_channel,
                                           int melody_percent, int rate, char *reason, size_t size);

/* Renders the next frames, at most `frames` (a multiple of KK_FLUIDSYNTH_BLOCK), as interleaved stereo into
 * `whole` and, when the renderer has a melody channel, `accompaniment` (each 2 × `frames` samples), rounded
 * and clipped. Returns
 * the frames rendered: fewer than asked (maybe 0) only at the end, which comes when the song is over and
 * its last notes and reverb have died away (at most KK_FLUIDSYNTH_TAIL seconds later). */
int kk_fluidsynth_render(kk_fluidsynth_renderer *renderer, int16_t *whole, int16_t *accompaniment, int frames);

/* The longest tail rendered after the song's last event, in seconds. */
#define KK_FLUIDSYNTH_TAIL 3

/* How far the song has played, 0…1, by MIDI ticks (not seconds: the tempo map is the reader's). */
double kk_fluidsynth_progress(const kk_fluidsynth_renderer *renderer);

/* Frees the renderer and its synthesisers (safe with NULL). */
void kk_fluidsynth_close(kk_fluidsynth_renderer *renderer);

#endif
