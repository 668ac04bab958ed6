/* SPDX-License-Identifier: MIT */
/* Test support: the real IOR runs, unpacked, converted, loaded and analysed; a JSON check. */
#include "config.h"

#include "picture_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/filter.h"
#include "iodfg/session.h"
#include "iodfg/store.h"

#include "testutil.h"

char *pic_run_command(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    ck_assert_msg(p != NULL, "cannot run %s", cmd);
    size_t len = 0, cap = 4096;
    char *out = malloc(cap);
    ck_assert_ptr_nonnull(out);
    size_t n;
    while ((n = fread(out + len, 1, cap - len - 1, p)) > 0) {
        len += n;
        if (cap - len < 1024) {
            cap *= 2;
            out = realloc(out, cap);
            ck_assert_ptr_nonnull(out);
        }
    }
    out[len] = '\0';
    ck_assert_msg(pclose(p) == 0, "failed: %s", cmd);
    return out;
}

static struct iodfg_eventlog *load(const char *cid, char **dir_out, const char **h5_out)
{
    static char h5[4200];
    const char *bin = getenv("IODFG_BIN");
    ck_assert_msg(bin != NULL, "IODFG_BIN is not set (run through make check)");
    char *dir = testutil_tmpdir();
    char cmd[12800], inputs[4096] = "";
    size_t n = 0;
    for (const char *c = cid; *c;) { // the runs' directories
        size_t len = strcspn(c, " ");
        n += (size_t)snprintf(inputs + n, sizeof(inputs) - n, " '%s/ior-real/%.*s'", dir, (int)len,
                              c);
        c += len + (c[len] == ' ');
    }
    snprintf(h5, sizeof(h5), "%s/log.h5", dir);
    snprintf(cmd, sizeof(cmd), "tar -C '%s' -xJf '%s' && '%s' convert --quiet -o '%s'%s", dir,
             testutil_data("traces/ior-real.tar.xz"), bin, h5, inputs);
    free(pic_run_command(cmd));
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_eventlog *log = iodfg_store_load(h5, IODFG_COL_ALL, NULL, NULL, &err);
    ck_assert_msg(log != NULL, "%s: %s", h5, err.msg);
    *dir_out = dir;
    if (h5_out) {
        *h5_out = h5;
    }
    return log;
}

static struct iodfg_session *open_session(const struct iodfg_eventlog *log, const char *filters)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_session *s = iodfg_session_new(log, &err);
    ck_assert_ptr_nonnull(s);
    if (filters) {
        ck_assert_msg(iodfg_filter_stack_parse(iodfg_session_filters(s), filters, strlen(filters),
                                               "test", &err) == 0,
                      "%s", err.msg);
    }
    ck_assert_msg(iodfg_session_rebuild(s, &err) == 0, "%s", err.msg);
    return s;
}

void pic_run_open(struct pic_run *r, const char *cids, const char *filters)
{
    r->log = load(cids, &r->dir, &r->h5);
    r->s = open_session(r->log, filters);
    iodfg_picture_input_session(&r->in, &r->sel, r->s, NULL);
}

void pic_run_rebuild(struct pic_run *r)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_msg(iodfg_session_rebuild(r->s, &err) == 0, "%s", err.msg);
    iodfg_picture_input_session(&r->in, &r->sel, r->s, NULL);
}

void pic_run_close(struct pic_run *r)
{
    iodfg_session_free(r->s);
    iodfg_eventlog_free(r->log);
    testutil_rmtree(r->dir);
    free(r->dir);
    memset(r, 0, sizeof(*r));
}

void pic_json_ok(const char *data, size_t len)
{
    if (system("command -v python3 >/dev/null 2>&1") != 0) {
        fprintf(stderr, "SKIP: python3 not found, JSON not parsed\n");
        return;
    }
    char *dir = testutil_tmpdir();
    char path[4200], cmd[8600];
    snprintf(path, sizeof(path), "%s/p.json", dir);
    testutil_write_file(path, data, len);
    // Debian's python3 first, as the end-to-end tests (a python3 earlier on PATH may start slowly)
    snprintf(cmd, sizeof(cmd),
             "p=/usr/bin/python3; [ -x $p ] || p=python3; "
             "$p -c 'import json,sys; json.load(open(sys.argv[1]))' '%s'",
             path);
    int rc = system(cmd);
    testutil_rmtree(dir);
    free(dir);
    ck_assert_msg(rc == 0, "invalid JSON:\n%.*s", (int)(len < 2000 ? len : 2000), data);
}
