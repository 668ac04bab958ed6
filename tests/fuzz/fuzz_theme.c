/* SPDX-License-Identifier: MIT */
/* libFuzzer target: theme files (tui_theme_parse over the compiled-in default; no inheritance
 * from files). A text parses or fails at a line. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "iodfg/error.h"

#include "fuzz_util.h"
#include "tui/theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct tui_theme t;
    tui_theme_init_default(&t);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (tui_theme_parse(&t, (const char *)data, size, "fuzz", NULL, &err)) {
        fuzz_check_error(&err, err.code == IODFG_E_PARSE);
    }
    return 0;
}
