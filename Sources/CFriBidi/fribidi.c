/* GNU FriBidi's bidi algorithm, loaded on first use.
 *
 * The types and functions are FriBidi 1.0's documented API (fribidi.h), declared here, so libfribidi-dev is not
 * needed to build: a FriBidiChar is a UTF-32 code point, a FriBidiStrIndex an int, a FriBidiLevel a signed
 * char, and FriBidiCharType, FriBidiParType and FriBidiBracketType are 32-bit masks. */

#include "CFriBidi.h"

#include <optional_library.h>
#include <stdlib.h>

typedef uint32_t kk_fribidi_type;

/* fribidi-bidi-types.h's masks: those of the paragraph directions, and those rule L1 tests. */
enum {
    kk_mask_rtl = 0x00000001,
    kk_mask_strong = 0x00000010,
    kk_mask_neutral = 0x00000040,
    kk_mask_letter = 0x00000100,
    kk_mask_explicit = 0x00001000,
    kk_mask_separator = 0x00002000,
    kk_mask_isolate = 0x00008000,
    kk_mask_bn = 0x00100000,
    kk_mask_ws = 0x00800000,
};

/* FRIBIDI_PAR_LTR, FRIBIDI_PAR_RTL and FRIBIDI_PAR_ON (from the first strong character). */
enum {
    kk_par_ltr = kk_mask_strong | kk_mask_letter,
    kk_par_rtl = kk_mask_strong | kk_mask_letter | kk_mask_rtl,
    kk_par_on = kk_mask_neutral,
};

/* The FriBidi functions used, in the order of kk_fribidi_library's symbols. */
typedef struct {
    void (*get_bidi_types)(const uint32_t *text, int count, kk_fribidi_type *types);
    void (*get_bracket_types)(const uint32_t *text, int count, const kk_fribidi_type *types, uint32_t *brackets);
    signed char (*get_par_embedding_levels_ex)(const kk_fribidi_type *types, const uint32_t *brackets, int count,
                                               uint32_t *base, signed char *levels);
    int (*get_mirror_char)(uint32_t character, uint32_t *mirrored);
} kk_fribidi_functions;

/* libfribidi, loaded by kk_fribidi_load into kk_fb. */
KK_OPTIONAL_LIBRARY(kk_fribidi_library, kk_fribidi_load, kk_fribidi_functions, kk_fb, "libfribidi.so.0",
                    "right-to-left lines need libfribidi.so.0 for full bidi (Debian: libfribidi0): {reason}",
                    "fribidi_get_bidi_types fribidi_get_bracket_types fribidi_get_par_embedding_levels_ex "
                    "fribidi_get_mirror_char",
                    NULL)

int kk_fribidi_resolve(const uint32_t *text, int count, int base, uint8_t *levels, uint8_t *spacing,
                       uint32_t *mirrors) {
    if (count <= 0) return base == 1 ? 1 : 0;
    kk_fribidi_type *types = malloc((size_t)count * sizeof *types);
    uint32_t *brackets = malloc((size_t)count * sizeof *brackets);
    signed char *resolved = malloc((size_t)count);
    int paragraph = -1;
    if (types != NULL && brackets != NULL && resolved != NULL) {
        kk_fb.get_bidi_types(text, count, types);
        /* The bracket pairs of rule N0, so a bracket takes the direction of what it encloses. */
        kk_fb.get_bracket_types(text, count, types, brackets);
        uint32_t direction = base == 0 ? kk_par_ltr : base == 1 ? kk_par_rtl : kk_par_on;
        /* Returns the highest level plus one, 0 on failure; `direction` becomes the paragraph's. */
        if (kk_fb.get_par_embedding_levels_ex(types, brackets, count, &direction, resolved) > 0) {
            paragraph = (direction & kk_mask_rtl) ? 1 : 0;
            for (int i = 0; i < count; i++) {
                levels[i] = (uint8_t)resolved[i];
                kk_fribidi_type type = types[i];
                /* Rule L1's whitespace: WS, the isolate controls, and what rule X9 removes. */
                if (type & kk_mask_separator)
                    spacing[i] = KK_FRIBIDI_SEPARATOR;
                else if (type & (kk_mask_ws | kk_mask_isolate | kk_mask_bn | kk_mask_explicit))
                    spacing[i] = KK_FRIBIDI_WHITESPACE;
                else
                    spacing[i] = KK_FRIBIDI_OTHER;
                uint32_t mirrored = 0;
                mirrors[i] = kk_fb.get_mirror_char(text[i], &mirrored) ? mirrored : 0;
            }
        }
    }
    free(types);
    free(brackets);
    free(resolved);
    return paragraph;
}
