/* SPDX-License-Identifier: MIT */
/* The program's own symbols in UTF-8 or ASCII, chosen once at start-up. */
#include "config.h"

#include "iodfg/glyph.h"

#include <langinfo.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const forms[IODFG_GL_COUNT][2] = {
    [IODFG_GL_SUM] = {"sum ", "\u03a3"},      [IODFG_GL_MICRO] = {"u", "\u00b5"},
    [IODFG_GL_NONE] = {"-", "\u2013"},        [IODFG_GL_SEP] = {"|", "\u00b7"},
    [IODFG_GL_TIMES] = {"x", "\u00d7"},       [IODFG_GL_DELTA] = {"d", "\u0394"},
    [IODFG_GL_GAMMA] = {"G", "\u0393"},       [IODFG_GL_RHO] = {"rho", "\u03c1"},
    [IODFG_GL_PI] = {"Pi", "\u03a0"},         [IODFG_GL_MEAN_DR] = {"dr_avg", "dr\u0304"},
    [IODFG_GL_START] = {"[start]", "\u25cf"}, [IODFG_GL_END] = {"[end]", "\u25a0"},
    [IODFG_GL_TO] = {"->", "\u2192"},         [IODFG_GL_FROM] = {"<-", "\u2190"},
    [IODFG_GL_ELLIPSIS] = {"...", "\u2026"},  [IODFG_GL_PROMPT] = {">", "\u203a"},
    [IODFG_GL_DASH] = {"--", "\u2014"},       [IODFG_GL_LOOP] = {"~", "\u21bb"},
    [IODFG_GL_CURSOR] = {">", "\u25b6"},      [IODFG_GL_UP] = {"^", "\u25b2"},
    [IODFG_GL_DOWN] = {"v", "\u25bc"},
};

// Set once at start-up (before threads) and only read afterwards.
static int use_utf8 = 1;

void iodfg_glyph_init(int utf8)
{
    if (utf8 < 0) {
        const char *cs = nl_langinfo(CODESET);
        utf8 = cs && (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "utf8") == 0);
    }
    use_utf8 = utf8 != 0;
}

int iodfg_glyph_utf8(void)
{
    return use_utf8;
}

const char *iodfg_glyph_form(enum iodfg_glyph g, int utf8)
{
    return (unsigned)g < IODFG_GL_COUNT ? forms[g][utf8 != 0] : "?";
}

const char *iodfg_glyph(enum iodfg_glyph g)
{
    return iodfg_glyph_form(g, use_utf8);
}

/* ---- the program's own text in ASCII ---- */

/* ASCII copies of literals, found by the literal's address: open addressing, never shrinks. */
#define TEXT_SLOTS 1024
static struct {
    const char *literal;
    char *ascii;
} texts[TEXT_SLOTS];
static pthread_mutex_t texts_lock = PTHREAD_MUTEX_INITIALIZER;

/* s with every symbol's UTF-8 form replaced by its ASCII form, other non-ASCII bytes by '?'
 * (malloc'd; NULL when out of memory). */
static char *to_ascii(const char *s)
{
    size_t len = strlen(s), cap = 8 * len + 1; // the longest ASCII form is 7 bytes
    char *out = malloc(cap), *o = out;
    if (!out) {
        return NULL;
    }
    while (*s) {
        int done = 0;
        for (int g = 0; !done && (unsigned char)*s >= 0x80 && g < IODFG_GL_COUNT; g++) {
            const char *u = forms[g][1];
            size_t n = strlen(u);
            if (strncmp(s, u, n) == 0) {
                size_t a = strlen(forms[g][0]);
                memcpy(o, forms[g][0], a);
                o += a;
                s += n;
                done = 1;
            }
        }
        // "dr" + combining macron starts with ASCII: look for it too
        if (!done &&
            strncmp(s, forms[IODFG_GL_MEAN_DR][1], strlen(forms[IODFG_GL_MEAN_DR][1])) == 0) {
            size_t a = strlen(forms[IODFG_GL_MEAN_DR][0]);
            memcpy(o, forms[IODFG_GL_MEAN_DR][0], a);
            o += a;
            s += strlen(forms[IODFG_GL_MEAN_DR][1]);
            done = 1;
        }
        if (!done) {
            unsigned char c = (unsigned char)*s++;
            if (c >= 0x80) { // skip the rest of an unknown UTF-8 sequence: one '?' for it
                while (((unsigned char)*s & 0xC0) == 0x80) {
                    s++;
                }
                c = '?';
            }
            *o++ = (char)c;
        }
    }
    *o = '\0';
    return out;
}

const char *iodfg_glyph_text(const char *literal)
{
    if (!literal || use_utf8) {
        return literal;
    }
    size_t h = ((uintptr_t)literal >> 3) % TEXT_SLOTS;
    const char *r = literal;
    pthread_mutex_lock(&texts_lock);
    for (size_t i = 0; i < TEXT_SLOTS; i++, h = (h + 1) % TEXT_SLOTS) {
        if (texts[h].literal == literal) {
            r = texts[h].ascii;
            break;
        }
        if (!texts[h].literal) {
            char *a = to_ascii(literal);
            if (a) {
                texts[h].literal = literal;
                texts[h].ascii = a;
                r = a;
            }
            break;
        }
    }
    pthread_mutex_unlock(&texts_lock);
    return r;
}
