/* SPDX-License-Identifier: MIT */
/* Piping a text through an external renderer (Graphviz 'dot' for dfg --svg/--png, rsvg-convert
 * for the pictures' PNG) into a descriptor, with messages that name the program. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_analyze.h"

extern char **environ;

// Spawn p's program with in_fd as its standard input and out_fd as its standard output.
// 0 and *pid, or the posix_spawnp error.
static int spawn(const struct cli_pipe *p, int in_fd, int out_fd, pid_t *pid)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in_fd, STDIN_FILENO);
    posix_spawn_file_actions_addclose(&fa, in_fd);
    if (out_fd != STDOUT_FILENO) {
        posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
        posix_spawn_file_actions_addclose(&fa, out_fd);
    }
    fflush(stdout);
    int e = posix_spawnp(pid, p->args[0], &fa, NULL, p->args, environ);
    posix_spawn_file_actions_destroy(&fa);
    return e;
}

int cli_pipe_run(const struct cli_pipe *p, const char *data, size_t len, int out_fd)
{
    int in[2];
    if (pipe(in)) {
        cli_errorf("cannot create a pipe: %s", strerror(errno));
        return CLI_FAIL;
    }
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    pid_t pid;
    int e = spawn(p, in[0], out_fd, &pid);
    close(in[0]);
    if (e) {
        close(in[1]);
        if (e == ENOENT) {
            cli_errorf("%s", p->missing);
        } else {
            cli_errorf("cannot run %s: %s", p->name, strerror(e));
        }
        return CLI_FAIL;
    }
    struct sigaction ign, old;
    memset(&ign, 0, sizeof(ign));
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &old);
    int werr = cli_write_all(in[1], data, len) ? errno : 0;
    close(in[1]);
    sigaction(SIGPIPE, &old, NULL);
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            cli_errorf("waiting for %s: %s", p->name, strerror(errno));
            return CLI_FAIL;
        }
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        cli_errorf("%s failed (%s %d)", p->command, WIFEXITED(status) ? "exit status" : "signal",
                   WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        return CLI_FAIL;
    }
    if (werr) {
        cli_errorf("writing to %s: %s", p->name, strerror(werr));
        return CLI_FAIL;
    }
    return CLI_OK;
}
