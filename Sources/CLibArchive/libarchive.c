/* libarchive's reader, loaded on first use.
 *
 * The functions are declared here with opaque pointers (libarchive-dev is not needed to build): the
 * archive and its entries are `void *`, 64-bit sizes are `long long`, and a file type is the `mode_t` bits
 * (AE_IFREG is 0100000, as in <sys/stat.h>). */

#include "CLibArchive.h"

#include <optional_library.h>
#include <string.h>

/* libarchive's results that matter here. */
enum { KK_ARCHIVE_OK = 0, KK_ARCHIVE_EOF = 1, KK_ARCHIVE_WARN = -20, KK_AE_IFMT = 0170000, KK_AE_IFREG = 0100000 };

/* The libarchive functions used, in the order of kk_archive_library's symbols. */
typedef struct {
    void *(*read_new)(void);
    int (*read_support_format_zip)(void *archive);
    int (*read_open_filename)(void *archive, const char *path, size_t block_size);
    int (*read_next_header)(void *archive, void **entry);
    long (*read_data)(void *archive, void *buffer, size_t size);
    int (*read_free)(void *archive);
    const char *(*error_string)(void *archive);
    const char *(*entry_pathname)(void *entry);
    long long (*entry_size)(void *entry);
    int (*entry_size_is_set)(void *entry);
    unsigned int (*entry_filetype)(void *entry);
} kk_archive_functions;

/* libarchive, loaded by kk_archive_load into kk_archive. */
KK_OPTIONAL_LIBRARY(kk_archive_library, kk_archive_load, kk_archive_functions, kk_archive, "libarchive.so.13",
                    "a zipped karaoke song needs libarchive.so.13 (Debian: libarchive13)",
                    "archive_read_new archive_read_support_format_zip archive_read_open_filename "
                    "archive_read_next_header archive_read_data archive_read_free archive_error_string "
                    "archive_entry_pathname archive_entry_size archive_entry_size_is_set archive_entry_filetype",
                    NULL)

int kk_archive_open(kk_archive_reader *reader, const char *path) {
    memset(reader, 0, sizeof *reader);
    reader->archive = kk_archive.read_new();
    if (reader->archive == NULL) return -1;
    if (kk_archive.read_support_format_zip(reader->archive) != KK_ARCHIVE_OK) return -1;
    return kk_archive.read_open_filename(reader->archive, path, 64 * 1024) == KK_ARCHIVE_OK ? 0 : -1;
}

int kk_archive_next(kk_archive_reader *reader, const char **name, long long *size, int *regular) {
    int result = kk_archive.read_next_header(reader->archive, &reader->entry);
    if (result == KK_ARCHIVE_EOF) return 0;
    if (result != KK_ARCHIVE_OK && result != KK_ARCHIVE_WARN) return -1;
    const char *pathname = kk_archive.entry_pathname(reader->entry);
    *name = pathname ? pathname : "";
    *size = kk_archive.entry_size_is_set(reader->entry) ? kk_archive.entry_size(reader->entry) : -1;
    *regular = (kk_archive.entry_filetype(reader->entry) & KK_AE_IFMT) == KK_AE_IFREG;
    return 1;
}

long long kk_archive_read(kk_archive_reader *reader, void *buffer, size_t capacity) {
    long count = kk_archive.read_data(reader->archive, buffer, capacity);
    return count < 0 ? -1 : (long long)count;
}

const char *kk_archive_error(kk_archive_reader *reader) {
    const char *words = reader->archive ? kk_archive.error_string(reader->archive) : NULL;
    return words ? words : "unknown error";
}

void kk_archive_close(kk_archive_reader *reader) {
    if (reader->archive) kk_archive.read_free(reader->archive);
    memset(reader, 0, sizeof *reader);
}
