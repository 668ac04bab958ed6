/* SPDX-License-Identifier: MIT */
/* iodfg entry point: picks the subcommand and maps its result to an exit status. */
#include "config.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        printf("%s\n", PACKAGE_STRING);
        return 0;
    }
    fprintf(stderr, "usage: iodfg --version\n");
    return 2;
}
