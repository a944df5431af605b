#ifndef KARAOKE_CTEXTWIDTH_SHIM_H
#define KARAOKE_CTEXTWIDTH_SHIM_H

#include <locale.h>
#include <langinfo.h>
#include <string.h>
#include <wchar.h>

/* glibc declares wcwidth only under __USE_XOPEN, which Swift's Glibc module does not set. */
extern int wcwidth(wchar_t c);

/// The width glibc gives one scalar in the current LC_CTYPE (-1 when not printable).
static inline int kk_wcwidth(unsigned int scalar) {
    return wcwidth((wchar_t)scalar);
}

/// Makes LC_CTYPE UTF-8: the user's locale if it is UTF-8, else C.UTF-8. Returns 1 when UTF-8 is in effect.
static inline int kk_use_utf8_ctype(void) {
    setlocale(LC_ALL, "");
    const char *codeset = nl_langinfo(CODESET);
    if (codeset != NULL && strcmp(codeset, "UTF-8") == 0) return 1;
    if (setlocale(LC_CTYPE, "C.UTF-8") == NULL) return 0;
    codeset = nl_langinfo(CODESET);
    return codeset != NULL && strcmp(codeset, "UTF-8") == 0;
}

#endif
