/* libkakasi, loaded on first use, and the conversion around it.
 *
 * The functions are libkakasi 2's API (libkakasi.h), declared here, so libkakasi-dev is not needed to build.
 * kakasi_do reads and writes EUC-JP whatever `-i`/`-o` say (measured with 2.3.6: UTF-8 in gives nothing
 * back), so the text is converted here with glibc's iconv. */

#include "CKakasi.h"

#include <errno.h>
#include <iconv.h>
#include <optional_library.h>
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The libkakasi functions used, in the order of kk_kakasi_library's symbols. */
typedef struct {
    int (*getopt_argv)(int argc, char **argv);
    char *(*convert)(char *text);
    int (*free_text)(char *text);
} kk_kakasi_functions;

/* Filled by the loader; declared ahead of its KK_OPTIONAL_LIBRARY for the set-up below. */
static kk_kakasi_functions kk_kakasi;

/* KAKASI's options, set once: kanji, hiragana, katakana and the full-width forms to ASCII romaji, words
 * separated by spaces (DESIGN §29.4). argv[0] is a program name, as kakasi_getopt_argv expects. */
static char kk_kakasi_name[] = "kakasi", kk_kakasi_kanji[] = "-Ja", kk_kakasi_hiragana[] = "-Ha",
            kk_kakasi_katakana[] = "-Ka", kk_kakasi_forms[] = "-Ea", kk_kakasi_spaces[] = "-s";
static char *kk_kakasi_options[] = {kk_kakasi_name,     kk_kakasi_kanji, kk_kakasi_hiragana, kk_kakasi_katakana,
                                    kk_kakasi_forms,    kk_kakasi_spaces};

/* A dictionary KAKASI reads from the environment variable, else from its Debian path. */
static const char *kk_kakasi_dictionary(const char *variable, const char *path) {
    const char *set = getenv(variable);
    return set != NULL && *set != 0 ? set : path;
}

/* KAKASI ends the process (exit 2) when a dictionary cannot be opened, so their presence is checked first. */
static const char *kk_kakasi_set_up(void) {
    /* Run once, under the loader's lock. */
    static char reason[512];
    const char *dictionaries[] = {kk_kakasi_dictionary("KANWADICTPATH", "/usr/share/kakasi/kanwadict"),
                                  kk_kakasi_dictionary("ITAIJIDICTPATH", "/usr/share/kakasi/itaijidict")};
    for (size_t i = 0; i < sizeof dictionaries / sizeof dictionaries[0]; i++) {
        if (access(dictionaries[i], R_OK) != 0) {
            snprintf(reason, sizeof reason, "cannot read its dictionary %s", dictionaries[i]);
            return reason;
        }
    }
    int count = (int)(sizeof kk_kakasi_options / sizeof kk_kakasi_options[0]);
    if (kk_kakasi.getopt_argv(count, kk_kakasi_options) != 0) return "kakasi_getopt_argv refused the options";
    return NULL;
}

/* libkakasi, loaded by kk_kakasi_load into kk_kakasi. */
KK_OPTIONAL_LIBRARY(kk_kakasi_library, kk_kakasi_load, kk_kakasi_functions, kk_kakasi, "libkakasi.so.2",
                    "romaji for Japanese lines needs libkakasi.so.2 (Debian: libkakasi2 kakasi-dic): {reason}",
                    "kakasi_getopt_argv kakasi_do kakasi_free", kk_kakasi_set_up)

/* KAKASI's state is global: one call at a time, and the converters with it. */
static pthread_mutex_t kk_kakasi_lock = PTHREAD_MUTEX_INITIALIZER;
static iconv_t kk_to_euc = (iconv_t)-1, kk_from_euc = (iconv_t)-1;

/* A growing byte buffer; `failed` once memory ran out. */
typedef struct {
    char *bytes;
    size_t length, capacity;
    int failed;
} kk_buffer;

static void kk_buffer_append(kk_buffer *buffer, const char *bytes, size_t count) {
    if (buffer->failed) return;
    if (buffer->length + count + 1 > buffer->capacity) {
        size_t capacity = (buffer->length + count + 1) * 2;
        char *grown = realloc(buffer->bytes, capacity);
        if (grown == NULL) {
            buffer->failed = 1;
            return;
        }
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->length, bytes, count);
    buffer->length += count;
    buffer->bytes[buffer->length] = 0;
}

/* The bytes of the UTF-8 character at `text` (1 for a stray byte, which is then kept as it is). */
static size_t kk_utf8_length(const unsigned char *text) {
    if (text[0] < 0x80) return 1;
    size_t length = text[0] >= 0xF0 ? 4 : text[0] >= 0xE0 ? 3 : text[0] >= 0xC0 ? 2 : 1;
    for (size_t i = 1; i < length; i++)
        if ((text[i] & 0xC0) != 0x80) return 1;
    return length;
}

/* The code point of the `length`-byte UTF-8 character at `text`. */
static uint32_t kk_code_point(const unsigned char *text, size_t length) {
    if (length == 1) return text[0];
    uint32_t value = text[0] & (0x7F >> length);
    for (size_t i = 1; i < length; i++) value = (value << 6) | (text[i] & 0x3F);
    return value;
}

/* Whether KAKASI is given the character: ASCII, Japanese punctuation, kana, kanji and the full-width forms.
 * Other characters KAKASI would name in words (♪ as "(kigou)", Cyrillic as "(Russia)"), misread (the
 * half-width kana, JIS X 0201, leave its state broken for later calls) or cannot take (not in EUC-JP) are kept
 * as written; so are 〃 〇 ゛ ゜, which it names too. */
static int kk_kakasi_reads(uint32_t c) {
    if (c == 0x3003 || c == 0x3007 || c == 0x309B || c == 0x309C) return 0;
    return (c >= 0x20 && c < 0x7F) || (c >= 0x3000 && c <= 0x30FF) || (c >= 0x3400 && c <= 0x4DBF) ||
           (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFF01 && c <= 0xFF5E);
}

/* Converts `count` bytes with `converter` onto `out`; returns 0 when a character does not convert. */
static int kk_convert(iconv_t converter, const char *bytes, size_t count, kk_buffer *out) {
    char chunk[256];
    char *in = (char *)bytes;
    size_t left = count;
    iconv(converter, NULL, NULL, NULL, NULL);
    while (left > 0) {
        char *next = chunk;
        size_t room = sizeof chunk;
        size_t result = iconv(converter, &in, &left, &next, &room);
        kk_buffer_append(out, chunk, (size_t)(next - chunk));
        if (result == (size_t)-1 && errno != E2BIG) return 0;
    }
    return 1;
}

/* Romanizes the EUC-JP `run` through KAKASI onto `out` in UTF-8. Under the lock. */
static void kk_kakasi_run(kk_buffer *run, kk_buffer *out) {
    if (run->length == 0 || run->failed) {
        out->failed |= run->failed;
        return;
    }
    char *romaji = kk_kakasi.convert(run->bytes);
    run->length = 0;
    if (romaji == NULL) {
        out->failed = 1;
        return;
    }
    /* -Ea leaves little but ASCII; what it keeps (a lone 々) is EUC-JP. */
    kk_convert(kk_from_euc, romaji, strlen(romaji), out);
    kk_kakasi.free_text(romaji);
}

char *kk_kakasi_romanize(const char *text) {
    kk_buffer out = {0}, run = {0};
    kk_buffer_append(&out, "", 0);
    pthread_mutex_lock(&kk_kakasi_lock);
    if (kk_to_euc == (iconv_t)-1) kk_to_euc = iconv_open("EUC-JP", "UTF-8");
    if (kk_from_euc == (iconv_t)-1) kk_from_euc = iconv_open("UTF-8", "EUC-JP");
    if (kk_to_euc == (iconv_t)-1 || kk_from_euc == (iconv_t)-1) out.failed = 1;
    const unsigned char *next = (const unsigned char *)text;
    while (*next && !out.failed) {
        size_t length = kk_utf8_length(next);
        size_t before = run.length;
        /* A character goes into the run when KAKASI reads it and EUC-JP holds it in JIS X 0208 (two bytes
         * of 0xA1…0xFE) or ASCII; otherwise the run so far is romanized and the character kept. */
        int taken = kk_kakasi_reads(kk_code_point(next, length)) &&
                    kk_convert(kk_to_euc, (const char *)next, length, &run) && !run.failed &&
                    (run.length - before == 1 || (run.length - before == 2 && (unsigned char)run.bytes[before] >= 0xA1));
        if (!taken) {
            run.length = before;
            if (run.bytes != NULL) run.bytes[before] = 0;
            kk_kakasi_run(&run, &out);
            kk_buffer_append(&out, (const char *)next, length);
        }
        next += length;
    }
    kk_kakasi_run(&run, &out);
    pthread_mutex_unlock(&kk_kakasi_lock);
    free(run.bytes);
    if (out.failed) {
        free(out.bytes);
        return NULL;
    }
    return out.bytes;
}

void kk_kakasi_free(char *text) { free(text); }
