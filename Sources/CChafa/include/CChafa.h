#ifndef KK_CHAFA_SHIM_H
#define KK_CHAFA_SHIM_H

/* libchafa's canvas, loaded on first use, for drawing a CD+G picture in terminal cells (DESIGN §19.7).
 *
 * Only a CD+G song needs it, so karaoke does not link libchafa (nor the glib it brings): the first canvas
 * loads it through the optional-library loader. chafa only chooses each cell's symbol and two colours; our
 * own painter writes the cells, so chafa's escape-sequence output is never used. */

#include <stdint.h>

/* A canvas of a fixed size and colour mode, kept between pictures of that size and mode. */
typedef struct kk_chafa_canvas kk_chafa_canvas;

/* How a canvas chooses colours. */
typedef enum {
    /* Any 24-bit colour: a cell's colours are 0xRRGGBB. */
    KK_CHAFA_TRUE_COLOR = 0,
    /* The xterm palette's entries 16–255 only (the cube and the gray ramp): a cell's colours are those
     * indices. Entries 0–15 are left out because the user's theme redefines them. */
    KK_CHAFA_PALETTE_240 = 1,
} kk_chafa_colors;

/* Loads libchafa on the first call. Returns NULL when it is ready, else the message to show, naming the
 * Debian package (a string that lives as long as the process). */
const char *kk_chafa_load(void);

/* A canvas of `columns` × `rows` cells (each at least 1) in `colors`, drawing with spaces, the full block,
 * the half blocks and the quadrants (all from U+2580–U+259F), and the sextants (U+1FB00–U+1FB3B) too when
 * `sextants` is not 0. NULL when chafa refused. Call after `kk_chafa_load`. */
kk_chafa_canvas *kk_chafa_canvas_new(int columns, int rows, kk_chafa_colors colors, int sextants);

/* Draws the `width` × `height` picture at `pixels` (3 bytes a pixel, red, green, blue; `stride` bytes a
 * row) over the whole canvas, stretched to it, replacing what it held. */
void kk_chafa_canvas_draw_rgb(kk_chafa_canvas *canvas, const uint8_t *pixels, int width, int height, int stride);

/* Reads every cell, row by row from the top left, into the canvas's `columns × rows`-long arrays: its
 * character, and its foreground and background colours as `kk_chafa_colors` says (-1: none, which the
 * modes used here never give for an opaque picture). */
void kk_chafa_canvas_read(kk_chafa_canvas *canvas, uint32_t *glyphs, int32_t *foregrounds, int32_t *backgrounds);

/* Frees the canvas (safe with NULL). */
void kk_chafa_canvas_free(kk_chafa_canvas *canvas);

#endif
