/* SPDX-License-Identifier: MIT */
/* The program's own non-ASCII symbols (Σ µ – · × → …) with ASCII fallbacks, chosen once at
 * start-up: UTF-8 when the locale's character set is UTF-8, ASCII otherwise (a login node with
 * LANG unset, or --ascii). Every table, note and screen takes its symbols from here, so that a
 * C-locale screen reads as well as a UTF-8 one; untrusted text is escaped by sanitize.h. */
#ifndef IODFG_GLYPH_H
#define IODFG_GLYPH_H

enum iodfg_glyph {
    IODFG_GL_SUM,      /* Σ  "sum " */
    IODFG_GL_MICRO,    /* µ  "u" (µs -> us) */
    IODFG_GL_NONE,     /* –  "-" (no value) */
    IODFG_GL_SEP,      /* ·  "|" (between items of a line) */
    IODFG_GL_TIMES,    /* ×  "x" */
    IODFG_GL_DELTA,    /* Δ  "d" */
    IODFG_GL_GAMMA,    /* Γ  "G" */
    IODFG_GL_RHO,      /* ρ  "rho" */
    IODFG_GL_PI,       /* Π  "Pi" */
    IODFG_GL_MEAN_DR,  /* dr̄ "dr_avg" (the mean process data rate) */
    IODFG_GL_START,    /* ●  "[start]" */
    IODFG_GL_END,      /* ■  "[end]" */
    IODFG_GL_TO,       /* →  "->" */
    IODFG_GL_FROM,     /* ←  "<-" */
    IODFG_GL_ELLIPSIS, /* …  "..." */
    IODFG_GL_PROMPT,   /* ›  ">" */
    IODFG_GL_DASH,     /* —  "--" */
    IODFG_GL_LOOP,     /* ↻  "~" (a self-loop) */
    IODFG_GL_CURSOR,   /* ▶  ">" */
    IODFG_GL_UP,       /* ▲  "^" */
    IODFG_GL_DOWN,     /* ▼  "v" */
    IODFG_GL_COUNT
};

/* Choose the symbols: utf8 > 0 UTF-8, 0 ASCII, < 0 from the locale (LC_CTYPE's character
 * set; call setlocale first). Call once at start-up, before any thread formats text. */
void iodfg_glyph_init(int utf8);
/* 1 when the symbols (and untrusted text) are UTF-8, 0 when ASCII. Before iodfg_glyph_init the
 * answer is 1 (the library's tests and other callers that never choose get UTF-8). */
int iodfg_glyph_utf8(void);
/* The symbol g in the chosen form (static storage). */
const char *iodfg_glyph(enum iodfg_glyph g);
/* The symbol's two forms: for tests and for tables that must know the widths of both. */
const char *iodfg_glyph_form(enum iodfg_glyph g, int utf8);
/* The program's own text (a string literal: labels, headers, format strings) with its symbols
 * in the chosen form: literal itself with UTF-8, else an ASCII copy made once per literal
 * ("Σdur · x" -> "sum dur | x"); any other non-ASCII byte becomes '?'. Only for static
 * text (the copy is kept per address); untrusted text goes through sanitize.h instead. NULL
 * gives NULL. Thread-safe. */
const char *iodfg_glyph_text(const char *literal) __attribute__((format_arg(1)));

#endif
