#ifndef KK_OPTIONAL_LIBRARY_H
#define KK_OPTIONAL_LIBRARY_H

/* The one loader of the optional libraries (libxml2, libcurl, libdbus-1, libpulse-simple, aubio).
 *
 * karaoke links none of them: each is opened with dlopen the first time something needs it, so start-up and
 * the commands that do not use a library never pay for it, and a missing library fails only what needs it,
 * with a message naming the Debian package that brings it. Each library's shim (CLibXML2, CCurl, …) fills
 * in one `kk_optional_library` in its own .c file: the sonames to try, the symbols and where their slots
 * are in its table of function pointers, and the message; this loader does the rest, once per library. */

#include <stddef.h>

/* One symbol to resolve: its name in the library, and the offset of its slot (a function pointer) in the
 * shim's table; `KK_OPTIONAL_SYMBOL` spells one. */
typedef struct {
    const char *name;
    size_t offset;
} kk_optional_symbol;

/* The symbol `name` into the field `field` of the table type `table`. */
#define KK_OPTIONAL_SYMBOL(table, field, name) {(name), offsetof(table, field)}

/* One optional library: what to load, set by its shim, and how loading went, kept by the loader.
 *
 * `message` is what a user reads when the library cannot be used, with `{package}` standing for the Debian
 * package and `{reason}` for the loader's reason (dlopen's or dlsym's words, or `set_up`'s). */
typedef struct {
    /* The sonames to try, in order, ending with NULL. */
    const char *const *sonames;
    /* The Debian package that installs the library. */
    const char *package;
    /* The message for a library that cannot be used; see above. */
    const char *message;
    /* The symbols to resolve; every one must be there. */
    const kk_optional_symbol *symbols;
    size_t symbol_count;
    /* The table the symbols' slots are in. */
    void *table;
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

#endif
