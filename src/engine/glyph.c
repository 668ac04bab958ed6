/* SPDX-License-Identifier: MIT */
/* The program's own symbols in UTF-8 or ASCII, chosen once at start-up. */
#include "config.h"

#include "iodfg/glyph.h"

#include <langinfo.h>
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
