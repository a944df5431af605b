#include "optional_library.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

/* One lock for every library's first load. Loads are rare (one per library per process) and short, so one
 * lock serves where a once per library would need its own routine for each: a pthread_once routine takes
 * no argument. Taken on every call, so a slot filled under it is seen by any thread that asked. */
static pthread_mutex_t kk_loading = PTHREAD_MUTEX_INITIALIZER;

/* Appends `text` to the `size`-byte buffer `out` that holds `*length` bytes, as far as it fits. */
static void kk_append(char *out, size_t size, size_t *length, const char *text, size_t count) {
    if (*length + 1 >= size) return;
    if (count > size - 1 - *length) count = size - 1 - *length;
    memcpy(out + *length, text, count);
    *length += count;
    out[*length] = 0;
}

void kk_optional_library_message(const kk_optional_library *library, const char *reason, char *text, size_t size) {
    if (size == 0) return;
    size_t length = 0;
    text[0] = 0;
    const char *rest = library->message;
    /* Each `{reason}` is replaced; any other text, braces included, is copied. */
    while (*rest) {
        if (strncmp(rest, "{reason}", 8) == 0) {
            const char *value = reason ? reason : "";
            kk_append(text, size, &length, value, strlen(value));
            rest += 8;
        } else {
            kk_append(text, size, &length, rest, 1);
            rest += 1;
        }
    }
}

/* Copies the next word of the space-separated `*list` into `word` (`size` bytes; a longer word is cut, and
 * then found by no dlopen or dlsym) and moves `*list` past it; returns 0 when no word is left. */
static int kk_next_word(const char **list, char *word, size_t size) {
    const char *start = *list + strspn(*list, " ");
    size_t length = strcspn(start, " ");
    if (length == 0) return 0;
    *list = start + length;
    if (length > size - 1) length = size - 1;
    memcpy(word, start, length);
    word[length] = 0;
    return 1;
}

/* Opens the first soname that loads; NULL with dlopen's reason for the last one in `reason`. */
static void *kk_open(const kk_optional_library *library, const char **reason) {
    *reason = "no soname to try";
    const char *sonames = library->sonames;
    char soname[128];
    while (kk_next_word(&sonames, soname, sizeof soname)) {
        void *handle = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
        if (handle != NULL) return handle;
        const char *error = dlerror();
        *reason = error ? error : "dlopen failed";
    }
    return NULL;
}

/* What a slot of a shim's table holds: some function pointer (all have one size and need no padding). */
typedef void (*kk_optional_function)(void);

/* Loads the library and fills its table; returns NULL, or the reason it cannot be used. Under the lock. */
static const char *kk_load(kk_optional_library *library) {
    const char *reason;
    void *handle = kk_open(library, &reason);
    if (handle == NULL) return reason;
    const char *symbols = library->symbols;
    char name[128];
    size_t offset = 0;
    while (kk_next_word(&symbols, name, sizeof name)) {
        /* A list that does not match its table is the shim's mistake; said as a reason, not a crash. */
        if (offset + sizeof(kk_optional_function) > library->table_size) return "more symbols than slots";
        dlerror();
        void *address = dlsym(handle, name);
        if (address == NULL) {
            const char *error = dlerror();
            return error ? error : "dlsym failed";
        }
        /* Copied as bytes into the slot, which is a function pointer: POSIX makes a data pointer from dlsym
         * convertible to one, and the shim reads the slot with its own type. */
        memcpy((char *)library->table + offset, &address, sizeof address);
        offset += sizeof(kk_optional_function);
    }
    if (offset != library->table_size) return "fewer symbols than slots";
    return library->set_up ? library->set_up() : NULL;
}

const char *kk_optional_library_load(kk_optional_library *library) {
    pthread_mutex_lock(&kk_loading);
    if (library->state == 0) {
        const char *reason = kk_load(library);
        if (reason == NULL) {
            library->state = 1;
        } else {
            /* dlerror's text lives only until the next dl call: the message is made now. */
            kk_optional_library_message(library, reason, library->failure, sizeof library->failure);
            library->state = -1;
        }
    }
    int state = library->state;
    pthread_mutex_unlock(&kk_loading);
    return state == 1 ? NULL : library->failure;
}
