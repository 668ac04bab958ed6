/* SPDX-License-Identifier: MIT */
/* Named rule presets shipped with the program: "default" (the f-hat of Sankaran et al. 2024)
 * and "hpc" (the same with per-process names folded, so that two MPI runs compare). */
#include "config.h"

#include <string.h>

#include "iodfg/rules.h"

/* doc/rules.md, "Presets", shows this text; tests/e2e/insights.sh checks that it does. */
static const char hpc_text[] =
    "# hpc: the f-hat with per-process names folded (doc/rules.md, Presets)\n"
    "map kind = file path ~ ^/proc/([0-9]+|self|thread-self)(/|$) => {call}:/proc/*\n"
    "map kind = file path ~ ^/tmp/ompi\\.[^/]* => {call}:/tmp/ompi.*\n"
    "map kind = file path ~ ^/dev/shm/. => {call}:/dev/shm/*\n"
    "map kind = file path !~ ^/(usr|lib[0-9]*|bin|sbin|etc|opt|proc|sys|dev|run|var)/ "
    "path ~ ^(/[^/]+/)([^/]*?)[0-9]+([^/]*) => {call}:$1$2*$3\n"
    "map kind = file => {call}:{path:2}\n"
    "map kind = none => {call}\n"
    "map => {call}:{kind}\n";

static const struct {
    const char *name, *summary;
    const char *(*text)(void);
} presets[] = {
    {"default", "the f-hat: call and path cut to two levels", iodfg_rules_default_text},
    {"hpc", "the f-hat with /proc/<pid>, /tmp/ompi.*, /dev/shm and numbered files folded",
     iodfg_rules_hpc_text},
};

const char *iodfg_rules_hpc_text(void)
{
    return hpc_text;
}

const char *iodfg_rules_preset(const char *name)
{
    for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
        if (strcmp(name, presets[i].name) == 0) {
            return presets[i].text();
        }
    }
    return NULL;
}

const char *iodfg_rules_preset_name(size_t i, const char **summary)
{
    if (i >= sizeof(presets) / sizeof(presets[0])) {
        return NULL;
    }
    if (summary) {
        *summary = presets[i].summary;
    }
    return presets[i].name;
}
