#ifndef KK_OPTIONAL_LIBRARY_H
#define KK_OPTIONAL_LIBRARY_H

/* The one loader of the optional libraries (libxml2, libcurl, libdbus-1, libpulse-simple, aubio, libfluidsynth,
 * libsonivox, …).
 *
 * karaoke links none of them: each is opened with dlopen the first time something needs it, so start-up and
 * the commands that do not use a library never pay for it, and a missing library fails only what needs it,
 * with a message naming the Debian package that brings it. Each library's shim (CLibXML2, CCurl, …) states
 * its facts once, in one `KK_OPTIONAL_LIBRARY` in its own .c file: the sonames to try, the message, and the
 * symbols in the order of the slots of its table of function pointers; this loader does the rest, once per
 * library. */

#include <stddef.h>

/* One optional library: what to load, set by its shim, and how loading went, kept by the loader. */
typedef struct {
    /* The sonames to try, in order, separated by spaces. */
    const char *sonames;
    /* What a user reads when the library cannot be used, with `{reason}` standing for the loader's reason
     * (dlopen's or dlsym's words, or `set_up`'s). */
    const char *message;
    /* The symbols to resolve, separated by spaces: one a slot of `table`, in the slots' order. Every one
     * must be there. */
    const char *symbols;
    /* The table of function pointers the symbols fill, and its size: a struct of nothing but function
     * pointers, so slot i is i function pointers in, and the size says how many slots there are. */
    void *table;
    size_t table_size;
    /* Run once after every symbol is resolved (the library's own global set-up), or NULL: returns NULL when
     * it went well, else the reason. */
    const char *(*set_up)(void);

    /* The loader's: 0 before the first load, 1 loaded, -1 failed with `failure` the whole message. */
    int state;
    char failure[640];
} kk_optional_library;

/* Loads `library` on the first call; later calls, from any thread, wait for that one to finish and give
 * its result. Returns NULL when the library is ready (every slot of its table filled), else the message
 * to show, which lives as long as `library`. The library stays loaded for the life of the process: those
 * used keep global state of their own. */
const char *kk_optional_library_load(kk_optional_library *library);

/* Writes `library`'s message with `reason` into `text` (`size` bytes, always terminated), whether or not
 * the library loads: for a failure after loading that is worded the same way. */
void kk_optional_library_message(const kk_optional_library *library, const char *reason, char *text, size_t size);

/* Defines `table_`, the loader-filled static of `table_type_` (a struct of nothing but function pointers),
 * `library_`, whose symbols fill it, from its sonames, message, symbols and set-up (the meaning of
 * `kk_optional_library`'s fields), and `load_`, the shim's function that loads it (see
 * `kk_optional_library_load`). One macro, so a shim states each fact once, and the table's size is taken from
 * the table. The table is a tentative definition: a shim whose set-up calls through it declares it again
 * above, the same way, and C takes the two for one. */
#define KK_OPTIONAL_LIBRARY(library_, load_, table_type_, table_, sonames_, message_, symbols_, set_up_)       \
    static table_type_ table_;                                                                                  \
    static kk_optional_library library_ = {.sonames = (sonames_),                                               \
                                           .message = (message_),                                               \
                                           .symbols = (symbols_),                                               \
                                           .table = &(table_),                                                  \
                                           .table_size = sizeof(table_),                                        \
                                           .set_up = (set_up_)};                                                \
    const char *load_(void) { return kk_optional_library_load(&(library_)); }

#endif
