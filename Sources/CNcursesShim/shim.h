#ifndef MAKIMA_NCURSES_SHIM_H
#define MAKIMA_NCURSES_SHIM_H
// Wide-character API must be switched on before the header (SwiftPM drops pkg-config -D flags).
#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <ncurses.h>

// Swift 6 rejects C globals as not concurrency-safe: expose each through an accessor.
static inline WINDOW *mk_stdscr(void) { return stdscr; }
static inline int mk_colors(void) { return COLORS; }
static inline int mk_color_pairs(void) { return COLOR_PAIRS; }
static inline int mk_lines(void) { return LINES; }
static inline int mk_cols(void) { return COLS; }

// A_* attributes do not import into Swift.
static inline attr_t mk_a_normal(void) { return A_NORMAL; }
static inline attr_t mk_a_bold(void) { return A_BOLD; }
static inline attr_t mk_a_dim(void) { return A_DIM; }
static inline attr_t mk_a_reverse(void) { return A_REVERSE; }
static inline attr_t mk_a_underline(void) { return A_UNDERLINE; }
static inline attr_t mk_a_italic(void) { return A_ITALIC; }

// Colour pairs above 255 travel through the opts pointer.
static inline int mk_attr_set(WINDOW *w, attr_t attrs, int pair) {
    return wattr_set(w, attrs, (short)0, &pair);
}
static inline int mk_setcchar(cchar_t *c, const wchar_t *wch, attr_t attrs, int pair) {
    return setcchar(c, wch, attrs, (short)0, &pair);
}
// OSC 8 hyperlinks (Hyperlink.swift): terminfo strings, NULL when the terminal has none, and
// tputs (declared in term.h, whose macros would clash with the curses names used here).
extern int tputs(const char *, int, int (*)(int));
static inline const char *mk_cap_string(const char *name) {
    const char *s = tigetstr(name);
    return s == (const char *)-1 ? NULL : s;
}
// `cup` to (row, col), counted from 0 (tiparm is variadic: Swift cannot call it).
static inline const char *mk_cup_string(int row, int col) {
    const char *cup = mk_cap_string("cup");
    return cup == NULL ? NULL : tiparm(cup, row, col);
}
// Whether a terminfo entry exists, asked of ncurses (setupterm). setupterm replaces the
// current terminal (cur_term) with the one it loads: the one in use is put back and the
// loaded one freed, so a screen already running keeps its entry.
struct term;
extern struct term *cur_term;
extern struct term *set_curterm(struct term *);
extern int del_curterm(struct term *);
extern int setupterm(const char *, int, int *);
static inline int mk_terminfo_has_entry(const char *name) {
    struct term *in_use = cur_term;
    int found = 0;
    // With errret given, setupterm reports instead of printing and exiting; fd 2 is only
    // asked for its size and modes.
    if (setupterm(name, 2, &found) != 0 || found != 1) {
        set_curterm(in_use);
        return 0;
    }
    struct term *loaded = set_curterm(in_use);
    if (loaded != in_use) del_curterm(loaded);
    return 1;
}
// Whether the terminfo entry `name` can move the cursor (`cup`): 1 yes, 0 no (TERM=dumb),
// -1 no such entry. Loaded and freed as above, before any screen starts.
static inline int mk_terminfo_can_address(const char *name) {
    struct term *in_use = cur_term;
    int found = 0;
    if (setupterm(name, 2, &found) != 0 || found != 1) {
        set_curterm(in_use);
        return -1;
    }
    const char *cup = tigetstr("cup");
    int can = cup != NULL && cup != (const char *)-1 && cup[0] != 0;
    struct term *loaded = set_curterm(in_use);
    if (loaded != in_use) del_curterm(loaded);
    return can;
}
#endif
