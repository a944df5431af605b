/* libchafa's canvas, loaded on first use.
 *
 * The types are opaque pointers and the functions are chafa 1.12's documented API (chafa.h), declared here,
 * so libchafa-dev (and glib's headers) are not needed to build. glib's gint, guint32 and gunichar are int,
 * uint32_t and uint32_t on every platform glib supports; chafa's enums are passed as int. */

#include "CChafa.h"

#include <optional_library.h>
#include <stdlib.h>

/* chafa's enum values used (chafa-common.h, chafa-canvas-config.h). */
enum { kk_chafa_pixel_rgb8 = 8 };
enum { kk_chafa_mode_truecolor = 0, kk_chafa_mode_indexed_240 = 2 };
enum { kk_chafa_dither_none = 0 };

/* The chafa functions used, in the order of kk_chafa_library's symbols. */
typedef struct {
    void *(*config_new)(void);
    void (*config_unref)(void *config);
    void (*config_set_geometry)(void *config, int width, int height);
    void (*config_set_canvas_mode)(void *config, int mode);
    void (*config_set_symbol_map)(void *config, const void *symbol_map);
    void (*config_set_dither_mode)(void *config, int dither_mode);
    void (*config_set_preprocessing_enabled)(void *config, int enabled);
    void *(*symbol_map_new)(void);
    void (*symbol_map_unref)(void *symbol_map);
    void (*symbol_map_add_by_range)(void *symbol_map, uint32_t first, uint32_t last);
    void *(*canvas_new)(const void *config);
    void (*canvas_unref)(void *canvas);
    void (*canvas_draw_all_pixels)(void *canvas, int pixel_type, const uint8_t *pixels, int width, int height,
                                   int stride);
    uint32_t (*canvas_get_char_at)(void *canvas, int x, int y);
    void (*canvas_get_raw_colors_at)(void *canvas, int x, int y, int *foreground, int *background);
    void (*set_n_threads)(int count);
} kk_chafa_functions;

/* Filled by the loader; declared ahead of its KK_OPTIONAL_LIBRARY for the set-up below. */
static kk_chafa_functions kk_chafa;

/* chafa draws on every core by default. On one thread it costs less CPU, since nothing is handed to workers:
 * a little less for a whole picture (measured 8.5 against 9.4 ms for 78×28 cells), far less for a few cells
 * (34 against 186 µs for 3×3, the size of a redrawn tile). And no thread starts beside karaoke's own. */
static const char *kk_chafa_set_up(void) {
    kk_chafa.set_n_threads(1);
    return NULL;
}

/* libchafa, loaded by kk_chafa_load into kk_chafa. */
KK_OPTIONAL_LIBRARY(kk_chafa_library, kk_chafa_load, kk_chafa_functions, kk_chafa, "libchafa.so.0",
                    "the pictures of CD+G karaoke need libchafa.so.0 (Debian: libchafa0): {reason}",
                    "chafa_canvas_config_new chafa_canvas_config_unref chafa_canvas_config_set_geometry "
                    "chafa_canvas_config_set_canvas_mode chafa_canvas_config_set_symbol_map "
                    "chafa_canvas_config_set_dither_mode chafa_canvas_config_set_preprocessing_enabled "
                    "chafa_symbol_map_new chafa_symbol_map_unref chafa_symbol_map_add_by_range "
                    "chafa_canvas_new chafa_canvas_unref chafa_canvas_draw_all_pixels chafa_canvas_get_char_at "
                    "chafa_canvas_get_raw_colors_at chafa_set_n_threads",
                    kk_chafa_set_up)

struct kk_chafa_canvas {
    void *canvas;
    int columns;
    int rows;
};

/* The symbols every terminal font draws (or the terminal draws itself): the full block, the four half
 * blocks and the ten quadrants. Chafa's shades and eighths are left out: shades mix two colours into a
 * pattern that each font draws differently, and a picture of flat colours gains little from eighths. */
static void *kk_chafa_symbols(int sextants) {
    void *map = kk_chafa.symbol_map_new();
    if (map == NULL) return NULL;
    kk_chafa.symbol_map_add_by_range(map, ' ', ' ');
    kk_chafa.symbol_map_add_by_range(map, 0x2580, 0x2580); /* ▀ */
    kk_chafa.symbol_map_add_by_range(map, 0x2584, 0x2584); /* ▄ */
    kk_chafa.symbol_map_add_by_range(map, 0x2588, 0x2588); /* █ */
    kk_chafa.symbol_map_add_by_range(map, 0x258C, 0x258C); /* ▌ */
    kk_chafa.symbol_map_add_by_range(map, 0x2590, 0x2590); /* ▐ */
    kk_chafa.symbol_map_add_by_range(map, 0x2596, 0x259F); /* ▖ … ▟ */
    /* Sextants (Unicode 13) are finer but missing from many fonts: only when asked for. */
    if (sextants) kk_chafa.symbol_map_add_by_range(map, 0x1FB00, 0x1FB3B);
    return map;
}

kk_chafa_canvas *kk_chafa_canvas_new(int columns, int rows, kk_chafa_colors colors, int sextants) {
    if (columns < 1 || rows < 1) return NULL;
    kk_chafa_canvas *canvas = calloc(1, sizeof *canvas);
    void *config = kk_chafa.config_new();
    void *symbols = kk_chafa_symbols(sextants);
    if (canvas == NULL || config == NULL || symbols == NULL) goto fail;
    canvas->columns = columns;
    canvas->rows = rows;
    kk_chafa.config_set_geometry(config, columns, rows);
    kk_chafa.config_set_canvas_mode(
        config, colors == KK_CHAFA_PALETTE_240 ? kk_chafa_mode_indexed_240 : kk_chafa_mode_truecolor);
    /* The config copies the map, and the canvas the config: both are let go below. */
    kk_chafa.config_set_symbol_map(config, symbols);
    /* A CD+G picture is flat areas of 16 colours: dithering would only speckle them, and chafa's
     * preprocessing (contrast and saturation for small palettes) would change the colours. */
    kk_chafa.config_set_dither_mode(config, kk_chafa_dither_none);
    kk_chafa.config_set_preprocessing_enabled(config, 0);
    canvas->canvas = kk_chafa.canvas_new(config);
    if (canvas->canvas == NULL) goto fail;
    kk_chafa.symbol_map_unref(symbols);
    kk_chafa.config_unref(config);
    return canvas;
fail:
    if (symbols) kk_chafa.symbol_map_unref(symbols);
    if (config) kk_chafa.config_unref(config);
    free(canvas);
    return NULL;
}

void kk_chafa_canvas_draw_rgb(kk_chafa_canvas *canvas, const uint8_t *pixels, int width, int height, int stride) {
    kk_chafa.canvas_draw_all_pixels(canvas->canvas, kk_chafa_pixel_rgb8, pixels, width, height, stride);
}

void kk_chafa_canvas_read(kk_chafa_canvas *canvas, uint32_t *glyphs, int32_t *foregrounds, int32_t *backgrounds) {
    int cell = 0;
    for (int y = 0; y < canvas->rows; y++) {
        for (int x = 0; x < canvas->columns; x++, cell++) {
            int foreground, background;
            glyphs[cell] = kk_chafa.canvas_get_char_at(canvas->canvas, x, y);
            /* Raw: the palette index chafa chose in 240 mode, rather than the colour chafa thinks it shows. */
            kk_chafa.canvas_get_raw_colors_at(canvas->canvas, x, y, &foreground, &background);
            foregrounds[cell] = foreground;
            backgrounds[cell] = background;
        }
    }
}

void kk_chafa_canvas_free(kk_chafa_canvas *canvas) {
    if (canvas == NULL) return;
    if (canvas->canvas) kk_chafa.canvas_unref(canvas->canvas);
    free(canvas);
}
