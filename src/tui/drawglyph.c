/* SPDX-License-Identifier: MIT */
/* The glyph table: UTF-8 forms and their ASCII fallbacks. */
#include "config.h"

#include "tui/drawglyph.h"

static const char *const glyphs_utf8[TUI_G_COUNT] = {
    "\u2500", "\u2502", "\u253c", "\u25b6", "\u2026", "\u25bc", "\u25b2", "\u2013", "\u25b6",
    "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588", "\u2593",
    "\u2592", "\u2591", "\u00b7",
    // boxes by line bits: none N E NE S NS SE NSE W NW EW NEW SW NSW ESW NESW
    " ", "│", "─", "└", "│", "│", "┌", "├", "─", "┘", "─", "┴", "┐", "┤", "┬", "┼", "▼", "↻"};
static const char *const glyphs_ascii[TUI_G_COUNT] = {
    "-", "|", "+", ">", "~", "v", "^", "-", ">", ".", ",", ":", ";", "=", "+", "*", "#", "=", "-",
    ".", "|",
    // boxes
    " ", "|", "-", "+", "|", "|", "+", "+", "-", "+", "-", "+", "+", "+", "+", "+", "v", "~"};

const char *tui_glyph(enum tui_glyph g, int utf8)
{
    if ((unsigned)g >= TUI_G_COUNT) {
        return "?";
    }
    return utf8 ? glyphs_utf8[g] : glyphs_ascii[g];
}
