/* SPDX-License-Identifier: MIT */
/* Unit tests: focus classes (application or runtime) of keys and objects by the built-in class
 * rules and by a user's; errors with their position; the match limit. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/focus.h"
#include "iodfg/strpool.h"

#include "dfg_testlog.h"
#include "testutil.h"

static struct iodfg_eventlog *LOG;
static struct iodfg_focus_classes C;
static struct iodfg_error ERR;

static void setup(void)
{
    LOG = iodfg_eventlog_new(IODFG_COL_ANALYSIS);
    ck_assert_ptr_nonnull(LOG);
    iodfg_focus_classes_init(&C);
    iodfg_error_clear(&ERR);
}

static void teardown(void)
{
    iodfg_focus_classes_fini(&C);
    iodfg_eventlog_free(LOG);
}

/* What real MPI runs hold (from the IOR runs of tests/data/traces/ior-real.tar.xz), one line
 * per event; events 0 .. 21. */
static const char RUN[] =
    "1 07:38:50.530238 execve(\"./ior\", [\"./ior\"], 0x7ff /* 97 vars */) = 0 <0.007418>\n"
    "1 07:38:50.540001 openat(AT_FDCWD</tmp/t/run>, \"check/lib64/tls/x86_64/libm.so.6\", "
    "O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory) <0.000066>\n"
    "1 07:38:50.540101 openat(AT_FDCWD, \"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC) = "
    "3</etc/ld.so.cache> <0.000020>\n"
    "1 07:38:50.540201 read(3</usr/lib/x86_64-linux-gnu/libc.so.6>, \"x\", 832) = 832 "
    "<0.000010>\n"
    "1 07:38:50.540301 read(4</sys/devices/system/cpu/online>, \"0-3\", 4096) = 4 <0.000010>\n"
    "1 07:38:50.540401 read(5</etc/hosts>, \"x\", 4096) = 24 <0.000010>\n"
    "1 07:38:50.540501 read(6</proc/18305/status>, \"x\", 4096) = 24 <0.000010>\n"
    "1 07:38:50.540601 openat(AT_FDCWD, \"/dev/shm/vader_segment.vm.0.1\", O_RDWR|O_CREAT, 0600) "
    "= 7</dev/shm/vader_segment.vm.0.1> <0.000010>\n"
    "1 07:38:50.540701 mkdir(\"/tmp/ompi.vm.0/pid.18383\", 0700) = 0 <0.000010>\n"
    "1 07:38:50.540801 read(8</etc/openmpi/openmpi-mca-params.conf>, \"x\", 4096) = 10 "
    "<0.000010>\n"
    "1 07:38:50.540901 recvfrom(9<socket:[88159]>, \"x\", 4, 0, NULL, NULL) = 4 <0.000010>\n"
    "1 07:38:50.541001 write(13<anon_inode:[eventfd]>, \"\\1\\0\\0\\0\\0\\0\\0\\0\", 8) = 8 "
    "<0.000010>\n"
    "1 07:38:50.541101 futex(0x7f, FUTEX_WAKE_PRIVATE, 1) = 0 <0.000010>\n"
    "1 07:38:50.541201 poll([{fd=5, events=POLLIN}], 1, 0) = 0 (Timeout) <0.000010>\n"
    "1 07:38:50.541301 write(1</dev/pts/0>, \"IOR-3.3.0\\n\", 10) = 10 <0.000010>\n"
    "1 07:38:50.541401 openat(AT_FDCWD, \"/tmp/scratch/ssf/test\", O_RDWR|O_CREAT, 0664) = "
    "17</tmp/scratch/ssf/test> <0.000156>\n"
    "1 07:38:50.541501 lseek(17</tmp/scratch/ssf/test>, 16384, SEEK_SET) = 16384 <0.000013>\n"
    "1 07:38:50.541601 write(17</tmp/scratch/ssf/test>, \"x\", 16384) = 16384 <0.000036>\n"
    "1 07:38:50.541701 write(3, \"x\", 10) = 10 <0.000010>\n"
    "1 07:38:50.541801 read(18<anon_inode:[io_uring]>, \"x\", 10) = 10 <0.000010>\n"
    "1 07:38:50.541901 newfstatat(AT_FDCWD, \"/root/.pmix/mca-params.conf\", 0x7ff, 0) = -1 "
    "ENOENT (No such file or directory) <0.000010>\n"
    "1 07:38:50.542001 openat(AT_FDCWD, \"/usr/share/misc/pci.ids\", O_RDONLY) = 19"
    "</usr/share/misc/pci.ids> <0.000010>\n";

static const char *const WANT[] = {
    "loader", "loader", "loader", "loader", "system",  "system",  "system",   "mpi",
    "mpi",    "mpi",    "mpi",    "mpi",    "process", "process", "terminal", "app",
    "app",    "app",    "app",    "app",    "mpi",     "system",
};

/* The class name of event i's key. */
static const char *class_of_event(uint64_t i)
{
    uint32_t k = iodfg_eventlog_columns(LOG)->key[i];
    ck_assert_uint_lt(k, C.nkeys);
    return iodfg_focus_class_name(&C, C.class_of_key[k]);
}

static void classify(const char *text, const char *where)
{
    struct iodfg_focus *f = iodfg_focus_new(text, text ? strlen(text) : 0, where, &ERR);
    ck_assert_msg(f != NULL, "%s", ERR.msg);
    ck_assert_int_eq(iodfg_focus_classify(f, LOG, &C, &ERR), 0);
    iodfg_focus_free(f);
}

START_TEST(builtin_classes_of_an_mpi_run)
{
    tlog_add_case(LOG, "a_n1_1", RUN);
    ck_assert_uint_eq(iodfg_eventlog_event_count(LOG), sizeof(WANT) / sizeof(WANT[0]));
    classify(NULL, NULL);
    for (uint64_t i = 0; i < sizeof(WANT) / sizeof(WANT[0]); i++) {
        ck_assert_msg(strcmp(class_of_event(i), WANT[i]) == 0, "event %llu: %s, want %s",
                      (unsigned long long)i, class_of_event(i), WANT[i]);
    }
    ck_assert_uint_eq(C.nclasses, 6); // app, loader, system, mpi, process, terminal
    ck_assert_str_eq(iodfg_focus_class_name(&C, 0), "app");
    ck_assert_str_eq(iodfg_focus_class_name(&C, 1), "loader"); // by the order of the keys
    ck_assert_int_eq(iodfg_focus_class_find(&C, "terminal"), 5);
    ck_assert_int_eq(iodfg_focus_class_find(&C, "nothing"), -1);
    ck_assert_str_eq(iodfg_focus_class_name(&C, 99), "");
    ck_assert_uint_eq(C.limited, 0);
}
END_TEST

/* The built-in text is the shipped file, byte for byte. */
START_TEST(builtin_text_is_the_shipped_file)
{
    FILE *fp = fopen(testutil_data("../../src/engine/focus.rules"), "rb");
    ck_assert_ptr_nonnull(fp);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof(buf) - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    ck_assert_str_eq(iodfg_focus_default_text(), buf);
    struct iodfg_focus *f = iodfg_focus_new(NULL, 0, NULL, &ERR);
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(iodfg_focus_where(f), "built-in focus.rules");
    iodfg_focus_free(f);
}
END_TEST

/* A site's own rules: its module tree is a runtime class of its own, the rest as written. */
START_TEST(user_override)
{
    tlog_add_case(LOG, "a_n1_1",
                  "1 08:00:00.000001 openat(AT_FDCWD, \"/opt/site/mods/libx.so\", O_RDONLY) = "
                  "3</opt/site/mods/libx.so> <0.000010>\n"
                  "1 08:00:00.000002 read(4</data/run/in.dat>, \"x\", 10) = 10 <0.000010>\n"
                  "1 08:00:00.000003 futex(0x7f, FUTEX_WAKE_PRIVATE, 1) = 0 <0.000010>\n"
                  "1 08:00:00.000004 read(5</usr/lib/libz.so.1>, \"x\", 10) = 10 <0.000010>\n");
    classify("# site rules\nmap path ~ ^/opt/site/ => modules\n"
             "drop path ~ ^/usr/\nmap kind = none => waits\n",
             "site.rules");
    ck_assert_str_eq(class_of_event(0), "modules");
    ck_assert_str_eq(class_of_event(1), "app"); // no rule matches
    ck_assert_str_eq(class_of_event(2), "waits");
    ck_assert_str_eq(class_of_event(3), "app"); // dropped: the application's
    ck_assert_uint_eq(C.nclasses, 3);
    // no rules at all: everything is the application's (not the f-hat of mapping rules)
    classify("# nothing\n", "empty.rules");
    for (uint64_t i = 0; i < 4; i++) {
        ck_assert_str_eq(class_of_event(i), "app");
    }
    ck_assert_uint_eq(C.nclasses, 1);
}
END_TEST

START_TEST(bad_rules_have_positions)
{
    const char *text = "map kind = none => process\nmap path ~ ^/usr/(lib => loader\n";
    ck_assert_ptr_null(iodfg_focus_new(text, strlen(text), "my.rules", &ERR));
    ck_assert_int_eq(ERR.code, IODFG_E_REGEX);
    ck_assert_str_eq(ERR.where, "my.rules");
    ck_assert_uint_eq(ERR.line, 2);
    ck_assert_uint_eq(ERR.col, 22); // the missing ')' at the end of the pattern
    iodfg_error_clear(&ERR);
    text = "map kind = nofile => process\n";
    ck_assert_ptr_null(iodfg_focus_new(text, strlen(text), "my.rules", &ERR));
    ck_assert_uint_eq(ERR.line, 1);
    ck_assert_uint_eq(ERR.col, 12);
    char msg[600];
    iodfg_error_format(&ERR, msg, sizeof(msg));
    ck_assert_msg(strncmp(msg, "my.rules:1:12: ", 15) == 0, "%s", msg);
}
END_TEST

/* A template that gives a class per path runs out of classes: an error naming the rules. */
START_TEST(too_many_classes)
{
    struct iodfg_buf t;
    iodfg_buf_init(&t);
    for (int i = 0; i < IODFG_FOCUS_CLASSES_MAX + 2; i++) {
        iodfg_buf_addf(&t, "1 08:00:00.%06d read(3</d/f%d>, \"x\", 1) = 1 <0.000001>\n", i + 1, i);
    }
    tlog_add_case(LOG, "a_n1_1", t.data);
    iodfg_buf_fini(&t);
    const char *text = "map path ~ ^/d/(f[0-9]+) => $1\n";
    struct iodfg_focus *f = iodfg_focus_new(text, strlen(text), "many.rules", &ERR);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(iodfg_focus_classify(f, LOG, &C, &ERR), -1);
    ck_assert_int_eq(ERR.code, IODFG_E_LIMIT);
    ck_assert_str_eq(ERR.where, "many.rules");
    ck_assert_uint_eq(C.nclasses, 1); // unchanged
    ck_assert_ptr_null(C.class_of_key);
    iodfg_focus_free(f);
}
END_TEST

/* Regexes run under PCRE2's match limit: a catastrophic one does not hang, the key is counted
 * and the next rule decides. */
START_TEST(match_limit)
{
    struct iodfg_buf t;
    iodfg_buf_init(&t);
    iodfg_buf_add(&t, "1 08:00:00.000001 read(3</", 26);
    for (int i = 0; i < 4000; i++) {
        iodfg_buf_add(&t, "a", 1);
    }
    iodfg_buf_addf(&t, "!>, \"x\", 1) = 1 <0.000001>\n");
    tlog_add_case(LOG, "a_n1_1", t.data);
    iodfg_buf_fini(&t);
    classify("map path ~ ^/(a|aa)+$ => slow\nmap path ~ ^/ => fast\n", "limit.rules");
    ck_assert_uint_eq(C.limited, 1);
    ck_assert_uint_eq(C.limit_line, 1);
    ck_assert_str_eq(class_of_event(0), "fast");
}
END_TEST

/* Stack frames' objects: libraries of the system and the MPI runtime are the runtime's, the
 * program and a library of the user's own are the application's. */
START_TEST(objects)
{
    struct iodfg_focus *f = iodfg_focus_new(NULL, 0, NULL, &ERR);
    ck_assert_ptr_nonnull(f);
    char name[IODFG_FOCUS_NAME_MAX];
    ck_assert_int_eq(iodfg_focus_classify_object(f, "/usr/lib/x86_64-linux-gnu/libc.so.6", name,
                                                 sizeof(name), &ERR),
                     0);
    ck_assert_str_eq(name, "loader");
    ck_assert_int_eq(
        iodfg_focus_classify_object(f, "/usr/lib/x86_64-linux-gnu/openmpi/lib/libmpi.so.40", name,
                                    sizeof(name), &ERR),
        0);
    ck_assert_str_eq(name, "loader");
    ck_assert_int_eq(
        iodfg_focus_classify_object(f, "/home/u/ior/bin/ior", name, sizeof(name), &ERR), 1);
    ck_assert_str_eq(name, "app");
    ck_assert_int_eq(
        iodfg_focus_classify_object(f, "/home/u/lib/libsolver.so", name, sizeof(name), &ERR), 1);
    // the same path opened by the loader is the loader's I/O
    struct iodfg_focus_subject k = {.call = "openat",
                                    .path = "/home/u/lib/libsolver.so",
                                    .scope = "unknown",
                                    .layer = "POSIX",
                                    .kind = IODFG_PATH_FILE};
    ck_assert_int_eq(iodfg_focus_classify_subject(f, &k, name, sizeof(name), &ERR), 0);
    ck_assert_str_eq(name, "loader");
    k = (struct iodfg_focus_subject){.call = "futex", .kind = IODFG_PATH_NONE};
    ck_assert_int_eq(iodfg_focus_classify_subject(f, &k, name, sizeof(name), &ERR), 0);
    ck_assert_str_eq(name, "process");
    iodfg_focus_free(f);
}
END_TEST

START_TEST(user_path)
{
    char buf[256];
    setenv("XDG_CONFIG_HOME", "/x/cfg", 1);
    ck_assert_int_eq(iodfg_focus_user_path(buf, sizeof(buf)), 0);
    ck_assert_str_eq(buf, "/x/cfg/iodfg/focus.rules");
    ck_assert_int_eq(iodfg_focus_user_path(buf, 8), -1); // does not fit
    unsetenv("XDG_CONFIG_HOME");
    setenv("HOME", "/h", 1);
    ck_assert_int_eq(iodfg_focus_user_path(buf, sizeof(buf)), 0);
    ck_assert_str_eq(buf, "/h/.config/iodfg/focus.rules");
    unsetenv("HOME");
    ck_assert_int_eq(iodfg_focus_user_path(buf, sizeof(buf)), -1);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("focus");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, builtin_classes_of_an_mpi_run);
    tcase_add_test(tc, builtin_text_is_the_shipped_file);
    tcase_add_test(tc, user_override);
    tcase_add_test(tc, bad_rules_have_positions);
    tcase_add_test(tc, too_many_classes);
    tcase_add_test(tc, match_limit);
    tcase_add_test(tc, objects);
    tcase_add_test(tc, user_path);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
