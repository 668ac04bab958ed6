/* SPDX-License-Identifier: MIT */
/* OTF2 test archives with calling context (tests/e2e/otf2_callsites.sh, check_otf2): one small
 * program, traced three ways. Clock: 1 tick = 1 us, offset 0.
 *
 * The program (source /home/user/run/ctx.c), two ranks of one "Master thread" each, POSIX I/O
 * on /scratch/ctx.dat wrapped like Score-P's (regions open64, write, pwrite64, read, close of
 * role FILE_IO):
 *   rank 0: main{ open64 (ctx.c:52); write_header{ 3 x write 64 B }; write_payload{ 2 x pwrite64
 *           4096 B }; read_back{ read 4096 B }; close (ctx.c:58) }
 *   rank 1: main{ open64; write_header{ write 64 B }; write_payload{ pwrite64 4096 B }; close }
 * Kinds:
 *   none     Enter/Leave of the wrappers only (Score-P with --nocompiler): no calling context.
 *   regions  also Enter/Leave of the functions (compiler instrumentation, paradigm COMPILER),
 *            whose Region definitions give ctx.c and their first lines: main 50,
 *            write_header 10, write_payload 20, read_back 30.
 *   calling  CallingContext definitions (functions of paradigm SAMPLING, as unwinding gives)
 *            with SourceCodeLocations of the calls: main 52 (open), 53, 54, 55, 58 (close),
 *            write_header 12, write_payload 23, read_back 33; CallingContextEnter/Leave of the
 *            wrappers only.
 * With bad, rank 0 also has malformed context records before read_back: regions a Leave of
 * read_back without its Enter; calling a CallingContextEnter of the undefined context 99 and
 * a CallingContextLeave of read's context, which was not entered, and read_back's context is
 * its own grandparent (main's context in read_back has read_back's as parent: a loop). */
#include "config.h"

#include <otf2/otf2.h>
#include <stdio.h>

#include "otf2_trace.h"

enum {
    S_EMPTY,
    S_MACHINE,
    S_NODE1,
    S_NODE_CLS,
    S_RANK0,
    S_RANK1,
    S_MASTER,
    S_POSIX,
    S_POSIX_NAME,
    S_OUT,
    S_SRC,
    S_POSIX_IO,
    S_MAIN,
    S_HEADER,
    S_PAYLOAD,
    S_READBACK,
    S_OPEN64,
    S_WRITE,
    S_PWRITE64,
    S_READ,
    S_CLOSE,
    S__N
};
static const char *const strings[S__N] = {"",
                                          "machine",
                                          "node1",
                                          "node",
                                          "rank 0",
                                          "rank 1",
                                          "Master thread",
                                          "POSIX",
                                          "POSIX I/O",
                                          "/scratch/ctx.dat",
                                          "/home/user/run/ctx.c",
                                          "POSIX_IO",
                                          "main",
                                          "write_header",
                                          "write_payload",
                                          "read_back",
                                          "open64",
                                          "write",
                                          "pwrite64",
                                          "read",
                                          "close"};

enum { R_MAIN, R_HEADER, R_PAYLOAD, R_READBACK, R_OPEN64, R_WRITE, R_PWRITE64, R_READ, R_CLOSE };
#define R_APP 4 /* regions below are the program's functions */
#define R__N 9
static const unsigned region_line[R_APP] = {50, 10, 20, 30};

/* Calling contexts (the same tree serves both ranks); SourceCodeLocation k is line scl_line[k]. */
enum {
    CC_MAIN_OPEN,
    CC_OPEN,
    CC_MAIN_CLOSE,
    CC_CLOSE,
    CC_MAIN_HDR,
    CC_HDR,
    CC_WRITE,
    CC_MAIN_PAY,
    CC_PAY,
    CC_PWRITE,
    CC_MAIN_RB,
    CC_RB,
    CC_READ,
    CC__N
};
#define NONE_REF 0xffffffffu
static const struct {
    unsigned region, line, parent;
} ccs[CC__N] = {
    {R_MAIN, 52, NONE_REF},      {R_OPEN64, 0, CC_MAIN_OPEN}, {R_MAIN, 58, NONE_REF},
    {R_CLOSE, 0, CC_MAIN_CLOSE}, {R_MAIN, 53, NONE_REF},      {R_HEADER, 12, CC_MAIN_HDR},
    {R_WRITE, 0, CC_HDR},        {R_MAIN, 54, NONE_REF},      {R_PAYLOAD, 23, CC_MAIN_PAY},
    {R_PWRITE64, 0, CC_PAY},     {R_MAIN, 55, NONE_REF},      {R_READBACK, 33, CC_MAIN_RB},
    {R_READ, 0, CC_RB}};

struct gen {
    OTF2_EvtWriter *w;
    int kind, bad;
    OTF2_TimeStamp t;
    uint64_t matching;
};

static OTF2_TimeStamp tick(struct gen *g)
{
    return g->t += 10;
}

/* A function of the program: entered only when compiler-instrumented. */
static void fn(struct gen *g, unsigned region, int enter)
{
    if (g->kind == OTF2_CTX_KIND_REGIONS) {
        (enter ? OTF2_EvtWriter_Enter : OTF2_EvtWriter_Leave)(g->w, NULL, tick(g), region);
    }
}

/* A wrapper: Enter/Leave, or CallingContextEnter/Leave of its context cc. */
static void wrap(struct gen *g, unsigned region, unsigned cc, int enter)
{
    if (g->kind != OTF2_CTX_KIND_CALLING) {
        (enter ? OTF2_EvtWriter_Enter : OTF2_EvtWriter_Leave)(g->w, NULL, tick(g), region);
    } else if (enter) {
        OTF2_EvtWriter_CallingContextEnter(g->w, NULL, tick(g), cc, 1);
    } else {
        OTF2_EvtWriter_CallingContextLeave(g->w, NULL, tick(g), cc);
    }
}

static void op(struct gen *g, unsigned region, unsigned cc, OTF2_IoHandleRef h,
               OTF2_IoOperationMode mode, uint64_t bytes)
{
    wrap(g, region, cc, 1);
    g->matching++;
    OTF2_EvtWriter_IoOperationBegin(g->w, NULL, tick(g), h, mode, OTF2_IO_OPERATION_FLAG_NONE,
                                    bytes, g->matching);
    OTF2_EvtWriter_IoOperationComplete(g->w, NULL, tick(g), h, bytes, g->matching);
    wrap(g, region, cc, 0);
}

static void rank(struct gen *g, OTF2_IoHandleRef h, unsigned headers, unsigned payloads,
                 int readback)
{
    const OTF2_IoOperationMode W = OTF2_IO_OPERATION_MODE_WRITE;
    fn(g, R_MAIN, 1);
    wrap(g, R_OPEN64, CC_OPEN, 1);
    OTF2_EvtWriter_IoCreateHandle(g->w, NULL, tick(g), h, OTF2_IO_ACCESS_MODE_READ_WRITE,
                                  OTF2_IO_CREATION_FLAG_CREATE, OTF2_IO_STATUS_FLAG_NONE);
    wrap(g, R_OPEN64, CC_OPEN, 0);
    fn(g, R_HEADER, 1);
    for (unsigned i = 0; i < headers; i++) {
        op(g, R_WRITE, CC_WRITE, h, W, 64);
    }
    fn(g, R_HEADER, 0);
    fn(g, R_PAYLOAD, 1);
    for (unsigned i = 0; i < payloads; i++) {
        op(g, R_PWRITE64, CC_PWRITE, h, W, 4096);
    }
    fn(g, R_PAYLOAD, 0);
    if (g->bad && g->kind == OTF2_CTX_KIND_REGIONS) {
        OTF2_EvtWriter_Leave(g->w, NULL, tick(g), R_READBACK);
    }
    if (g->bad && g->kind == OTF2_CTX_KIND_CALLING) {
        OTF2_EvtWriter_CallingContextEnter(g->w, NULL, tick(g), 99, 1);
        OTF2_EvtWriter_CallingContextLeave(g->w, NULL, tick(g), CC_READ);
    }
    if (readback) {
        fn(g, R_READBACK, 1);
        op(g, R_READ, CC_READ, h, OTF2_IO_OPERATION_MODE_READ, 4096);
        fn(g, R_READBACK, 0);
    }
    wrap(g, R_CLOSE, CC_CLOSE, 1);
    OTF2_EvtWriter_IoDestroyHandle(g->w, NULL, tick(g), h);
    wrap(g, R_CLOSE, CC_CLOSE, 0);
    fn(g, R_MAIN, 0);
}

static void definitions(OTF2_GlobalDefWriter *d, int kind, int bad)
{
    OTF2_GlobalDefWriter_WriteClockProperties(d, 1000000, 0, 100000, OTF2_UNDEFINED_TIMESTAMP);
    for (unsigned s = 0; s < S__N; s++) {
        OTF2_GlobalDefWriter_WriteString(d, s, strings[s]);
    }
    // without context, the program's functions are not defined at all (--nocompiler)
    for (unsigned r = kind == OTF2_CTX_KIND_NONE ? R_APP : 0; r < R__N; r++) {
        int app = r < R_APP;
        OTF2_GlobalDefWriter_WriteRegion(d, r, S_MAIN + r, S_MAIN + r, S_EMPTY,
                                         app ? OTF2_REGION_ROLE_FUNCTION : OTF2_REGION_ROLE_FILE_IO,
                                         !app                            ? OTF2_PARADIGM_NONE
                                         : kind == OTF2_CTX_KIND_CALLING ? OTF2_PARADIGM_SAMPLING
                                                                         : OTF2_PARADIGM_COMPILER,
                                         OTF2_REGION_FLAG_NONE, app ? S_SRC : S_POSIX_IO,
                                         app ? region_line[r] : 0, 0);
    }
    for (unsigned c = 0; kind == OTF2_CTX_KIND_CALLING && c < CC__N; c++) {
        OTF2_SourceCodeLocationRef scl = OTF2_UNDEFINED_SOURCE_CODE_LOCATION;
        if (ccs[c].line) {
            scl = c;
            OTF2_GlobalDefWriter_WriteSourceCodeLocation(d, c, S_SRC, ccs[c].line);
        }
        unsigned parent = bad && c == CC_MAIN_RB ? CC_RB : ccs[c].parent; // a loop
        OTF2_GlobalDefWriter_WriteCallingContext(
            d, c, ccs[c].region, scl, parent == NONE_REF ? OTF2_UNDEFINED_CALLING_CONTEXT : parent);
    }
    OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, S_MACHINE, S_MACHINE,
                                             OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 1, S_NODE1, S_NODE_CLS, 0);
    OTF2_GlobalDefWriter_WriteLocationGroup(d, 0, S_RANK0, OTF2_LOCATION_GROUP_TYPE_PROCESS, 1,
                                            OTF2_UNDEFINED_LOCATION_GROUP);
    OTF2_GlobalDefWriter_WriteLocationGroup(d, 1, S_RANK1, OTF2_LOCATION_GROUP_TYPE_PROCESS, 1,
                                            OTF2_UNDEFINED_LOCATION_GROUP);
    OTF2_GlobalDefWriter_WriteLocation(d, 0, S_MASTER, OTF2_LOCATION_TYPE_CPU_THREAD, 0, 0);
    OTF2_GlobalDefWriter_WriteLocation(d, 1, S_MASTER, OTF2_LOCATION_TYPE_CPU_THREAD, 0, 1);
    OTF2_GlobalDefWriter_WriteIoParadigm(d, 0, S_POSIX, S_POSIX_NAME, OTF2_IO_PARADIGM_CLASS_SERIAL,
                                         OTF2_IO_PARADIGM_FLAG_OS, 0, NULL, NULL, NULL);
    OTF2_GlobalDefWriter_WriteIoRegularFile(d, 0, S_OUT, 1);
    for (OTF2_IoHandleRef h = 0; h < 2; h++) {
        OTF2_GlobalDefWriter_WriteIoHandle(d, h, S_OUT, 0, 0, OTF2_IO_HANDLE_FLAG_NONE,
                                           OTF2_UNDEFINED_COMM, OTF2_UNDEFINED_IO_HANDLE);
    }
}

struct ctx_args {
    int kind, bad;
};

static void ctx_events(OTF2_EvtWriter *w, OTF2_LocationRef loc, void *ud)
{
    const struct ctx_args *a = ud;
    struct gen g = {w, a->kind, a->bad && loc == 0, 1000, 0};
    if (loc == 0) {
        rank(&g, 0, 3, 2, 1);
    } else {
        rank(&g, 1, 1, 1, 0);
    }
}

static void ctx_defs(OTF2_GlobalDefWriter *d, void *ud)
{
    const struct ctx_args *a = ud;
    definitions(d, a->kind, a->bad);
}

int otf2_ctx_write(const char *dir, const char *name, int kind, int bad)
{
    struct ctx_args a = {kind, bad};
    return otf2_trace_archive(dir, name, 2, ctx_events, ctx_defs, &a);
}
