#ifndef KK_FRIBIDI_SHIM_H
#define KK_FRIBIDI_SHIM_H

/* GNU FriBidi, loaded on first use, for the embedding levels of right-to-left lines (DESIGN §3.5).
 *
 * Only a song with right-to-left text needs it, so karaoke does not link libfribidi: the first such line loads
 * it through the optional-library loader. The levels are written into the caller's memory; reordering each
 * wrapped row from them (rules L1 and L2) is the core's. */

#include <stddef.h>
#include <stdint.h>

/* What rule L1 needs of a character, as the core's BidiSpacing: other, whitespace (WS, isolate controls and
 * what rule X9 removes), separator (S, B). */
enum { KK_FRIBIDI_OTHER = 0, KK_FRIBIDI_WHITESPACE = 1, KK_FRIBIDI_SEPARATOR = 2 };

/* Loads libfribidi on the first call. Returns NULL when it is ready, else the message to show, naming the
 * Debian package (a string that lives as long as the process). */
const char *kk_fribidi_load(void);

/* Resolves the `count` code points of `text` as one paragraph: `base` is 0 for left to right, 1 for right to
 * left, -1 for the direction of the first strong character. Writes each code point's embedding level into
 * `levels`, its part in rule L1 (KK_FRIBIDI_…) into `spacing`, and its mirrored glyph, or 0 for none, into
 * `mirrors`. Returns the paragraph's level (0 or 1), or -1 when FriBidi failed (out of memory). Call after
 * `kk_fribidi_load`. */
int kk_fribidi_resolve(const uint32_t *text, int count, int base, uint8_t *levels, uint8_t *spacing,
                       uint32_t *mirrors);

#endif
