/* SPDX-License-Identifier: MIT */
/* otf2_write DIR [NAME [FILE RANK1]]: write the multi-layer test trace DIR/NAME.otf2 (default
 * "traces"), with FILE and RANK1 as its file's and rank 1's names when given.
 * otf2_write DIR NAME --context none|regions|calling [--bad]: write a calling-context test
 * archive instead (tests/tools/otf2_ctx.c), with malformed context records when --bad. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "otf2_trace.h"

static int context(int argc, char **argv)
{
    static const char *const kinds[] = {"none", "regions", "calling"};
    int bad = argc == 6 && strcmp(argv[5], "--bad") == 0;
    for (int k = 0; k < 3 && (argc == 5 || bad); k++) {
        if (strcmp(argv[4], kinds[k]) == 0) {
            return otf2_ctx_write(argv[1], argv[2], k, bad) ? 1 : 0;
        }
    }
    fprintf(stderr, "usage: otf2_write DIR NAME --context none|regions|calling [--bad]\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc >= 5 && strcmp(argv[3], "--context") == 0) {
        return context(argc, argv);
    }
    if (argc < 2 || argc == 4 || argc > 5) {
        fprintf(stderr, "usage: otf2_write DIR [NAME [FILE RANK1]]\n"
                        "       otf2_write DIR NAME --context none|regions|calling [--bad]\n");
        return 2;
    }
    const char *name = argc >= 3 ? argv[2] : "traces";
    if (argc == 5) {
        return otf2_trace_write_named(argv[1], name, argv[3], argv[4]) ? 1 : 0;
    }
    return otf2_trace_write(argv[1], name) ? 1 : 0;
}
