#ifndef KK_LIBARCHIVE_SHIM_H
#define KK_LIBARCHIVE_SHIM_H

/* libarchive's reader, loaded on first use, for karaoke files sold zipped (an MP3 and its .cdg in one .zip).
 *
 * Only a zipped song needs it, so karaoke does not link it: the first archive opened loads it through the
 * optional-library loader. Entries are read into memory; nothing is unpacked to disk, and an entry's name is
 * only ever compared, never opened. */

#include <stddef.h>

/* One archive being read, entry after entry. */
typedef struct {
    void *archive;
    void *entry;
} kk_archive_reader;

/* Loads libarchive on the first call. Returns NULL when it is ready, else the message to show, naming the
 * Debian package (a string that lives as long as the process). */
const char *kk_archive_load(void);

/* Opens the zip file at `path` for reading; 0 when it did, -1 when it did not (the reason from
 * `kk_archive_error`; close the reader either way). Call after `kk_archive_load`. */
int kk_archive_open(kk_archive_reader *reader, const char *path);

/* Moves to the next entry: 1 and its name (as the archive stores it, valid until the next call), its size
 * (-1 when the archive does not say) and whether it is a regular file; 0 at the end; -1 on an error. */
int kk_archive_next(kk_archive_reader *reader, const char **name, long long *size, int *regular);

/* Reads up to `capacity` bytes of the current entry into `buffer`: the count read, 0 at its end, -1 on an
 * error. */
long long kk_archive_read(kk_archive_reader *reader, void *buffer, size_t capacity);

/* libarchive's words for the last error, or "unknown error". */
const char *kk_archive_error(kk_archive_reader *reader);

/* Frees the reader (safe after a failed open). */
void kk_archive_close(kk_archive_reader *reader);

#endif
