/* SPDX-License-Identifier: MIT */
/* otf2_write DIR [NAME [FILE RANK1]]: write the multi-layer test trace DIR/NAME.otf2 (default
 * "traces"), with FILE and RANK1 as its file's and rank 1's names when given. */
#include "config.h"

#include <stdio.h>

#include "otf2_trace.h"

int main(int argc, char **argv)
{
    if (argc < 2 || argc == 4 || argc > 5) {
        fprintf(stderr, "usage: otf2_write DIR [NAME [FILE RANK1]]\n");
        return 2;
    }
    const char *name = argc >= 3 ? argv[2] : "traces";
    if (argc == 5) {
        return otf2_trace_write_named(argv[1], name, argv[3], argv[4]) ? 1 : 0;
    }
    return otf2_trace_write(argv[1], name) ? 1 : 0;
}
