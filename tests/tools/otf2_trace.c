/* SPDX-License-Identifier: MIT */
/* A small multi-layer OTF2 trace written with the OTF2 writer API, for unit and e2e tests.
 *
 * Clock: 1 tick = 1 us (resolution 1e6), global offset 1000 ticks, so tick t is (t-1000)*1000 ns.
 * Location 0 ("Master thread" of "MPI Rank 0" on node1):
 *   MPI_File_open{ open64{ create POSIX h1 (parent MPI-IO h0) } create MPI-IO h0 }
 *   MPI_File_write_all{ begin h0 write collective 4096; lseek64{ seek h1 8192 };
 *                       pwrite64{ h1 write 4096 at 16384 }; complete h0 4096 }
 *   MPI_File_iread{ begin h0 read non-blocking 1024; issued }  MPI_Wait{ pread64{ h1 read 1000 };
 *                                                               complete h0 1000 }
 *   fwrite{ ISOC h2 (pre-created, parent POSIX h3) write 12; write{ h3 write 12 } }
 *   MPI_File_close{ close{ destroy h1 } destroy h0 }
 *   flush h3 outside any I/O region, and a write on h3 that never completes.
 * Location 1 ("Master thread" of "MPI Rank 1"): MPI-IO h4 over POSIX h5: open, a collective
 *   write of 4096 bytes, close.
 * Location 2 ("Idle thread" of "MPI Rank 0"): only enters and leaves main (no I/O).
 * pwrite64's offset is Score-P's "Offset" attribute of its begin record; pread64 has none. */
#include "config.h"

#include "otf2_trace.h"

#include <otf2/otf2.h>
#include <stdio.h>

enum {
    S_EMPTY,
    S_MACHINE,
    S_NODE1,
    S_MACHINE_CLS,
    S_NODE_CLS,
    S_RANK0,
    S_RANK1,
    S_MASTER,
    S_IDLE,
    S_POSIX,
    S_POSIX_NAME,
    S_ISOC,
    S_ISOC_NAME,
    S_MPIIO,
    S_MPIIO_NAME,
    S_OUT,
    S_STDOUT,
    S_FILE_OPEN,
    S_FILE_WRITE_ALL,
    S_FILE_IREAD,
    S_WAIT,
    S_FILE_CLOSE,
    S_OPEN64,
    S_PWRITE64,
    S_PREAD64,
    S_CLOSE,
    S_LSEEK64,
    S_MAIN,
    S_FWRITE,
    S_WRITE,
    S_OFFSET,
    S_OFFSET_DESC,
    S__N
};
static const char *const strings[S__N] = {"",
                                          "machine",
                                          "node1",
                                          "machine",
                                          "node",
                                          "MPI Rank 0",
                                          "MPI Rank 1",
                                          "Master thread",
                                          "Idle thread",
                                          "POSIX",
                                          "POSIX I/O",
                                          "ISOC",
                                          "ISO C I/O",
                                          "MPI-IO",
                                          "MPI I/O",
                                          "/scratch/out.dat",
                                          "/dev/stdout",
                                          "MPI_File_open",
                                          "MPI_File_write_all",
                                          "MPI_File_iread",
                                          "MPI_Wait",
                                          "MPI_File_close",
                                          "open64",
                                          "pwrite64",
                                          "pread64",
                                          "close",
                                          "lseek64",
                                          "main",
                                          "fwrite",
                                          "write",
                                          "Offset",
                                          "Absolute read/write offset within a file."};

enum {
    R_FILE_OPEN,
    R_FILE_WRITE_ALL,
    R_FILE_IREAD,
    R_WAIT,
    R_FILE_CLOSE,
    R_OPEN64,
    R_PWRITE64,
    R_PREAD64,
    R_CLOSE,
    R_LSEEK64,
    R_MAIN,
    R_FWRITE,
    R_WRITE,
    R__N
};
static const struct {
    unsigned name;
    OTF2_RegionRole role;
    OTF2_Paradigm paradigm;
} regions[R__N] = {
    {S_FILE_OPEN, OTF2_REGION_ROLE_FILE_IO, OTF2_PARADIGM_MPI},
    {S_FILE_WRITE_ALL, OTF2_REGION_ROLE_FILE_IO, OTF2_PARADIGM_MPI},
    {S_FILE_IREAD, OTF2_REGION_ROLE_FILE_IO, OTF2_PARADIGM_MPI},
    {S_WAIT, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI},
    {S_FILE_CLOSE, OTF2_REGION_ROLE_FILE_IO, OTF2_PARADIGM_MPI},
    {S_OPEN64, OTF2_REGION_ROLE_FILE_IO, OTF2_PARADIGM_NONE},
    {S_PWRITE64, OTF2_REGION_ROLE_FILE_IO, OTF2_PARADIGM_NONE},
    {S_PREAD64, OTF2_REGION_ROLE_FILE_IO, OTF2_PARADIGM_NONE},
    {S_CLOSE, OTF2_REGION_ROLE_FILE_IO, OTF2_PARADIGM_NONE},
    {S_LSEEK64, OTF2_REGION_ROLE_FILE_IO, OTF2_PARADIGM_NONE},
    {S_MAIN, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER},
    {S_FWRITE, OTF2_REGION_ROLE_FILE_IO, OTF2_PARADIGM_NONE},
    {S_WRITE, OTF2_REGION_ROLE_FILE_IO, OTF2_PARADIGM_NONE},
};

enum { P_POSIX, P_ISOC, P_MPIIO };

static OTF2_FlushType pre_flush(void *ud, OTF2_FileType ft, OTF2_LocationRef loc, void *cb,
                                bool final)
{
    (void)ud, (void)ft, (void)loc, (void)cb, (void) final;
    return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *ud, OTF2_FileType ft, OTF2_LocationRef loc)
{
    (void)ud, (void)ft, (void)loc;
    return 0;
}

static const OTF2_FlushCallbacks flush_callbacks = {pre_flush, post_flush};

/* Score-P's "Offset" attribute (attribute 0) of a positional operation (pwrite, pread). The
 * writer empties the list when it writes the record, so one list serves every record. */
static OTF2_AttributeList *attrs;

static OTF2_AttributeList *offset_attr(uint64_t offset)
{
    OTF2_AttributeList_AddUint64(attrs, 0, offset);
    return attrs;
}

#define RW OTF2_IO_ACCESS_MODE_READ_WRITE
#define NOFLAG OTF2_IO_STATUS_FLAG_NONE

static void rank0(OTF2_EvtWriter *w)
{
    OTF2_EvtWriter_Enter(w, NULL, 1010, R_MAIN);
    OTF2_EvtWriter_Enter(w, NULL, 1100, R_FILE_OPEN);
    OTF2_EvtWriter_Enter(w, NULL, 1110, R_OPEN64);
    OTF2_EvtWriter_IoCreateHandle(w, NULL, 1120, 1, RW,
                                  OTF2_IO_CREATION_FLAG_CREATE | OTF2_IO_CREATION_FLAG_TRUNCATE,
                                  NOFLAG);
    OTF2_EvtWriter_Leave(w, NULL, 1130, R_OPEN64);
    OTF2_EvtWriter_IoCreateHandle(w, NULL, 1140, 0, RW, OTF2_IO_CREATION_FLAG_CREATE, NOFLAG);
    OTF2_EvtWriter_Leave(w, NULL, 1150, R_FILE_OPEN);

    OTF2_EvtWriter_Enter(w, NULL, 1200, R_FILE_WRITE_ALL);
    OTF2_EvtWriter_IoOperationBegin(w, NULL, 1210, 0, OTF2_IO_OPERATION_MODE_WRITE,
                                    OTF2_IO_OPERATION_FLAG_COLLECTIVE, 4096, 1);
    OTF2_EvtWriter_Enter(w, NULL, 1220, R_LSEEK64);
    OTF2_EvtWriter_IoSeek(w, NULL, 1225, 1, 8192, OTF2_IO_SEEK_FROM_START, 8192);
    OTF2_EvtWriter_Leave(w, NULL, 1230, R_LSEEK64);
    OTF2_EvtWriter_Enter(w, NULL, 1240, R_PWRITE64);
    OTF2_EvtWriter_IoOperationBegin(w, offset_attr(16384), 1250, 1, OTF2_IO_OPERATION_MODE_WRITE,
                                    OTF2_IO_OPERATION_FLAG_NONE, 4096, 2);
    OTF2_EvtWriter_IoOperationComplete(w, NULL, 1270, 1, 4096, 2);
    OTF2_EvtWriter_Leave(w, NULL, 1280, R_PWRITE64);
    OTF2_EvtWriter_IoOperationComplete(w, NULL, 1290, 0, 4096, 1);
    OTF2_EvtWriter_Leave(w, NULL, 1300, R_FILE_WRITE_ALL);

    OTF2_EvtWriter_Enter(w, NULL, 1400, R_FILE_IREAD);
    OTF2_EvtWriter_IoOperationBegin(w, NULL, 1410, 0, OTF2_IO_OPERATION_MODE_READ,
                                    OTF2_IO_OPERATION_FLAG_NON_BLOCKING, 1024, 3);
    OTF2_EvtWriter_IoOperationIssued(w, NULL, 1420, 0, 3);
    OTF2_EvtWriter_Leave(w, NULL, 1430, R_FILE_IREAD);
    OTF2_EvtWriter_Enter(w, NULL, 1500, R_WAIT);
    OTF2_EvtWriter_Enter(w, NULL, 1510, R_PREAD64);
    OTF2_EvtWriter_IoOperationBegin(w, NULL, 1520, 1, OTF2_IO_OPERATION_MODE_READ,
                                    OTF2_IO_OPERATION_FLAG_NONE, 1024, 4);
    OTF2_EvtWriter_IoOperationComplete(w, NULL, 1540, 1, 1000, 4);
    OTF2_EvtWriter_Leave(w, NULL, 1550, R_PREAD64);
    OTF2_EvtWriter_IoOperationComplete(w, NULL, 1560, 0, 1000, 3);
    OTF2_EvtWriter_Leave(w, NULL, 1570, R_WAIT);

    OTF2_EvtWriter_Enter(w, NULL, 1600, R_FWRITE);
    OTF2_EvtWriter_IoOperationBegin(w, NULL, 1610, 2, OTF2_IO_OPERATION_MODE_WRITE,
                                    OTF2_IO_OPERATION_FLAG_NONE, 12, 5);
    OTF2_EvtWriter_Enter(w, NULL, 1620, R_WRITE);
    OTF2_EvtWriter_IoOperationBegin(w, NULL, 1625, 3, OTF2_IO_OPERATION_MODE_WRITE,
                                    OTF2_IO_OPERATION_FLAG_NONE, 12, 6);
    OTF2_EvtWriter_IoOperationComplete(w, NULL, 1630, 3, 12, 6);
    OTF2_EvtWriter_Leave(w, NULL, 1635, R_WRITE);
    OTF2_EvtWriter_IoOperationComplete(w, NULL, 1640, 2, 12, 5);
    OTF2_EvtWriter_Leave(w, NULL, 1650, R_FWRITE);

    OTF2_EvtWriter_Enter(w, NULL, 1700, R_FILE_CLOSE);
    OTF2_EvtWriter_Enter(w, NULL, 1710, R_CLOSE);
    OTF2_EvtWriter_IoDestroyHandle(w, NULL, 1720, 1);
    OTF2_EvtWriter_Leave(w, NULL, 1730, R_CLOSE);
    OTF2_EvtWriter_IoDestroyHandle(w, NULL, 1740, 0);
    OTF2_EvtWriter_Leave(w, NULL, 1750, R_FILE_CLOSE);

    OTF2_EvtWriter_IoOperationBegin(w, NULL, 1800, 3, OTF2_IO_OPERATION_MODE_FLUSH,
                                    OTF2_IO_OPERATION_FLAG_NONE, 0, 7);
    OTF2_EvtWriter_IoOperationComplete(w, NULL, 1810, 3, 0, 7);
    OTF2_EvtWriter_IoOperationBegin(w, NULL, 1850, 3, OTF2_IO_OPERATION_MODE_WRITE,
                                    OTF2_IO_OPERATION_FLAG_NONE, 5, 8);
    OTF2_EvtWriter_Leave(w, NULL, 1900, R_MAIN);
}

static void rank1(OTF2_EvtWriter *w)
{
    OTF2_EvtWriter_Enter(w, NULL, 1100, R_FILE_OPEN);
    OTF2_EvtWriter_IoCreateHandle(w, NULL, 1105, 4, RW, OTF2_IO_CREATION_FLAG_CREATE, NOFLAG);
    OTF2_EvtWriter_Enter(w, NULL, 1110, R_OPEN64);
    OTF2_EvtWriter_IoCreateHandle(w, NULL, 1115, 5, RW, OTF2_IO_CREATION_FLAG_CREATE, NOFLAG);
    OTF2_EvtWriter_Leave(w, NULL, 1118, R_OPEN64);
    OTF2_EvtWriter_Leave(w, NULL, 1120, R_FILE_OPEN);
    OTF2_EvtWriter_Enter(w, NULL, 1200, R_FILE_WRITE_ALL);
    OTF2_EvtWriter_IoOperationBegin(w, NULL, 1210, 4, OTF2_IO_OPERATION_MODE_WRITE,
                                    OTF2_IO_OPERATION_FLAG_COLLECTIVE, 4096, 1);
    OTF2_EvtWriter_Enter(w, NULL, 1220, R_PWRITE64);
    OTF2_EvtWriter_IoOperationBegin(w, NULL, 1230, 5, OTF2_IO_OPERATION_MODE_WRITE,
                                    OTF2_IO_OPERATION_FLAG_NONE, 4096, 2);
    OTF2_EvtWriter_IoOperationComplete(w, NULL, 1260, 5, 4096, 2);
    OTF2_EvtWriter_Leave(w, NULL, 1265, R_PWRITE64);
    OTF2_EvtWriter_IoOperationComplete(w, NULL, 1280, 4, 4096, 1);
    OTF2_EvtWriter_Leave(w, NULL, 1300, R_FILE_WRITE_ALL);
    OTF2_EvtWriter_Enter(w, NULL, 1700, R_FILE_CLOSE);
    OTF2_EvtWriter_Enter(w, NULL, 1710, R_CLOSE);
    OTF2_EvtWriter_IoDestroyHandle(w, NULL, 1720, 5);
    OTF2_EvtWriter_Leave(w, NULL, 1730, R_CLOSE);
    OTF2_EvtWriter_IoDestroyHandle(w, NULL, 1740, 4);
    OTF2_EvtWriter_Leave(w, NULL, 1750, R_FILE_CLOSE);
}

static void idle(OTF2_EvtWriter *w)
{
    OTF2_EvtWriter_Enter(w, NULL, 1010, R_MAIN);
    OTF2_EvtWriter_Leave(w, NULL, 1900, R_MAIN);
}

/* The names otf2_trace_write_named puts in place of the file's and rank 1's (NULL: as above). */
static const char *file_name, *rank1_name;

static void definitions(OTF2_GlobalDefWriter *g)
{
    OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000, 1000, 1000, OTF2_UNDEFINED_TIMESTAMP);
    for (unsigned s = 0; s < S__N; s++) {
        const char *text = s == S_OUT && file_name     ? file_name
                           : s == S_RANK1 && rank1_name ? rank1_name
                                                        : strings[s];
        OTF2_GlobalDefWriter_WriteString(g, s, text);
    }
    for (unsigned r = 0; r < R__N; r++) {
        OTF2_GlobalDefWriter_WriteRegion(g, r, regions[r].name, regions[r].name, S_EMPTY,
                                         regions[r].role, regions[r].paradigm,
                                         OTF2_REGION_FLAG_NONE, S_EMPTY, 0, 0);
    }
    OTF2_GlobalDefWriter_WriteAttribute(g, 0, S_OFFSET, S_OFFSET_DESC, OTF2_TYPE_UINT64);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, S_MACHINE, S_MACHINE_CLS,
                                             OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 1, S_NODE1, S_NODE_CLS, 0);
    OTF2_GlobalDefWriter_WriteLocationGroup(g, 0, S_RANK0, OTF2_LOCATION_GROUP_TYPE_PROCESS, 1,
                                            OTF2_UNDEFINED_LOCATION_GROUP);
    OTF2_GlobalDefWriter_WriteLocationGroup(g, 1, S_RANK1, OTF2_LOCATION_GROUP_TYPE_PROCESS, 1,
                                            OTF2_UNDEFINED_LOCATION_GROUP);
    OTF2_GlobalDefWriter_WriteLocation(g, 0, S_MASTER, OTF2_LOCATION_TYPE_CPU_THREAD, 60, 0);
    OTF2_GlobalDefWriter_WriteLocation(g, 1, S_MASTER, OTF2_LOCATION_TYPE_CPU_THREAD, 20, 1);
    OTF2_GlobalDefWriter_WriteLocation(g, 2, S_IDLE, OTF2_LOCATION_TYPE_CPU_THREAD, 2, 0);
    OTF2_GlobalDefWriter_WriteIoParadigm(g, P_POSIX, S_POSIX, S_POSIX_NAME,
                                         OTF2_IO_PARADIGM_CLASS_SERIAL, OTF2_IO_PARADIGM_FLAG_OS, 0,
                                         NULL, NULL, NULL);
    OTF2_GlobalDefWriter_WriteIoParadigm(g, P_ISOC, S_ISOC, S_ISOC_NAME,
                                         OTF2_IO_PARADIGM_CLASS_SERIAL, OTF2_IO_PARADIGM_FLAG_NONE,
                                         0, NULL, NULL, NULL);
    OTF2_GlobalDefWriter_WriteIoParadigm(g, P_MPIIO, S_MPIIO, S_MPIIO_NAME,
                                         OTF2_IO_PARADIGM_CLASS_PARALLEL,
                                         OTF2_IO_PARADIGM_FLAG_NONE, 0, NULL, NULL, NULL);
    OTF2_GlobalDefWriter_WriteIoRegularFile(g, 0, S_OUT, 1);
    OTF2_GlobalDefWriter_WriteIoRegularFile(g, 1, S_STDOUT, 1);
    const OTF2_IoHandleFlag pre = OTF2_IO_HANDLE_FLAG_PRE_CREATED;
    OTF2_GlobalDefWriter_WriteIoHandle(g, 0, S_OUT, 0, P_MPIIO, OTF2_IO_HANDLE_FLAG_NONE,
                                       OTF2_UNDEFINED_COMM, OTF2_UNDEFINED_IO_HANDLE);
    OTF2_GlobalDefWriter_WriteIoHandle(g, 1, S_OUT, 0, P_POSIX, OTF2_IO_HANDLE_FLAG_NONE,
                                       OTF2_UNDEFINED_COMM, 0);
    OTF2_GlobalDefWriter_WriteIoHandle(g, 2, S_STDOUT, 1, P_ISOC, pre, OTF2_UNDEFINED_COMM, 3);
    OTF2_GlobalDefWriter_WriteIoHandle(g, 3, S_STDOUT, 1, P_POSIX, pre, OTF2_UNDEFINED_COMM,
                                       OTF2_UNDEFINED_IO_HANDLE);
    OTF2_GlobalDefWriter_WriteIoHandle(g, 4, S_OUT, 0, P_MPIIO, OTF2_IO_HANDLE_FLAG_NONE,
                                       OTF2_UNDEFINED_COMM, OTF2_UNDEFINED_IO_HANDLE);
    OTF2_GlobalDefWriter_WriteIoHandle(g, 5, S_OUT, 0, P_POSIX, OTF2_IO_HANDLE_FLAG_NONE,
                                       OTF2_UNDEFINED_COMM, 4);
    OTF2_GlobalDefWriter_WriteIoPreCreatedHandleState(g, 2, OTF2_IO_ACCESS_MODE_WRITE_ONLY, NOFLAG);
    OTF2_GlobalDefWriter_WriteIoPreCreatedHandleState(g, 3, OTF2_IO_ACCESS_MODE_WRITE_ONLY, NOFLAG);
}

int otf2_trace_write_named(const char *dir, const char *name, const char *file, const char *rank1)
{
    file_name = file;
    rank1_name = rank1;
    int rc = otf2_trace_write(dir, name);
    file_name = rank1_name = NULL;
    return rc;
}

static void trace_events(OTF2_EvtWriter *w, OTF2_LocationRef loc, void *ud)
{
    (void)ud;
    void (*const writers[3])(OTF2_EvtWriter *) = {rank0, rank1, idle};
    writers[loc](w);
}

static void trace_defs(OTF2_GlobalDefWriter *g, void *ud)
{
    (void)ud;
    definitions(g);
}

int otf2_trace_write(const char *dir, const char *name)
{
    attrs = OTF2_AttributeList_New();
    int rc = otf2_trace_archive(dir, name, 3, trace_events, trace_defs, NULL);
    OTF2_AttributeList_Delete(attrs);
    attrs = NULL;
    return rc;
}

int otf2_trace_archive(const char *dir, const char *name, unsigned nlocs,
                       void (*events)(OTF2_EvtWriter *w, OTF2_LocationRef loc, void *ud),
                       void (*defs)(OTF2_GlobalDefWriter *g, void *ud), void *ud)
{
    OTF2_Archive *ar =
        OTF2_Archive_Open(dir, name, OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                          OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!ar) {
        fprintf(stderr, "otf2_trace_write: cannot create %s/%s\n", dir, name);
        return -1;
    }
    OTF2_Archive_SetFlushCallbacks(ar, &flush_callbacks, NULL);
    OTF2_Archive_SetSerialCollectiveCallbacks(ar);
    OTF2_Archive_OpenEvtFiles(ar);
    for (OTF2_LocationRef loc = 0; loc < nlocs; loc++) {
        OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, loc);
        events(w, loc, ud);
        OTF2_Archive_CloseEvtWriter(ar, w);
    }
    OTF2_Archive_CloseEvtFiles(ar);
    OTF2_Archive_OpenDefFiles(ar);
    for (OTF2_LocationRef loc = 0; loc < nlocs; loc++) {
        OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(ar, loc);
        OTF2_Archive_CloseDefWriter(ar, dw);
    }
    OTF2_Archive_CloseDefFiles(ar);
    defs(OTF2_Archive_GetGlobalDefWriter(ar), ud);
    OTF2_ErrorCode rc = OTF2_Archive_Close(ar);
    if (rc != OTF2_SUCCESS) {
        fprintf(stderr, "otf2_trace_write: %s\n", OTF2_Error_GetDescription(rc));
        return -1;
    }
    return 0;
}
