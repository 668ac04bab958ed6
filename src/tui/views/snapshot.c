/* SPDX-License-Identifier: MIT */
/* Snapshots of the picture views: the proposed name, the SVG written atomically, the PNG made by
 * rsvg-convert (a child process with the SVG on its input and the temp file as its output;
 * nothing of it reaches the terminal). */
#include "config.h"

#include "tui/views/snapshot.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "iodfg/atomicfile.h"
#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/format.h"

#include "tui/app.h"
#include "tui/views/picture.h"

extern char **environ;

void tui_snapshot_name(const char *view, char *out, size_t size)
{
    for (unsigned n = 1; n < 100000; n++) {
        snprintf(out, size, "iodfg-%s-%u.svg", view, n);
        if (access(out, F_OK) != 0) {
            return;
        }
    }
}

unsigned tui_snapshot_ask(struct tui_app *app, const char *view)
{
    char name[128];
    tui_snapshot_name(view, name, sizeof(name));
    return tui_app_ask(app, TUI_PROMPT_EXPORT_SVG, "snapshot to (.svg; .png via rsvg-convert)",
                       name);
}

static int is_png(const char *path)
{
    size_t n = strlen(path);
    return n > 4 && strcasecmp(path + n - 4, ".png") == 0;
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Start rsvg-convert reading the SVG from a pipe (*in_fd, closed on exec) and writing the PNG
 * to out_fd, its errors to /dev/null. 0, or -1 with err. */
static int spawn_rsvg(int out_fd, pid_t *pid, int *in_fd, struct iodfg_error *err)
{
    int in[2];
    if (pipe(in)) {
        return iodfg_error_set(err, IODFG_E_IO, "cannot create a pipe: %s", strerror(errno));
    }
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclose(&fa, in[0]);
    posix_spawn_file_actions_addclose(&fa, out_fd);
    char prog[] = "rsvg-convert", f[] = "-f", png[] = "png";
    char *args[] = {prog, f, png, NULL};
    int e = posix_spawnp(pid, prog, &fa, NULL, args, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    if (e) {
        close(in[1]);
        return e == ENOENT
                   ? iodfg_error_set(err, IODFG_E_IO,
                                     "a PNG needs rsvg-convert, which is not installed "
                                     "or not on PATH (Debian: librsvg2-bin); give a "
                                     ".svg name")
                   : iodfg_error_set(err, IODFG_E_IO, "cannot run rsvg-convert: %s", strerror(e));
    }
    *in_fd = in[1];
    return 0;
}

/* The PNG of the SVG into out_fd. 0, or -1 with err. */
static int render_png(const char *svg, size_t len, int out_fd, struct iodfg_error *err)
{
    pid_t pid = -1;
    int in = -1;
    if (spawn_rsvg(out_fd, &pid, &in, err)) {
        return -1;
    }
    struct sigaction ign, old;
    memset(&ign, 0, sizeof(ign));
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &old);
    int werr = write_all(in, svg, len) ? errno : 0;
    close(in);
    sigaction(SIGPIPE, &old, NULL);
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            return iodfg_error_set(err, IODFG_E_IO, "waiting for rsvg-convert: %s",
                                   strerror(errno));
        }
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        return iodfg_error_set(err, IODFG_E_IO, "rsvg-convert failed (%s %d)",
                               WIFEXITED(status) ? "exit status" : "signal",
                               WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    }
    return werr ? iodfg_error_set(err, IODFG_E_IO, "writing to rsvg-convert: %s", strerror(werr))
                : 0;
}

int tui_snapshot_write(const char *path, const char *svg, size_t len, struct iodfg_error *err)
{
    struct stat sb;
    if (lstat(path, &sb) == 0) { // said here for the TUI (the writers would refuse it too)
        iodfg_error_set(err, IODFG_E_EXISTS, "the file exists and is kept: give another name");
        iodfg_error_at(err, path, 0, 0);
        return -1;
    }
    if (!is_png(path)) {
        return iodfg_atomic_write(path, svg, len, 0, err);
    }
    char *tmp = NULL;
    int fd = iodfg_atomic_tmpfile(path, &tmp, err);
    if (fd < 0) {
        return -1;
    }
    int rc = render_png(svg, len, fd, err);
    close(fd);
    if (rc == 0) {
        rc = iodfg_atomic_publish(tmp, path, 0, err);
    }
    if (rc) {
        unlink(tmp);
    }
    free(tmp);
    return rc;
}

unsigned tui_snapshot_done(struct tui_app *app, void *st, const char *path, tui_snapshot_fn fn)
{
    if (!path || !*path) {
        return TUI_REDRAW;
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct tui_picture_texts t;
    tui_picture_texts_init(&t, app);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    int rc = fn(app, st, &t.meta, &b, &err);
    if (rc == 0 && (b.failed || t.filters.failed || t.groups.failed || t.rules.failed)) {
        rc = iodfg_error_set(&err, IODFG_E_NOMEM, NULL);
    }
    if (rc == 0) {
        rc = tui_snapshot_write(path, b.data ? b.data : "", b.len, &err);
    }
    if (rc) {
        tui_app_report(app, "snapshot", &err);
    } else {
        char n[IODFG_FORMAT_MIN];
        tui_app_set_message(app, 0, "wrote %s (%s of SVG%s)", path,
                            iodfg_format_bytes(n, sizeof(n), (int64_t)b.len, 0),
                            is_png(path) ? ", as PNG by rsvg-convert" : "");
    }
    iodfg_buf_fini(&b);
    tui_picture_texts_fini(&t);
    return TUI_REDRAW;
}
