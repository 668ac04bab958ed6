/* SPDX-License-Identifier: MIT */
/* Unit tests: mapping rules (f-hat default, rule language, errors, apply, incremental). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/rules.h"
#include "iodfg/strace.h"
#include "iodfg/strpool.h"

#include "testutil.h"

static struct iodfg_eventlog *LOG;
static struct iodfg_rules *RS;
static struct iodfg_mapping M;
static struct iodfg_rules_report REP;
static struct iodfg_error ERR;

/* Sankaran et al. 2024, Fig. 2a (case a9042 of `ls`), paths as the paper's activities show them */
static const char PAPER_LS[] =
    "9054 08:55:54.153994 read(3</usr/lib/x86_64-linux-gnu/libselinux.so.1>, \"\\177ELF\", 832) "
    "= 832 <0.000203>\n"
    "9054 08:55:54.156640 read(3</usr/lib/x86_64-linux-gnu/libc.so.6>, \"\\177ELF\", 832) = 832 "
    "<0.000079>\n"
    "9054 08:55:54.159294 read(3</usr/lib/x86_64-linux-gnu/libpcre2-8.so.0.10.4>, \"\\177ELF\", "
    "832) = 832 <0.000087>\n"
    "9054 08:55:54.166000 read(3</proc/filesystems>, \"nodev\", 1024) = 478 <0.000030>\n"
    "9054 08:55:54.166100 read(3</proc/filesystems>, \"\", 1024) = 0 <0.000010>\n"
    "9054 08:55:54.167000 read(3</etc/locale.alias>, \"# Locale\", 4096) = 2996 <0.000040>\n"
    "9054 08:55:54.167100 read(3</etc/locale.alias>, \"\", 4096) = 0 <0.000009>\n"
    "9054 08:55:54.176260 write(1</dev/pts/7>, \"a\\n\", 50) = 50 <0.000111>\n";

static const char KINDS[] =
    "100 08:00:00.000001 write(4<pipe:[5018]>, \"x\", 1) = 1 <0.000001>\n"
    "100 08:00:00.000002 read(5<socket:[123]>, \"x\", 1) = 1 <0.000001>\n"
    "100 08:00:00.000003 read(6<TCP:[1.2.3.4:5->6.7.8.9:10]>, \"x\", 1) = 1 <0.000001>\n"
    "100 08:00:00.000004 read(7<anon_inode:[eventfd]>, \"x\", 8) = 8 <0.000001>\n"
    "100 08:00:00.000005 getpid() = 100 <0.000001>\n"
    "100 08:00:00.000006 read(3</etc/passwd>, \"r\", 4096) = 1 <0.000001>\n"
    "100 08:00:00.000007 write(8<pipe:[777]>, \"x\", 1) = 1 <0.000001>\n";

static void add_case(struct iodfg_eventlog *log, const char *text)
{
    struct iodfg_case_info info;
    memset(&info, 0, sizeof(info));
    ck_assert_int_eq(iodfg_eventlog_begin_case(log, &info, NULL), 0);
    struct iodfg_strace_result res;
    ck_assert_int_eq(
        iodfg_strace_parse(text, strlen(text), iodfg_strace_sink_eventlog, log, &res, NULL), 0);
    ck_assert_int_eq(iodfg_eventlog_end_case(log, NULL), 0);
}

static void load(const char *text)
{
    iodfg_eventlog_free(LOG);
    LOG = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(LOG);
    add_case(LOG, text);
}

static void setup(void)
{
    LOG = NULL;
    RS = iodfg_rules_new();
    ck_assert_ptr_nonnull(RS);
    ck_assert_int_eq(iodfg_mapping_init(&M, NULL), 0);
    iodfg_rules_report_init(&REP);
    iodfg_error_clear(&ERR);
}

static void teardown(void)
{
    iodfg_rules_report_fini(&REP);
    iodfg_mapping_fini(&M);
    iodfg_rules_free(RS);
    iodfg_eventlog_free(LOG);
    LOG = NULL;
}

static int compile(const char *text)
{
    iodfg_error_clear(&ERR);
    return iodfg_rules_compile(RS, text, strlen(text), "test.rules", &ERR);
}

static void apply(void)
{
    ck_assert_int_eq(iodfg_rules_apply(RS, LOG, NULL, &M, &REP, NULL), 0);
}

/* Activity name of event i ("-" when unmapped). */
static const char *ev(uint64_t i)
{
    uint32_t k = iodfg_eventlog_columns(LOG)->key[i];
    ck_assert_uint_lt(k, M.nkeys);
    uint32_t a = M.activity_of_key[k];
    return a == IODFG_NO_ACTIVITY ? "-" : iodfg_mapping_name(&M, a);
}

/* Activity of the key (call, path) ("-" unmapped, "?" no such key). */
static const char *of(const char *call, const char *path)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(LOG);
    const struct iodfg_key *keys = iodfg_eventlog_keys(LOG);
    for (uint32_t k = 0; k < iodfg_eventlog_key_count(LOG); k++) {
        if (!strcmp(iodfg_strpool_get(pool, keys[k].call), call) &&
            !strcmp(iodfg_strpool_get(pool, keys[k].path), path)) {
            uint32_t a = M.activity_of_key[k];
            return a == IODFG_NO_ACTIVITY ? "-" : iodfg_mapping_name(&M, a);
        }
    }
    return "?";
}

START_TEST(fhat_paper_trace)
{
    load(PAPER_LS);
    apply();
    static const char *const want[] = {"read:/usr/lib",          "read:/usr/lib",
                                       "read:/usr/lib",          "read:/proc/filesystems",
                                       "read:/proc/filesystems", "read:/etc/locale.alias",
                                       "read:/etc/locale.alias", "write:/dev/pts"};
    ck_assert_uint_eq(iodfg_eventlog_event_count(LOG), 8);
    for (unsigned i = 0; i < 8; i++) {
        ck_assert_str_eq(ev(i), want[i]);
    }
    ck_assert_uint_eq(M.nactivities, 4);
    ck_assert_uint_eq(REP.mapped, iodfg_eventlog_key_count(LOG));
    ck_assert_uint_eq(REP.regex_evals, 0); // f-hat needs no regex
    ck_assert_uint_eq(REP.nrule_keys, 0);  // no user rules to count
    ck_assert_uint_eq(iodfg_mapping_unmapped_events(&M, LOG), 0);
}
END_TEST

START_TEST(fhat_kinds_and_no_path)
{
    load(KINDS);
    apply();
    ck_assert_str_eq(ev(0), "write:pipe");
    ck_assert_str_eq(ev(1), "read:socket");
    ck_assert_str_eq(ev(2), "read:socket");
    ck_assert_str_eq(ev(3), "read:anon");
    ck_assert_str_eq(ev(4), "getpid");
    ck_assert_str_eq(ev(5), "read:/etc/passwd");
    ck_assert_str_eq(ev(6), "write:pipe"); // another pipe inode, same activity
    ck_assert_uint_eq(M.nactivities, 5);
}
END_TEST

START_TEST(default_text_equals_default)
{
    load(PAPER_LS);
    add_case(LOG, KINDS);
    apply();
    uint32_t n = M.nkeys;
    char **names = calloc(n, sizeof(*names));
    for (uint32_t k = 0; k < n; k++) {
        names[k] = strdup(iodfg_mapping_name(&M, M.activity_of_key[k]));
    }
    ck_assert_int_eq(compile(iodfg_rules_default_text()), 0);
    ck_assert_uint_eq(iodfg_rules_count(RS), 3);
    apply();
    ck_assert_uint_eq(REP.nchanged, 0);
    for (uint32_t k = 0; k < n; k++) {
        ck_assert_str_eq(iodfg_mapping_name(&M, M.activity_of_key[k]), names[k]);
        free(names[k]);
    }
    free(names);
}
END_TEST

START_TEST(path_prefix)
{
    const char *p = "/usr/lib/x86_64-linux-gnu/libc.so.6";
    ck_assert_uint_eq(iodfg_rules_path_prefix(p, strlen(p), 2), 8);
    ck_assert_uint_eq(iodfg_rules_path_prefix(p, strlen(p), 3), 25);
    ck_assert_uint_eq(iodfg_rules_path_prefix(p, strlen(p), 9), strlen(p));
    ck_assert_uint_eq(iodfg_rules_path_prefix("/etc/passwd", 11, 2), 11);
    ck_assert_uint_eq(iodfg_rules_path_prefix("/etc", 4, 2), 4);
    ck_assert_uint_eq(iodfg_rules_path_prefix("/", 1, 2), 1);
    ck_assert_uint_eq(iodfg_rules_path_prefix("//usr//lib/x", 12, 2), 10);
    ck_assert_uint_eq(iodfg_rules_path_prefix("foo/bar/baz", 11, 2), 7);
    ck_assert_uint_eq(iodfg_rules_path_prefix("/usr/lib", 8, 0), 0);
    ck_assert_uint_eq(iodfg_rules_path_levels(p, strlen(p)), 4);
    ck_assert_uint_eq(iodfg_rules_path_levels("/", 1), 0);
    ck_assert_uint_eq(iodfg_rules_path_levels("//a//b/", 7), 2);
}
END_TEST

START_TEST(first_match_drop_partial)
{
    load(PAPER_LS);
    ck_assert_int_eq(compile("# first match wins\n"
                             "drop path ~ ^/proc/\n"
                             "map path ~ libc => libc\n"
                             "map path ~ ^/usr/lib/ => lib\n"
                             "map path ~ ^/usr/ => never\n"
                             "\n"
                             "map call = write kind = file => {call}:{path:1}\n"),
                     0);
    ck_assert_uint_eq(iodfg_rules_count(RS), 5);
    apply();
    ck_assert_str_eq(ev(0), "lib");
    ck_assert_str_eq(ev(1), "libc");
    ck_assert_str_eq(ev(2), "lib");
    ck_assert_str_eq(ev(3), "-"); // dropped
    ck_assert_str_eq(ev(5), "-"); // matched by no rule: left out
    ck_assert_str_eq(ev(7), "write:/dev");
    ck_assert_uint_eq(REP.dropped, 1);
    ck_assert_uint_eq(REP.unmatched, 1);
    ck_assert_uint_eq(REP.mapped, 4);
    ck_assert_uint_eq(REP.nrule_keys, 5);
    ck_assert_uint_eq(REP.rule_keys[0], 1);
    ck_assert_uint_eq(REP.rule_keys[1], 1);
    ck_assert_uint_eq(REP.rule_keys[2], 2);
    ck_assert_uint_eq(REP.rule_keys[3], 0);
    ck_assert_uint_eq(REP.rule_keys[4], 1);
    ck_assert_uint_eq(iodfg_mapping_unmapped_events(&M, LOG), 4);
}
END_TEST

/* Events of key k in the whole log (the callback of iodfg_rules_report_events). */
static uint64_t key_events(const void *ctx, uint32_t k)
{
    const struct iodfg_eventlog *log = ctx;
    uint64_t n = 0;
    for (uint64_t i = 0; i < iodfg_eventlog_event_count(log); i++) {
        n += iodfg_eventlog_columns(log)->key[i] == k;
    }
    return n;
}

/* A rule that decides nothing because earlier rules take every key it matches names the one
 * that takes most of them; a rule that matches nothing at all is not shadowed; each rule's
 * keys and events add up to what it decided. */
START_TEST(shadowed_rules_and_events)
{
    load(PAPER_LS);
    ck_assert_int_eq(compile("map path ~ libc => libc\n"         // 1 key (1 event)
                             "map path ~ ^/usr/lib/ => lib\n"    // 2 keys (2 events)
                             "map path ~ ^/usr/ => never\n"      // shadowed by rule 1 (index 1)
                             "map => {call}\n"                   // catch-all: the rest
                             "map path ~ ^/etc/ => late\n"       // shadowed by the catch-all
                             "map path ~ ^/nowhere/ => none\n"), // matches no key: not shadowed
                     0);
    apply();
    ck_assert_uint_eq(REP.nrule_keys, 6);
    ck_assert_uint_eq(REP.nkey_rule, iodfg_eventlog_key_count(LOG));
    ck_assert_uint_eq(REP.rule_keys[0], 1);
    ck_assert_uint_eq(REP.rule_keys[1], 2);
    ck_assert_uint_eq(REP.rule_keys[2], 0);
    ck_assert_uint_eq(REP.rule_keys[3], 3);
    ck_assert_uint_eq(REP.rule_shadow[0], IODFG_RULE_NONE);
    ck_assert_uint_eq(REP.rule_shadow[1], IODFG_RULE_NONE);
    ck_assert_uint_eq(REP.rule_shadow[2], 1);
    ck_assert_uint_eq(REP.rule_shadow[3], IODFG_RULE_NONE);
    ck_assert_uint_eq(REP.rule_shadow[4], 3);
    ck_assert_uint_eq(REP.rule_shadow[5], IODFG_RULE_NONE);
    uint64_t ev6[6];
    iodfg_rules_report_events(&REP, key_events, LOG, ev6);
    ck_assert_uint_eq(ev6[0], 1);
    ck_assert_uint_eq(ev6[1], 2);
    ck_assert_uint_eq(ev6[2], 0);
    ck_assert_uint_eq(ev6[3], 5); // /proc 2, /etc 2, /dev/pts 1
    ck_assert_uint_eq(ev6[4] + ev6[5], 0);
}
END_TEST

/* Search patterns: smart case, PCRE2 syntax, match-limited, errors with their column. */
START_TEST(search_patterns)
{
    struct iodfg_rules_pattern *p = iodfg_rules_pattern_new("^write:.*test\\.0+3$", 19, 1, &ERR);
    ck_assert_ptr_nonnull(p);
    const char *a = "WRITE:/tmp/scratch/fpp/test.00000003", *b = "write:/tmp/test.00000004";
    ck_assert_int_eq(iodfg_rules_pattern_match(p, a, strlen(a)), 1); // caseless
    ck_assert_int_eq(iodfg_rules_pattern_match(p, b, strlen(b)), 0);
    iodfg_rules_pattern_free(p);
    p = iodfg_rules_pattern_new("WRITE\\S", 7, 0, &ERR); // as written
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(iodfg_rules_pattern_match(p, a, strlen(a)), 1);
    ck_assert_int_eq(iodfg_rules_pattern_match(p, b, strlen(b)), 0);
    iodfg_rules_pattern_free(p);
    p = iodfg_rules_pattern_new("(a+)+$", 6, 1, &ERR);
    ck_assert_ptr_nonnull(p);
    char evil[64];
    memset(evil, 'a', 40);
    evil[40] = 'b';
    ck_assert_int_eq(iodfg_rules_pattern_match(p, evil, 41), -1); // the limit, not a hang
    iodfg_rules_pattern_free(p);
    iodfg_error_clear(&ERR);
    ck_assert_ptr_null(iodfg_rules_pattern_new("ab(c", 4, 1, &ERR));
    ck_assert_int_eq(ERR.code, IODFG_E_REGEX);
    ck_assert_uint_eq(ERR.col, 5);
}
END_TEST

START_TEST(captures_numbered_and_named)
{
    load("1 08:00:00.000001 write(3</p/scratch/proj1/ssf/test>, \"x\", 1) = 1 <0.000001>\n"
         "1 08:00:00.000002 read(3</p/scratch/proj1/fpp/test.00000001>, \"x\", 1) = 1 <0.1>\n"
         "1 08:00:00.000003 openat(AT_FDCWD, \"/p/scratch/proj1/x\", O_RDONLY) = 3</p/scratch/"
         "proj1/x> <0.000001>\n");
    ck_assert_int_eq(compile("map call ~ ^(read|write)$ path ~ ^/p/scratch/[^/]+/(?<mode>ssf|fpp)/ "
                             "=> $1:\\$SCRATCH/${mode}/${2}/$0\n"
                             "map path ~ \"^/p/(scratch)/\" => {call}:{path:3}:$1:{kind}\n"),
                     0);
    apply();
    ck_assert_str_eq(ev(0), "write:$SCRATCH/ssf/ssf/write");
    ck_assert_str_eq(ev(1), "read:$SCRATCH/fpp/fpp/read");
    ck_assert_str_eq(ev(2), "openat:/p/scratch/proj1:scratch:file");
    const struct iodfg_rule_info *r = iodfg_rules_get(RS, 0);
    ck_assert_int_eq(r->action, IODFG_RULE_MAP);
    ck_assert_uint_eq(r->ncond, 2);
    ck_assert_int_eq(r->conds[0].field, IODFG_FIELD_CALL);
    ck_assert_int_eq(r->conds[0].op, IODFG_OP_MATCH);
    ck_assert_str_eq(r->conds[0].value, "^(read|write)$");
    ck_assert_uint_eq(r->conds[0].vcol, 12);
    ck_assert_str_eq(r->tmpl, "$1:\\$SCRATCH/${mode}/${2}/$0");
    ck_assert_str_eq(iodfg_rules_get(RS, 1)->conds[0].value, "^/p/(scratch)/");
    ck_assert_uint_eq(iodfg_rules_get(RS, 1)->line, 2);
    ck_assert_ptr_null(iodfg_rules_get(RS, 2));
}
END_TEST

START_TEST(negations_and_lists)
{
    load(PAPER_LS);
    add_case(LOG, KINDS);
    ck_assert_int_eq(compile("map kind != file,none => k:{kind}\n"
                             "map call != read path !~ ^/dev => w\n"
                             "map call = read,write path = /etc/passwd => pw\n"
                             "map path !~ ^/(usr|proc) => other\n"),
                     0);
    apply();
    ck_assert_str_eq(of("write", "pipe:[5018]"), "k:pipe");
    ck_assert_str_eq(of("getpid", ""), "w");
    ck_assert_str_eq(of("read", "/etc/passwd"), "pw");
    ck_assert_str_eq(of("write", "/dev/pts/7"), "other");
    ck_assert_str_eq(of("read", "/proc/filesystems"), "-");
}
END_TEST

/* A key (layer, call, path) with file-system attributes, set as mounts and OTF2 input do. */
static void fs_key(const char *layer, const char *call, const char *path, const char *fs,
                   const char *fstype, enum iodfg_scope scope)
{
    struct iodfg_strpool *pool = iodfg_eventlog_pool(LOG);
    uint32_t l, c, p, f, t, k;
    ck_assert_int_eq(iodfg_strpool_intern(pool, layer, strlen(layer), &l), 0);
    ck_assert_int_eq(iodfg_strpool_intern(pool, call, strlen(call), &c), 0);
    ck_assert_int_eq(iodfg_strpool_intern(pool, path, strlen(path), &p), 0);
    ck_assert_int_eq(iodfg_strpool_intern(pool, fs, strlen(fs), &f), 0);
    ck_assert_int_eq(iodfg_strpool_intern(pool, fstype, strlen(fstype), &t), 0);
    ck_assert_int_eq(iodfg_eventlog_key_layer(LOG, c, p, l, &k), 0);
    if (scope != IODFG_SCOPE_NONE) {
        iodfg_eventlog_key_set_fs(LOG, k, f, t, scope);
    }
}

/* Activity of the key (layer, call, path); layer "" is POSIX. */
static const char *of_layer(const char *layer, const char *call, const char *path)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(LOG);
    const struct iodfg_key *keys = iodfg_eventlog_keys(LOG);
    for (uint32_t k = 0; k < iodfg_eventlog_key_count(LOG); k++) {
        if (!strcmp(iodfg_strpool_get(pool, keys[k].layer), layer) &&
            !strcmp(iodfg_strpool_get(pool, keys[k].call), call) &&
            !strcmp(iodfg_strpool_get(pool, keys[k].path), path)) {
            uint32_t a = M.activity_of_key[k];
            return a == IODFG_NO_ACTIVITY ? "-" : iodfg_mapping_name(&M, a);
        }
    }
    return "?";
}

START_TEST(fs_scope_and_layer_fields)
{
    iodfg_eventlog_free(LOG);
    LOG = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(LOG);
    fs_key("", "read", "/proc/x", "/proc", "proc", IODFG_SCOPE_VIRTUAL);
    fs_key("MPI-IO", "MPI_File_write", "/p/scratch/a", "/p/scratch", "lustre", IODFG_SCOPE_GLOBAL);
    fs_key("", "write", "/p/scratch/a", "/p/scratch", "lustre", IODFG_SCOPE_GLOBAL);
    fs_key("", "read", "/home/u/x", "", "", IODFG_SCOPE_UNKNOWN);
    fs_key("HDF5", "H5Dwrite", "/home/u/x.h5", "", "", IODFG_SCOPE_UNKNOWN);
    fs_key("NetCDF", "nc_put_var", "/home/u/x.nc", "", "", IODFG_SCOPE_UNKNOWN);
    fs_key("", "write", "pipe:[1]", "", "", IODFG_SCOPE_NONE);
    fs_key("MPI-IO", "MPI_File_read", "/gpfs/in", "/gpfs", "gpfs", IODFG_SCOPE_GLOBAL);
    ck_assert_int_eq(compile("map scope = virtual => virt\n"
                             "map fstype = lustre,gpfs layer = MPI-IO fs !~ gpfs => "
                             "par:{layer}:{fs}\n"
                             "map fs ~ ^/p/(\\w+) => fs:$1:{fstype}:{scope}\n"
                             "map layer = POSIX scope != global => {layer}:{call}:{scope}\n"
                             "map layer ~ ^(H|M) => h:{layer}:${1}:{fstype}\n"),
                     0);
    apply();
    ck_assert_str_eq(of_layer("", "read", "/proc/x"), "virt");
    ck_assert_str_eq(of_layer("MPI-IO", "MPI_File_write", "/p/scratch/a"), "par:MPI-IO:/p/scratch");
    ck_assert_str_eq(of_layer("", "write", "/p/scratch/a"), "fs:scratch:lustre:global");
    ck_assert_str_eq(of_layer("", "read", "/home/u/x"), "POSIX:read:unknown");
    ck_assert_str_eq(of_layer("HDF5", "H5Dwrite", "/home/u/x.h5"), "h:HDF5:H:");
    ck_assert_str_eq(of_layer("NetCDF", "nc_put_var", "/home/u/x.nc"), "-");
    ck_assert_str_eq(of_layer("", "write", "pipe:[1]"), "POSIX:write:none");
    ck_assert_str_eq(of_layer("MPI-IO", "MPI_File_read", "/gpfs/in"), "h:MPI-IO:M:gpfs");
    // scope values are checked, the new fields are named in errors
    ck_assert_int_eq(compile("map scope = local,nowhere => y\n"), -1);
    ck_assert_uint_eq(ERR.col, 19);
    ck_assert_ptr_nonnull(strstr(ERR.msg, "unknown scope"));
    ck_assert_int_eq(compile("map path ~ x => {fsx}\n"), -1);
    ck_assert_ptr_nonnull(strstr(ERR.msg, "{fstype}"));
    ck_assert_int_eq(compile("map layers = POSIX => y\n"), -1);
    ck_assert_ptr_nonnull(strstr(ERR.msg, "layer"));
}
END_TEST

START_TEST(invalid_regex_position)
{
    ck_assert_int_eq(compile("# c\nmap path ~ ^/usr/(lib => x\n"), -1);
    ck_assert_int_eq(ERR.code, IODFG_E_REGEX);
    ck_assert_str_eq(ERR.where, "test.rules");
    ck_assert_uint_eq(ERR.line, 2);
    ck_assert_uint_eq(ERR.col, 22); // end of the pattern: the missing ')'
    ck_assert_ptr_nonnull(strstr(ERR.msg, "parenthesis"));
    ck_assert_int_eq(compile("map path ~ a[b => x\n"), -1);
    ck_assert_uint_eq(ERR.col, 15); // end of the pattern: the unclosed class
    ck_assert_int_eq(compile("map path ~ \"a \\\"b(\" => x\n"), -1);
    ck_assert_uint_eq(ERR.col, 19); // quoted value: col counts the written \" escape
}
END_TEST

START_TEST(syntax_errors_have_columns)
{
    static const struct {
        const char *text;
        unsigned long col;
        const char *msg;
    } cases[] = {
        {"mop path ~ x => y", 1, "expected `map` or `drop`"},
        {"map colour ~ x => y", 5, "unknown field"},
        {"map kind = file,blob => y", 17, "unknown kind"},
        {"map kind ~ file => y", 10, "kind takes"},
        {"map path x => y", 10, "expected `~`"},
        {"map path ~", 11, "expected a value"},
        {"map path ~ x", 13, "expected `=> TEMPLATE`"},
        {"map path ~ x =>   ", 16, "expected a template"},
        {"drop path ~ x => y", 15, "drop takes no"},
        {"map path ~ x => $2", 17, "no group 2"},
        {"map path ~ (x) => a${nope}", 20, "no group named 'nope'"},
        {"map call = read => $1", 20, "no `~`"},
        {"map path ~ x => a$b", 18, "`$` must be followed"},
        {"map path ~ x => {paht}", 17, "unknown template field"},
        {"map path ~ x => {path:0}", 17, "1 <= N"},
        {"map path ~ x => {call", 17, "unclosed `{`"},
        {"map path ~ \"x => y", 12, "unterminated"},
        {"map call = read,,write => y", 17, "empty item"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        ck_assert_msg(compile(cases[i].text) == -1, "accepted: %s", cases[i].text);
        ck_assert_msg(ERR.line == 1 && ERR.col == cases[i].col, "%s: col %lu, want %lu (%s)",
                      cases[i].text, ERR.col, cases[i].col, ERR.msg);
        ck_assert_msg(strstr(ERR.msg, cases[i].msg) != NULL, "%s: message '%s'", cases[i].text,
                      ERR.msg);
    }
}
END_TEST

START_TEST(previous_rules_stay_in_force)
{
    load(PAPER_LS);
    ck_assert_int_eq(compile("map path ~ ^/usr => usr\n"), 0);
    uint64_t gen = iodfg_rules_generation(RS);
    ck_assert_int_eq(compile("map path ~ ^/usr => usr\nmap path ~ ( => broken\n"), -1);
    ck_assert_uint_eq(ERR.line, 2);
    ck_assert_uint_eq(iodfg_rules_generation(RS), gen);
    ck_assert_uint_eq(iodfg_rules_count(RS), 1);
    ck_assert_uint_eq(iodfg_rules_line_count(RS), 1);
    ck_assert_int_eq(iodfg_rules_set_line(RS, 1, "map path ~ [ => x", &ERR), -1);
    ck_assert_str_eq(iodfg_rules_line(RS, 1), "map path ~ ^/usr => usr");
    apply();
    ck_assert_str_eq(ev(0), "usr");
    ck_assert_str_eq(ev(7), "-");
}
END_TEST

START_TEST(line_editing)
{
    ck_assert_int_eq(compile("map path ~ a => A\n# note\nmap path ~ b => B\n"), 0);
    ck_assert_uint_eq(iodfg_rules_line_count(RS), 3);
    ck_assert_int_eq(iodfg_rules_insert_line(RS, 1, "drop call = close", &ERR), 0);
    ck_assert_int_eq(iodfg_rules_insert_line(RS, 5, "map => rest", &ERR), 0);
    ck_assert_int_eq(iodfg_rules_move_line(RS, 4, 2, &ERR), 0); // b up to line 2
    ck_assert_int_eq(iodfg_rules_delete_line(RS, 4, &ERR), 0);  // the comment
    ck_assert_int_eq(iodfg_rules_set_line(RS, 3, "map path ~ aa => AA", &ERR), 0);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    ck_assert_int_eq(iodfg_rules_format(RS, &b), 0);
    ck_assert_str_eq(b.data, "drop call = close\nmap path ~ b => B\nmap path ~ aa => AA\n"
                             "map => rest\n");
    iodfg_buf_fini(&b);
    ck_assert_uint_eq(iodfg_rules_count(RS), 4);
    ck_assert_uint_eq(iodfg_rules_get(RS, 3)->line, 4);
    ck_assert_int_eq(iodfg_rules_move_line(RS, 1, 4, &ERR), 0);
    ck_assert_str_eq(iodfg_rules_line(RS, 4), "drop call = close");
    ck_assert_str_eq(iodfg_rules_line(RS, 1), "map path ~ b => B");
    iodfg_error_clear(&ERR);
    ck_assert_int_eq(iodfg_rules_insert_line(RS, 2, "map path ~ ) => x", &ERR), -1);
    ck_assert_uint_eq(ERR.line, 2);
    ck_assert_uint_eq(ERR.col, 12);
    ck_assert_int_eq(iodfg_rules_delete_line(RS, 9, NULL), -1);
    ck_assert_int_eq(iodfg_rules_set_line(RS, 1, "map => a\nmap => b", NULL), -1);
    ck_assert_uint_eq(iodfg_rules_line_count(RS), 4);
}
END_TEST

START_TEST(stable_ids_and_changes)
{
    load(PAPER_LS);
    ck_assert_int_eq(compile("map path ~ ^/usr => usr\nmap path ~ ^/etc => etc\n"), 0);
    apply();
    ck_assert_uint_eq(REP.nchanged, 4); // 3 lib keys + locale.alias: unmapped -> mapped
    uint32_t usr, etc;
    ck_assert_int_eq(iodfg_mapping_find(&M, "usr", &usr), 0);
    ck_assert_int_eq(iodfg_mapping_find(&M, "etc", &etc), 0);
    ck_assert_int_eq(iodfg_rules_set_line(RS, 1, "map path ~ ^/proc => proc", &ERR), 0);
    apply();
    // the 3 /usr/lib keys lost their activity, /proc/filesystems gained one
    ck_assert_uint_eq(REP.nchanged, 4);
    const struct iodfg_key *keys = iodfg_eventlog_keys(LOG);
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(LOG);
    for (uint32_t i = 0; i < REP.nchanged; i++) {
        const char *p = iodfg_strpool_get(pool, keys[REP.changed[i]].path);
        ck_assert(!strncmp(p, "/usr/", 5) || !strcmp(p, "/proc/filesystems"));
        ck_assert(i == 0 || REP.changed[i] > REP.changed[i - 1]);
    }
    uint32_t again;
    ck_assert_int_eq(iodfg_mapping_find(&M, "etc", &again), 0);
    ck_assert_uint_eq(again, etc);
    ck_assert_str_eq(ev(5), "etc");
    ck_assert_uint_eq(M.activity_of_key[iodfg_eventlog_columns(LOG)->key[5]], etc);
    ck_assert_int_eq(iodfg_rules_set_line(RS, 1, "map path ~ ^/usr => usr", &ERR), 0);
    apply();
    ck_assert_uint_eq(M.activity_of_key[iodfg_eventlog_columns(LOG)->key[0]], usr);
    ck_assert_uint_eq(M.nactivities, 3); // usr, etc, proc: names are never re-numbered
    apply();
    ck_assert_uint_eq(REP.nchanged, 0);
}
END_TEST

START_TEST(regex_runs_once_per_key)
{
    struct iodfg_buf t;
    iodfg_buf_init(&t);
    for (int i = 0; i < 1000; i++) {
        iodfg_buf_addf(&t, "1 08:00:%02d.%06d read(3</data/f%d>, \"x\", 1) = 1 <0.000001>\n",
                       i / 100, i, i % 5);
    }
    load(t.data);
    iodfg_buf_fini(&t);
    ck_assert_uint_eq(iodfg_eventlog_event_count(LOG), 1000);
    ck_assert_uint_eq(iodfg_eventlog_key_count(LOG), 5);
    ck_assert_int_eq(compile("map path ~ ^/data/f[0-3]$ => {path}\n"), 0);
    apply();
    ck_assert_uint_eq(REP.regex_evals, 5);
    ck_assert_uint_eq(REP.mapped, 4);
    ck_assert_uint_eq(REP.unmatched, 1);
    ck_assert_uint_eq(iodfg_mapping_unmapped_events(&M, LOG), 200);
}
END_TEST

/* A limit hit means "this rule does not match": the next rule decides, and the hit is
 * counted with the rule's line. */
START_TEST(match_limit_is_counted)
{
    struct iodfg_buf t;
    iodfg_buf_init(&t);
    iodfg_buf_add(&t, "1 08:00:00.000001 read(3</", 26);
    for (int i = 0; i < 4000; i++) {
        iodfg_buf_add(&t, "a", 1);
    }
    iodfg_buf_addf(&t, "!>, \"x\", 1) = 1 <0.000001>\n"
                       "1 08:00:00.000002 read(3</short>, \"x\", 1) = 1 <0.000001>\n");
    load(t.data);
    iodfg_buf_fini(&t);
    ck_assert_int_eq(compile("map path ~ ^/(a|aa)+$ => catastrophic\nmap path ~ ^/ => ok\n"), 0);
    iodfg_rules_set_limits(RS, 10000, 0);
    apply();
    ck_assert_uint_eq(REP.limited, 1);
    ck_assert_uint_eq(REP.limit_key, iodfg_eventlog_columns(LOG)->key[0]);
    ck_assert_uint_eq(REP.limit_line, 1);
    ck_assert_str_eq(ev(0), "ok"); // the key did not vanish
    ck_assert_str_eq(ev(1), "ok");
    ck_assert_uint_eq(REP.mapped, 2);
}
END_TEST

START_TEST(key_mask_filters)
{
    load(PAPER_LS);
    uint32_t nk = iodfg_eventlog_key_count(LOG);
    uint8_t *on = calloc(nk, 1);
    on[iodfg_eventlog_columns(LOG)->key[7]] = 1;
    ck_assert_int_eq(compile("map path ~ . => {call}\n"), 0);
    ck_assert_int_eq(iodfg_rules_apply(RS, LOG, on, &M, &REP, NULL), 0);
    ck_assert_uint_eq(REP.filtered, nk - 1);
    ck_assert_uint_eq(REP.regex_evals, 1);
    ck_assert_str_eq(ev(7), "write");
    ck_assert_str_eq(ev(0), "-");
    free(on);
}
END_TEST

START_TEST(drilldown_one_level_deeper)
{
    load(PAPER_LS);
    struct iodfg_buf rule, filter;
    iodfg_buf_init(&rule);
    iodfg_buf_init(&filter);
    ck_assert_int_eq(iodfg_rules_drilldown("read", "/usr/lib", 3, &rule, &filter), 0);
    ck_assert_str_eq(rule.data, "map call = read path ~ ^/usr/lib(/|$) => {call}:{path:3}");
    ck_assert_str_eq(filter.data, "path~^/usr/lib(/|$)");
    ck_assert_int_eq(compile(rule.data), 0);
    apply();
    ck_assert_str_eq(ev(1), "read:/usr/lib/x86_64-linux-gnu");
    ck_assert_str_eq(ev(3), "-");
    iodfg_buf_clear(&rule);
    ck_assert_int_eq(iodfg_rules_drilldown(NULL, "/a b/c+d", 3, &rule, NULL), 0);
    ck_assert_str_eq(rule.data, "map path ~ ^/a\\x20b/c\\+d(/|$) => {call}:{path:3}");
    ck_assert_int_eq(compile(rule.data), 0);
    iodfg_buf_clear(&rule);
    ck_assert_int_eq(iodfg_rules_drilldown("x-y", "/", 1, &rule, NULL), 0);
    ck_assert_str_eq(rule.data, "map call ~ ^x-y$ path ~ ^/ => {call}:{path:1}");
    iodfg_buf_fini(&rule);
    iodfg_buf_fini(&filter);
}
END_TEST

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    char *buf = malloc(1 << 16);
    *n = fread(buf, 1, (1 << 16) - 1, f);
    buf[*n] = '\0';
    fclose(f);
    return buf;
}

START_TEST(example_rule_files)
{
    load(PAPER_LS);
    add_case(LOG, "1 08:00:00.000001 write(3</p/scratch/proj1/ssf/test>, \"x\", 1) = 1 <0.1>\n"
                  "1 08:00:00.000002 close(3</p/scratch/proj1/ssf/test>) = 0 <0.000001>\n"
                  "1 08:00:00.000003 write(3</p/scratch/proj1/other>, \"x\", 1) = 1 <0.1>\n");
    size_t n;
    char *t = slurp(testutil_data("rules/ior.rules"), &n);
    ck_assert_int_eq(iodfg_rules_compile(RS, t, n, "ior.rules", &ERR), 0);
    free(t);
    apply();
    ck_assert_str_eq(of("write", "/p/scratch/proj1/ssf/test"), "write:$SCRATCH/ssf");
    ck_assert_str_eq(of("write", "/p/scratch/proj1/other"), "write:$SCRATCH");
    ck_assert_str_eq(of("close", "/p/scratch/proj1/ssf/test"), "-");
    ck_assert_str_eq(of("read", "/proc/filesystems"), "-");
    ck_assert_str_eq(of("read", "/usr/lib/x86_64-linux-gnu/libc.so.6"), "read:/usr/lib");
    t = slurp(testutil_data("rules/usrlib.rules"), &n);
    ck_assert_int_eq(iodfg_rules_compile(RS, t, n, "usrlib.rules", &ERR), 0);
    free(t);
    apply();
    ck_assert_str_eq(ev(1), "read:/usr/lib/x86_64-linux-gnu/libc.so.6");
    ck_assert_str_eq(ev(7), "-");
    t = slurp(testutil_data("rules/default.rules"), &n);
    ck_assert_int_eq(iodfg_rules_compile(RS, t, n, "default.rules", &ERR), 0);
    free(t);
    apply();
    ck_assert_str_eq(ev(1), "read:/usr/lib");
    t = slurp(testutil_data("rules/bad-regex.rules"), &n);
    ck_assert_int_eq(iodfg_rules_compile(RS, t, n, "bad-regex.rules", &ERR), -1);
    free(t);
    char msg[600];
    iodfg_error_format(&ERR, msg, sizeof(msg));
    ck_assert_msg(!strncmp(msg, "bad-regex.rules:3:22: invalid regex: ", 37), "%s", msg);
}
END_TEST

/* Random rule edits applied to one mapping must give what a fresh mapping gives, and the
 * changed-keys report must list exactly the keys whose activity name changed. */
START_TEST(random_edits_match_fresh)
{
    static const char *const pool_lines[] = {
        "map path ~ ^/usr/lib/ => {call}:lib",
        "map path ~ ^/(proc|etc)/(?<f>[^/]+) => {call}:${f}",
        "drop call = write",
        "drop path ~ pts",
        "map kind = file => {call}:{path:1}",
        "map kind != file => {call}:{kind}",
        "map call ~ ^re(a)d$ => $1",
        "map path ~ \\.so => so:{path:3}",
        "# a comment",
        "map => any",
        "drop kind = pipe",
    };
    const size_t npool = sizeof(pool_lines) / sizeof(pool_lines[0]);
    load(PAPER_LS);
    add_case(LOG, KINDS);
    uint32_t nk = iodfg_eventlog_key_count(LOG);
    char **before = calloc(nk, sizeof(*before));
    unsigned seed = 12345;
    apply();
    for (int step = 0; step < 300; step++) {
        for (uint32_t k = 0; k < nk; k++) {
            uint32_t a = M.activity_of_key[k];
            before[k] = strdup(a == IODFG_NO_ACTIVITY ? "-" : iodfg_mapping_name(&M, a));
        }
        seed = seed * 1103515245u + 12345u;
        unsigned r = (seed >> 8) % 100, nl = (unsigned)iodfg_rules_line_count(RS);
        const char *line = pool_lines[(seed >> 4) % npool];
        unsigned at = nl ? 1 + (seed >> 12) % nl : 1;
        if (r < 40 || nl == 0) {
            ck_assert_int_eq(iodfg_rules_insert_line(RS, at, line, NULL), 0);
        } else if (r < 60) {
            ck_assert_int_eq(iodfg_rules_delete_line(RS, at, NULL), 0);
        } else if (r < 80) {
            ck_assert_int_eq(iodfg_rules_set_line(RS, at, line, NULL), 0);
        } else {
            ck_assert_int_eq(iodfg_rules_move_line(RS, at, 1 + (seed >> 16) % nl, NULL), 0);
        }
        apply();
        struct iodfg_mapping fresh;
        ck_assert_int_eq(iodfg_mapping_init(&fresh, NULL), 0);
        ck_assert_int_eq(iodfg_rules_apply(RS, LOG, NULL, &fresh, NULL, NULL), 0);
        uint32_t ci = 0;
        for (uint32_t k = 0; k < nk; k++) {
            uint32_t a = M.activity_of_key[k], b = fresh.activity_of_key[k];
            const char *na = a == IODFG_NO_ACTIVITY ? "-" : iodfg_mapping_name(&M, a);
            const char *nb = b == IODFG_NO_ACTIVITY ? "-" : iodfg_mapping_name(&fresh, b);
            ck_assert_str_eq(na, nb);
            int changed = strcmp(before[k], na) != 0;
            int reported = ci < REP.nchanged && REP.changed[ci] == k;
            ck_assert_int_eq(changed, reported);
            ci += (uint32_t)reported;
            free(before[k]);
        }
        ck_assert_uint_eq(ci, REP.nchanged);
        iodfg_mapping_fini(&fresh);
    }
    free(before);
}
END_TEST

START_TEST(check_and_accessors)
{
    ck_assert_int_eq(iodfg_rules_check("map path ~ x => y\n", 18, "x", NULL), 0);
    ck_assert_int_eq(iodfg_rules_check("map path ~ ( => y\n", 18, "x", &ERR), -1);
    ck_assert_uint_eq(iodfg_rules_count(RS), 0);
    ck_assert_int_eq(compile("drop  call = close,fstat   # trailing comment\r\n"
                             "map path ~ x => a # b\n"),
                     0);
    const struct iodfg_rule_info *r = iodfg_rules_get(RS, 0);
    ck_assert_int_eq(r->action, IODFG_RULE_DROP);
    ck_assert_str_eq(r->conds[0].value, "close,fstat");
    ck_assert_int_eq(r->conds[0].op, IODFG_OP_IN);
    ck_assert_str_eq(r->tmpl, "");
    ck_assert_str_eq(iodfg_rules_get(RS, 1)->tmpl, "a");
    ck_assert_uint_eq(iodfg_rules_get(RS, 1)->tcol, 17);
    ck_assert_int_eq(iodfg_rules_jit(RS) == 0 || iodfg_rules_jit(RS) == 1, 1);
    ck_assert_int_eq(iodfg_rules_compile(RS, "map => a\0b", 10, "nul", &ERR), -1);
    ck_assert_int_eq(compile(""), 0);
    ck_assert_uint_eq(iodfg_rules_count(RS), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rules");
    TCase *d = tcase_create("default");
    tcase_add_checked_fixture(d, setup, teardown);
    tcase_add_test(d, fhat_paper_trace);
    tcase_add_test(d, fhat_kinds_and_no_path);
    tcase_add_test(d, default_text_equals_default);
    tcase_add_test(d, path_prefix);
    tcase_add_test(d, drilldown_one_level_deeper);
    suite_add_tcase(s, d);
    TCase *l = tcase_create("language");
    tcase_add_checked_fixture(l, setup, teardown);
    tcase_add_test(l, first_match_drop_partial);
    tcase_add_test(l, shadowed_rules_and_events);
    tcase_add_test(l, search_patterns);
    tcase_add_test(l, captures_numbered_and_named);
    tcase_add_test(l, negations_and_lists);
    tcase_add_test(l, fs_scope_and_layer_fields);
    tcase_add_test(l, invalid_regex_position);
    tcase_add_test(l, syntax_errors_have_columns);
    tcase_add_test(l, previous_rules_stay_in_force);
    tcase_add_test(l, line_editing);
    tcase_add_test(l, check_and_accessors);
    tcase_add_test(l, example_rule_files);
    suite_add_tcase(s, l);
    TCase *a = tcase_create("apply");
    tcase_add_checked_fixture(a, setup, teardown);
    tcase_add_test(a, stable_ids_and_changes);
    tcase_add_test(a, regex_runs_once_per_key);
    tcase_add_test(a, match_limit_is_counted);
    tcase_add_test(a, key_mask_filters);
    tcase_add_test(a, random_edits_match_fresh);
    suite_add_tcase(s, a);
    return testutil_run(s);
}
