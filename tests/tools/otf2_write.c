/* SPDX-License-Identifier: MIT */
/* otf2_write DIR [NAME]: write the multi-layer test trace DIR/NAME.otf2 (default "traces"). */
#include "config.h"

#include <stdio.h>

#include "otf2_trace.h"

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: otf2_write DIR [NAME]\n");
        return 2;
    }
    return otf2_trace_write(argv[1], argc == 3 ? argv[2] : "traces") ? 1 : 0;
}
