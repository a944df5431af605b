#ifndef KK_KAKASI_SHIM_H
#define KK_KAKASI_SHIM_H

/* KAKASI, loaded on first use, for the romaji of Japanese lines under `--romanize` (DESIGN §29.4).
 *
 * Only `--romanize` of a song with Japanese needs it, so karaoke does not link libkakasi: the first line
 * romanized loads it through the optional-library loader, which also sets KAKASI's options once. KAKASI keeps
 * global state, so every call here is serialised. */

/* Loads libkakasi on the first call and sets its options (`-Ja -Ha -Ka -Ea -s`). Returns NULL when it is
 * ready, else the message to show, naming the Debian packages (a string that lives as long as the process). */
const char *kk_kakasi_load(void);

/* `text` (NUL-terminated UTF-8) with its kana, kanji and full-width forms written in romaji as the `kakasi`
 * command writes them with the same options; every other character is kept as it is. Returns a string to free
 * with `kk_kakasi_free`, or NULL when memory runs out. Call after `kk_kakasi_load`; any thread. */
char *kk_kakasi_romanize(const char *text);

/* Frees a string `kk_kakasi_romanize` returned. */
void kk_kakasi_free(char *text);

#endif
