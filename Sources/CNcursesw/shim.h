#ifndef KARAOKE_CNCURSESW_SHIM_H
#define KARAOKE_CNCURSESW_SHIM_H

/* SwiftPM drops pkg-config's _XOPEN_SOURCE, which hides the wide-character API; ask for it directly. */
#define NCURSES_WIDECHAR 1
#include <ncursesw/curses.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* Swift 6 rejects C globals and cannot import function-like or attribute macros: these accessors stand in. */
static inline WINDOW *kk_stdscr(void) { return stdscr; }
static inline int kk_lines(void) { return LINES; }
static inline int kk_cols(void) { return COLS; }
static inline int kk_colors(void) { return COLORS; }
static inline int kk_color_pairs(void) { return COLOR_PAIRS; }
static inline attr_t kk_a_bold(void) { return A_BOLD; }
static inline attr_t kk_a_dim(void) { return A_DIM; }
static inline attr_t kk_a_normal(void) { return A_NORMAL; }
static inline attr_t kk_a_reverse(void) { return A_REVERSE; }

static inline WINDOW *kk_curscr(void) { return curscr; }
static inline FILE *kk_stdout(void) { return stdout; }
static inline FILE *kk_stdin(void) { return stdin; }

/// Sets a cchar_t from `text` (one spacing character and up to four combining ones), with an extended
/// colour pair passed through `opts` because the `short` argument holds only 8 bits of pair.
static inline int kk_setcchar(cchar_t *cell, const wchar_t *text, attr_t attrs, int pair) {
    return setcchar(cell, text, attrs, 0, &pair);
}

/// A terminfo string capability of the current terminal, or NULL when it has none (terminfo's -1 for
/// "not a string capability" included).
static inline const char *kk_tigetstr(const char *name) {
    char *value = tigetstr(name);
    return value == (char *)-1 ? NULL : value;
}

/// A terminfo boolean capability of the current terminal (0 when absent).
static inline int kk_tigetflag(const char *name) { return tigetflag(name) > 0; }

/// A terminfo numeric capability of the current terminal (-1 when absent, -2 for "not a number").
static inline int kk_tigetnum(const char *name) { return tigetnum(name); }

/// Loads the terminfo entry of `name` as the current terminal, without taking over any screen (for
/// reading its strings); 0 on success.
static inline int kk_setupterm(const char *name) {
    int error = 0;
    return setupterm(name, 1, &error) == OK ? 0 : -1;
}

/// The window size of a terminal file descriptor; 0 on success.
static inline int kk_window_size(int fd, int *cols, int *rows) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0 || ws.ws_row == 0) return -1;
    *cols = ws.ws_col;
    *rows = ws.ws_row;
    return 0;
}

/// The window size of a terminal file descriptor in pixels (0 where the terminal does not say); 0 on success.
static inline int kk_window_pixels(int fd, int *width, int *height) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0 || ws.ws_row == 0) return -1;
    *width = ws.ws_xpixel / ws.ws_col;
    *height = ws.ws_ypixel / ws.ws_row;
    return 0;
}

#endif
