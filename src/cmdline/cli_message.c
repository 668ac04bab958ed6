/* SPDX-License-Identifier: MIT */
/* What the commands say on standard error, and their usage texts: every message is one line
 * ("iodfg: ..."), its whole text through the terminal sanitiser, so a name or a parser's
 * message shows a line break or an escape as text (\n, \e) instead of obeying it. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/sanitize.h"
#include "iodfg/table.h"

#include "cli.h"

const char *cli_program = "iodfg";
int cli_log_only;

/* n bytes of a usage text; a program that reads only event logs: "LOG.h5|TRACES..." says
 * LOG.h5. */
static void usage_inputs_put(const char *p, size_t n, FILE *out)
{
    static const char *const traces[] = {"|FILES|DIRS...", "|TRACES..."};
    while (cli_log_only && n) {
        const char *hit = NULL, *end = p + n;
        size_t len = 0;
        for (size_t i = 0; i < 2; i++) {
            const char *h = strstr(p, traces[i]);
            if (h && h + strlen(traces[i]) <= end && (!hit || h < hit)) {
                hit = h;
                len = strlen(traces[i]);
            }
        }
        if (!hit) {
            break;
        }
        fwrite(p, 1, (size_t)(hit - p), out);
        n -= (size_t)(hit - p) + len;
        p = hit + len;
    }
    fwrite(p, 1, n, out);
}

void cli_usage_put(const char *text, FILE *out)
{
    // the texts are written for iodfg: name the running program wherever they name it
    for (const char *p = text, *hit; *p; p = hit + 5) {
        hit = strstr(p, "iodfg");
        if (!hit) {
            usage_inputs_put(p, strlen(p), out);
            break;
        }
        usage_inputs_put(p, (size_t)(hit - p), out);
        int word = (hit == text || !isalnum((unsigned char)hit[-1])) &&
                   !isalnum((unsigned char)hit[5]) && hit[5] != '-' && hit[5] != '/';
        fputs(word ? cli_program : "iodfg", out);
    }
}

static void put_message(const char *text)
{
    // the whole text through the sanitiser once: names in it are raw, and a line break in one
    // shows as \n instead of starting a line that looks like a message of its own
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    iodfg_buf_addf(&b, "%s: ", cli_program);
    iodfg_sanitize_term(&b, text, strlen(text));
    iodfg_buf_add(&b, "\n", 1);
    if (b.failed) {
        fprintf(stderr, "%s: out of memory\n", cli_program);
    } else {
        fputs(b.data, stderr);
    }
    iodfg_buf_fini(&b);
}

void cli_error(const struct iodfg_error *err)
{
    char buf[1500];
    put_message(iodfg_error_format(err, buf, sizeof(buf)));
}

void cli_errorf(const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    put_message(buf);
}

void cli_error_caret(const struct iodfg_error *err, const char *text, size_t len)
{
    cli_error(err);
    if (!err->line || !text) {
        return;
    }
    const char *p = text, *end = text + len;
    for (unsigned long ln = 1; ln < err->line; ln++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) {
            return;
        }
        p = nl + 1;
    }
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
    if (ll && p[ll - 1] == '\r') {
        ll--;
    }
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    iodfg_sanitize_term(&b, p, ll);
    fprintf(stderr, "  %s\n", b.data ? b.data : "");
    if (err->col) {
        size_t upto = err->col - 1 < ll ? err->col - 1 : ll;
        iodfg_buf_clear(&b);
        iodfg_sanitize_term(&b, p, upto);
        fprintf(stderr, "  %*s^\n", (int)iodfg_text_width(b.data ? b.data : "", b.len), "");
    }
    iodfg_buf_fini(&b);
}

void cli_put_term(FILE *out, const char *s)
{
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    iodfg_sanitize_term(&b, s, strlen(s));
    fputs(b.failed || !b.data ? "(out of memory)" : b.data, out);
    iodfg_buf_fini(&b);
}

int cli_stdout_status(int rc)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout)) {
        return rc;
    }
    if (rc != CLI_OK && rc != CLI_SKIPPED) {
        return rc;
    }
    if (errno) {
        cli_errorf("writing to standard output failed: %s", strerror(errno));
    } else {
        cli_errorf("writing to standard output failed");
    }
    return CLI_FAIL;
}

int cli_need_inputs(int optind_, int argc, const char *what, const char *usage)
{
    if (optind_ < argc) {
        return 0;
    }
    if (cli_log_only) { // "dfg needs an event log or trace files": this program reads one log
        cli_errorf("%.*s needs an event log (LOG.h5)", (int)strcspn(what, " "), what);
    } else {
        cli_errorf("%s", what);
    }
    cli_usage_put(usage, stderr);
    return CLI_USAGE;
}

const char *cli_bytes(char *buf, size_t size, double v)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (v >= 1024 && u < 5) {
        v /= 1024;
        u++;
    }
    snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", v, units[u]);
    return buf;
}
