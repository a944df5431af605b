/* libqrencode's encoder, loaded on first use.
 *
 * The QRcode structure and the functions are libqrencode 4's documented API (qrencode.h), declared here, so
 * libqrencode-dev is not needed to build. QRecLevel is an enum, passed as int. */

#include "CQREncode.h"

#include <errno.h>
#include <optional_library.h>
#include <stdio.h>
#include <string.h>

/* qrencode.h's QRcode: the symbol's version and width, and width × width bytes of which bit 0 is the module's
 * colour (1 dark); the other bits say what the module is for (finder, timing, data), which we do not need. */
typedef struct {
    int version;
    int width;
    unsigned char *data;
} kk_qrcode;

/* QRecLevel's QR_ECLEVEL_M: about 15 % of the symbol may be lost and still read (a reflection on the screen).
 * Measured with libqrencode 4.1.1: an IPv4 party address of up to 41 bytes needs version 3 at M as at L. */
enum { kk_qr_level_m = 1 };

/* The libqrencode functions used, in the order of kk_qrencode_library's symbols. */
typedef struct {
    kk_qrcode *(*encode_string_8bit)(const char *string, int version, int level);
    void (*free_code)(kk_qrcode *code);
} kk_qrencode_functions;

/* libqrencode, loaded by kk_qrencode_load into kk_qr. */
KK_OPTIONAL_LIBRARY(kk_qrencode_library, kk_qrencode_load, kk_qrencode_functions, kk_qr, "libqrencode.so.4",
                    "the party's QR code needs libqrencode.so.4 (Debian: libqrencode4): {reason}",
                    "QRcode_encodeString8bit QRcode_free", NULL)

int kk_qrencode_encode(const char *text, uint8_t *modules, size_t capacity, char *reason, size_t size) {
    errno = 0;
    /* Version 0 lets libqrencode choose the smallest that holds the text. */
    kk_qrcode *code = kk_qr.encode_string_8bit(text, 0, kk_qr_level_m);
    if (code == NULL) {
        /* libqrencode says why only through errno. */
        int error = errno;
        snprintf(reason, size, "%s",
                 error == ERANGE   ? "the text is too long for a QR code"
                 : error == EINVAL ? "libqrencode refused the text"
                 : error == ENOMEM ? "out of memory"
                                   : "libqrencode could not encode the text");
        return 0;
    }
    int width = code->width;
    if (width < 21 || width > KK_QRENCODE_MAX_WIDTH || (size_t)width * (size_t)width > capacity) {
        snprintf(reason, size, "libqrencode gave a symbol %d modules wide", width);
        kk_qr.free_code(code);
        return 0;
    }
    for (size_t i = 0; i < (size_t)width * (size_t)width; i++) modules[i] = code->data[i] & 1;
    kk_qr.free_code(code);
    return width;
}
