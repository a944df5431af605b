#ifndef KK_SONIVOX_SHIM_H
#define KK_SONIVOX_SHIM_H

/* libsonivox (the Sonic Network EAS synthesiser), loaded on first use, for the music of MIDI karaoke when no
 * General MIDI SoundFont is installed.
 *
 * EAS carries its own wavetable, so it needs no SoundFont; it renders at its own fixed rate (22,050 Hz in
 * Debian's build) in blocks of its own fixed size. A renderer runs one EAS instance for the whole song and,
 * when given a second MIDI file (the song with the melody's velocities lowered, made by the caller), a second
 * in step with it for the accompaniment (DESIGN §18.5). The MIDI bytes are read from memory through EAS's file
 * callbacks: nothing is written to disk. */

#include <stddef.h>
#include <stdint.h>

/* One MIDI file (and maybe its accompaniment) being rendered. */
typedef struct kk_sonivox_renderer kk_sonivox_renderer;

/* Loads libsonivox on the first call. Returns NULL when it is ready, else the message to show, naming the
 * Debian package (a string that lives as long as the process). */
const char *kk_sonivox_load(void);

/* EAS's output rate in Hz, fixed when the library was built. Call after `kk_sonivox_load`. */
int kk_sonivox_rate(void);

/* The frames EAS renders at a time: every request to `kk_sonivox_render` is a multiple of it. */
int kk_sonivox_block(void);

/* The library's version as EAS reports it, e.g. "3.6.11.0", for the cache's key. */
const char *kk_sonivox_version(void);

/* A renderer of the `length` bytes of a Standard MIDI File at `midi` and, when `accompaniment` is not NULL,
 * of the `accompaniment_length` bytes there in step with it (both copied: the caller may free them). NULL
 * when EAS refused, with the reason in `reason` (`size` bytes). Call after `kk_sonivox_load`. */
kk_sonivox_renderer *kk_sonivox_open(const void *midi, size_t length, const void *accompaniment,
                                     size_t accompaniment_length, char *reason, size_t size);

/* Renders the next frames, at most `frames` (a multiple of `kk_sonivox_block()`), as interleaved stereo into
 * `whole` and, when the renderer has an accompaniment, `accompaniment` (each 2 × `frames` samples). Returns
 * the frames rendered: fewer than asked (maybe 0) only at the end, which comes when EAS has stopped every
 * voice (at most KK_SONIVOX_TAIL seconds after the song's last event); -1 when EAS failed, with the reason
 * in `reason` (`size` bytes). */
int kk_sonivox_render(kk_sonivox_renderer *renderer, int16_t *whole, int16_t *accompaniment, int frames,
                      char *reason, size_t size);

/* The longest tail rendered after the song's last event, in seconds. */
#define KK_SONIVOX_TAIL 3

/* How far the song has played, in milliseconds of the MIDI file's time. */
long kk_sonivox_position(const kk_sonivox_renderer *renderer);

/* Frees the renderer and its EAS instances (safe with NULL). */
void kk_sonivox_close(kk_sonivox_renderer *renderer);

#endif
