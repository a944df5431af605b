#ifndef KK_QRENCODE_SHIM_H
#define KK_QRENCODE_SHIM_H

/* libqrencode, loaded on first use, for the QR code of the guests' address on the party's card (DESIGN §22.1).
 *
 * Only the party shows a QR code, so karaoke does not link libqrencode: the first code encoded loads it through
 * the optional-library loader. The modules are copied into the caller's memory, so nothing of libqrencode's
 * outlives a call. */

#include <stddef.h>
#include <stdint.h>

/* The widest symbol there is: version 40, 177 modules a side. */
#define KK_QRENCODE_MAX_WIDTH 177

/* Loads libqrencode on the first call. Returns NULL when it is ready, else the message to show, naming the
 * Debian package (a string that lives as long as the process). */
const char *kk_qrencode_load(void);

/* Encodes the NUL-terminated `text` whole as 8-bit bytes, error correction level M, in the smallest version
 * that holds it. On success returns the symbol's width W (21…177; the version is (W − 17) / 4) and writes W × W
 * bytes into `modules` (`capacity` bytes; at most KK_QRENCODE_MAX_WIDTH² are needed), row by row
 * from the top left, 1 for a dark module and 0 for a light one. On failure returns 0 with the reason in
 * `reason` (`size` bytes). Call after `kk_qrencode_load`. */
int kk_qrencode_encode(const char *text, uint8_t *modules, size_t capacity, char *reason, size_t size);

#endif
