/* SPDX-License-Identifier: MIT */
/* `iodfg-mpi batch FILE`: the commands of a file, one per line, in one job. A job on a cluster
 * pays its launch, MPI_Init and the parallel HDF5 set-up once instead of once per command.
 * Process 0 reads the file, expands each line as the shell would (wordexp, without command
 * substitution) and sends the words to the others; each command's `>` and `2>` files are written
 * whole when it ends (atomically: a temporary file renamed), so a command that stops half-way
 * never leaves half a file under the name. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wordexp.h>

#include "iodfg/atomicfile.h"
#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/textfile.h"

#include "cmdline/cli.h"
#include "cmdline/cli_tempfile.h"
#include "mpi_batch_words.h"
#include "mpi_main.h"

/* A batch file is written by people or scripts: 16 MiB is far more than any holds. */
#define BATCH_FILE_MAX (16u << 20)

static const char batch_usage[] =
    "usage: iodfg batch FILE\n"
    "Run the commands of FILE, one per line, in this one job: the job starts, initialises MPI\n"
    "and opens files once for all of them. A line is `COMMAND [OPTIONS] ARGS... [> OUT]\n"
    "[2> ERR]`, its words quoted and expanded as the shell does ($VARIABLES, globs; no command\n"
    "substitution, pipes or lists); # starts a comment. Each command's standard output goes to\n"
    "OUT and its messages to ERR (each file written whole when the command ends), else to the\n"
    "job's. Every line runs, whatever the others' exit status; the batch says which lines\n"
    "failed and exits with the first failure's status.\n";

/* One line that holds a command. */
struct batch_line {
    unsigned long lineno;
    struct mpi_batch_cmd cmd;
};

struct batch {
    const char *path;
    char *text;
    uint64_t len;
    struct batch_line *lines;
    size_t n;
};

static void batch_fini(struct batch *b)
{
    for (size_t i = 0; i < b->n; i++) {
        mpi_batch_cmd_fini(&b->lines[i].cmd);
    }
    free(b->lines);
    free(b->text);
}

/* Every process: the file's text from process 0. CLI_OK or a status (said on process 0). */
static int batch_read(const struct mpi_job *job, struct batch *b)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    size_t len = 0;
    char *text = NULL;
    if (job->rank == 0) {
        text = iodfg_textfile_read(b->path, "batch file", BATCH_FILE_MAX, &len, &err);
    }
    if (mpi_agree(job, job->rank == 0 && !text ? -1 : 0, &err)) {
        if (job->rank == 0) {
            cli_error(&err);
        }
        return CLI_FAIL;
    }
    b->len = len;
    b->text = text;
    if (mpi_bcast_bytes(job, &b->text, &b->len, &err)) {
        if (job->rank == 0) {
            cli_error(&err);
            free(text);
        }
        b->text = NULL;
        return CLI_FAIL;
    }
    return CLI_OK;
}

/* Every process, on the same text: the lines with a command. CLI_OK, or CLI_USAGE after process
 * 0 said where each line is wrong (nothing runs then), or CLI_FAIL (memory). */
static int batch_split(const struct mpi_job *job, struct batch *b)
{
    int rc = CLI_OK;
    size_t cap = 0;
    unsigned long lineno = 0;
    for (const char *p = b->text, *end = b->text + b->len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
        struct iodfg_error err;
        iodfg_error_clear(&err);
        struct mpi_batch_cmd cmd;
        int got = mpi_batch_split(p, ll, b->path, ++lineno, &cmd, &err);
        p += ll + (nl != NULL);
        if (got < 0) {
            if (job->rank == 0) {
                cli_error_caret(&err, b->text, (size_t)b->len);
            }
            rc = err.code == IODFG_E_NOMEM ? CLI_FAIL : rc == CLI_OK ? CLI_USAGE : rc;
            continue;
        }
        if (got == 0) {
            continue;
        }
        if (b->n == cap) {
            cap = cap ? 2 * cap : 16;
            struct batch_line *l = realloc(b->lines, cap * sizeof(*l));
            if (!l) {
                mpi_batch_cmd_fini(&cmd);
                return CLI_FAIL;
            }
            b->lines = l;
        }
        b->lines[b->n++] = (struct batch_line){lineno, cmd};
    }
    return rc;
}

/* ---- one command's output files (process 0) ---- */

/* Where a command's output goes meanwhile: an anonymous file in memory over fd, the real one
 * kept in saved. */
struct redirect {
    const char *to; /* the file, or NULL: the job's own */
    int fd, mem, saved;
};

static int redirect_begin(struct redirect *r, const char *to, int fd)
{
    *r = (struct redirect){to, fd, -1, -1};
    if (!to) {
        return 0;
    }
    fflush(fd == STDOUT_FILENO ? stdout : stderr);
    r->mem = memfd_create("iodfg-batch", MFD_CLOEXEC);
    r->saved = r->mem < 0 ? -1 : dup(fd);
    if (r->saved < 0 || dup2(r->mem, fd) < 0) {
        int e = errno;
        if (r->mem >= 0) {
            close(r->mem);
        }
        if (r->saved >= 0) {
            close(r->saved);
        }
        r->to = NULL;
        errno = e;
        return -1;
    }
    clearerr(fd == STDOUT_FILENO ? stdout : stderr);
    return 0;
}

/* Put fd back without writing the file. */
static void redirect_cancel(struct redirect *r)
{
    if (r->to) {
        fflush(r->fd == STDOUT_FILENO ? stdout : stderr);
        dup2(r->saved, r->fd);
        close(r->saved);
        close(r->mem);
        r->to = NULL;
    }
}

/* Copy the memory file into a new file beside r->to, then rename it there. 0, or -1 (errno). */
/* Copy the memory file into the open descriptor out. 0, or -1 (errno). */
static int copy_out(const struct redirect *r, int out)
{
    char buf[65536];
    ssize_t got;
    off_t at = 0;
    while ((got = pread(r->mem, buf, sizeof(buf), at)) > 0) {
        if (write(out, buf, (size_t)got) != got) {
            return -1;
        }
        at += got;
    }
    return got < 0 ? -1 : 0;
}

static int redirect_write(const struct redirect *r, struct iodfg_error *err)
{
    struct stat st;
    if (lstat(r->to, &st) == 0 && S_ISCHR(st.st_mode)) { // /dev/null: written, never replaced
        int out = open(r->to, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        int rc = out < 0 || copy_out(r, out) ? -1 : 0;
        int e = errno;
        if (out >= 0) {
            close(out);
        }
        return rc ? iodfg_error_set_at(err, IODFG_E_IO, r->to, 0, 0, "%s", strerror(e)) : 0;
    }
    // the same temp file and rename as every -o output (iodfg/atomicfile.h)
    char *tmp = NULL;
    cli_temp_hold();
    int out = iodfg_atomic_tmpfile(r->to, &tmp, err);
    if (out < 0) {
        cli_temp_forget();
        return -1;
    }
    cli_temp_guard(tmp);
    int rc = copy_out(r, out)
                 ? iodfg_error_set_at(err, IODFG_E_IO, r->to, 0, 0, "%s", strerror(errno))
                 : 0;
    if (close(out) && rc == 0) {
        rc = iodfg_error_set_at(err, IODFG_E_IO, r->to, 0, 0, "%s", strerror(errno));
    }
    if (rc || iodfg_atomic_publish(tmp, r->to, 1, err)) {
        unlink(tmp);
        rc = -1;
    }
    cli_temp_forget();
    free(tmp);
    return rc;
}

/* Put fd back and write the file. 0, or -1 after saying why. */
static int redirect_end(struct redirect *r, const char *path, unsigned long lineno)
{
    if (!r->to) {
        return 0;
    }
    fflush(r->fd == STDOUT_FILENO ? stdout : stderr);
    dup2(r->saved, r->fd);
    close(r->saved);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    int rc = redirect_write(r, &err);
    if (rc) {
        char msg[600];
        cli_errorf("%s:%lu: %s", path, lineno, iodfg_error_format(&err, msg, sizeof(msg)));
    }
    close(r->mem);
    return rc;
}

/* ---- one line ---- */

/* Process 0: the program's name and the line's words expanded, NUL-separated into words, and its
 * file names into out and err (malloc'd). 0, or -1 after saying why. */
static int expand(const struct batch *b, const struct batch_line *l, struct iodfg_buf *words,
                  char **out, char **err)
{
    const char *what[3] = {l->cmd.words, l->cmd.out, l->cmd.err};
    char **to[3] = {NULL, out, err};
    iodfg_buf_add(words, cli_program, strlen(cli_program) + 1);
    for (int i = 0; i < 3; i++) {
        if (!what[i]) {
            continue;
        }
        wordexp_t we;
        int rc = wordexp(what[i], &we, WRDE_NOCMD);
        if (rc) {
            cli_errorf("%s:%lu: cannot expand `%s`: %s", b->path, l->lineno, what[i],
                       rc == WRDE_NOSPACE ? "out of memory" : "not a shell word");
            if (rc == WRDE_NOSPACE) {
                wordfree(&we);
            }
            return -1;
        }
        if (i == 0 && we.we_wordc == 0) {
            cli_errorf("%s:%lu: `%s` expands to no command", b->path, l->lineno, what[i]);
            wordfree(&we);
            return -1;
        }
        if (i > 0 && we.we_wordc != 1) {
            cli_errorf("%s:%lu: `%s` expands to %zu words; expected one file name", b->path,
                       l->lineno, what[i], we.we_wordc);
            wordfree(&we);
            return -1;
        }
        for (size_t w = 0; w < we.we_wordc; w++) {
            if (i == 0) {
                iodfg_buf_add(words, we.we_wordv[w], strlen(we.we_wordv[w]) + 1);
            } else if (!(*to[i] = strdup(we.we_wordv[w]))) {
                words->failed = 1;
            }
        }
        wordfree(&we);
    }
    if (words->failed) {
        cli_errorf("%s:%lu: out of memory", b->path, l->lineno);
        return -1;
    }
    return 0;
}

/* Every process: argv from the NUL-separated words (the program's name first); *argc. NULL:
 * memory. */
static char **unpack(char *words, uint64_t len, int *argc)
{
    int n = 0;
    for (uint64_t i = 0; i < len; i++) {
        n += words[i] == '\0';
    }
    char **argv = calloc((size_t)n + 1, sizeof(*argv));
    if (!argv) {
        return NULL;
    }
    int k = 0;
    for (uint64_t i = 0; i < len; i += strlen(words + i) + 1) {
        argv[k++] = words + i;
    }
    *argc = k;
    return argv;
}

/* Process 0's decision on a line, shared: the words (len 0 when the line does not run); on the
 * other processes *data is a copy to free. 0, or -1 (memory, on every process). */
static int share_words(const struct mpi_job *job, struct iodfg_buf *words, char **data,
                       uint64_t *len)
{
    static char none[1];
    struct iodfg_error err;
    iodfg_error_clear(&err);
    *data = job->rank == 0 && words->len ? words->data : none;
    *len = job->rank == 0 ? words->len : 0;
    return mpi_bcast_bytes(job, data, len, &err);
}

/* Whether a new file can be made beside path (errno when not). */
static int dir_writable(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        return access(".", W_OK | X_OK) == 0;
    }
    char *dir = strndup(path, slash == path ? 1 : (size_t)(slash - path));
    int ok = dir && access(dir, W_OK | X_OK) == 0;
    free(dir);
    return ok;
}

/* Process 0: expand line l and send its output where it says. CLI_OK, or the status of a line
 * that cannot run (said). */
static int line_begin(const struct batch *b, const struct batch_line *l, struct iodfg_buf *words,
                      struct redirect *ro, struct redirect *re, char **out, char **err)
{
    if (expand(b, l, words, out, err)) {
        return CLI_USAGE;
    }
    // a file that cannot be written is said before the command runs, not after
    const char *files[2] = {*out, *err};
    for (int i = 0; i < 2; i++) {
        struct stat st;
        int there = files[i] && lstat(files[i], &st) == 0;
        if (there && S_ISCHR(st.st_mode)) { // a device (/dev/null) is written, not replaced
            if (access(files[i], W_OK) == 0) {
                continue;
            }
        } else if (there && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
            cli_errorf("%s:%lu: cannot write %s: %s", b->path, l->lineno, files[i],
                       S_ISDIR(st.st_mode) ? "a directory" : "not a regular file or a device");
            return CLI_FAIL;
        } else if (!files[i] || dir_writable(files[i])) {
            continue;
        }
        cli_errorf("%s:%lu: cannot write %s: %s", b->path, l->lineno, files[i], strerror(errno));
        return CLI_FAIL;
    }
    if (redirect_begin(ro, *out, STDOUT_FILENO) == 0 &&
        redirect_begin(re, *err, STDERR_FILENO) == 0) {
        return CLI_OK;
    }
    int e = errno;
    redirect_cancel(ro);
    cli_errorf("%s:%lu: cannot keep the output: %s", b->path, l->lineno, strerror(e));
    return CLI_FAIL;
}

/* Every process: the command of words[0..len). Its exit status. */
static int line_run(const struct mpi_job *job, const struct batch *b, const struct batch_line *l,
                    char *words, uint64_t len)
{
    int argc = 0;
    char **argv = unpack(words, len, &argc);
    mpi_reset_stderr(job);
    int rc;
    if (!argv) {
        rc = mpi_agree_status(job, CLI_FAIL);
    } else if (strcmp(argv[1], "batch") == 0) {
        if (job->rank == 0) {
            cli_errorf("%s:%lu: a batch does not run batches", b->path, l->lineno);
        }
        rc = CLI_USAGE;
    } else {
        rc = cli_stdout_status(mpi_dispatch(job, argc, argv));
    }
    free(argv);
    return rc;
}

/* Run line l: its exit status, the same on every process. */
static int run_line(const struct mpi_job *job, const struct batch *b, const struct batch_line *l)
{
    struct iodfg_buf words;
    iodfg_buf_init(&words);
    char *out = NULL, *err = NULL;
    struct redirect ro = {NULL, STDOUT_FILENO, -1, -1}, re = {NULL, STDERR_FILENO, -1, -1};
    int rc = job->rank == 0 ? line_begin(b, l, &words, &ro, &re, &out, &err) : CLI_OK;
    if (rc != CLI_OK) {
        iodfg_buf_clear(&words);
    }
    char *data;
    uint64_t len;
    if (share_words(job, &words, &data, &len)) {
        rc = CLI_FAIL;
    } else if (len) {
        rc = line_run(job, b, l, data, len);
        if (job->rank != 0) {
            free(data);
        }
    }
    if (job->rank == 0) { // process 0 writes the files
        int e1 = redirect_end(&re, b->path, l->lineno);
        int e2 = redirect_end(&ro, b->path, l->lineno);
        rc = rc == CLI_OK && (e1 || e2) ? CLI_FAIL : rc;
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, job->comm);
    free(out);
    free(err);
    iodfg_buf_fini(&words);
    return rc;
}

int mpi_batch(const struct mpi_job *job, int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        cli_usage_put(batch_usage, stdout);
        return CLI_OK;
    }
    if (argc != 2 || argv[1][0] == '-') {
        if (job->rank == 0) {
            cli_usage_put(batch_usage, stderr);
        }
        return CLI_USAGE;
    }
    struct batch b = {argv[1], NULL, 0, NULL, 0};
    int rc = batch_read(job, &b);
    rc = rc ? rc : batch_split(job, &b);
    int first = CLI_OK; // every line runs; the batch exits with the first failure's status
    for (size_t i = 0; rc == CLI_OK && i < b.n; i++) {
        int one = run_line(job, &b, &b.lines[i]);
        if (one != CLI_OK && job->rank == 0) {
            cli_errorf("%s:%lu: exit status %d", b.path, b.lines[i].lineno, one);
        }
        first = first == CLI_OK ? one : first;
    }
    batch_fini(&b);
    return rc ? rc : first;
}
