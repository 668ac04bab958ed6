/* SPDX-License-Identifier: MIT */
/* The temp file being written, removed when SIGINT, SIGTERM or SIGHUP ends the process. */
#include "config.h"

#include "cli_tempfile.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static char guarded[4096];

static void on_signal(int sig)
{
    if (guarded[0]) {
        unlink(guarded); // async-signal-safe
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Block (how = SIG_BLOCK) or unblock the signals that remove the temp file. */
static void hold_signals(int how)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(how, &set, NULL);
}

void cli_temp_hold(void)
{
    hold_signals(SIG_BLOCK);
}

void cli_temp_guard(const char *path)
{
    snprintf(guarded, sizeof(guarded), "%s", path);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    hold_signals(SIG_UNBLOCK); // one that came meanwhile is handled now
}

void cli_temp_forget(void)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    guarded[0] = '\0';
    hold_signals(SIG_UNBLOCK);
}
