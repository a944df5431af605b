#ifndef KK_PROCESS_SHIM_H
#define KK_PROCESS_SHIM_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/// glibc's ppoll(2), declared here because <poll.h> hides it without _GNU_SOURCE.
int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const sigset_t *sigmask);

/* The guard's SIGCHLD handler: it only has to end the guard's wait. */
static inline void kk_guard_woken(int signal) { (void)signal; }

/* Starts a player under a guard, so that no player outlives karaoke, however karaoke ends.
 *
 * Process tree: karaoke -> guard -> player. The guard is forked here and runs only the C below (nothing
 * but async-signal-safe calls, as a fork of a threaded process must). It moves itself and the player to
 * a process group of their own, so Ctrl-C, Ctrl-Z and the terminal's hangup reach karaoke alone, which
 * then decides. It blocks on `lifeline` (the read end of a pipe whose write end only karaoke holds):
 * when karaoke closes it or dies, even by SIGKILL, the read returns 0; the guard then stops the player
 * (SIGTERM, SIGKILL after a second), removes `remove_file` and `remove_dir`, and exits. It exits too, after
 * the same clean-up, when the player ends first, so karaoke can tell a player that quit before it could
 * be reached (one that could not open its file) by the guard's end.
 *
 * Returns the guard's pid, or -1 with errno set. `argv[0]` is run by `path` with `envp`.
 */
static inline pid_t kk_spawn_guarded(const char *path, char *const argv[], char *const envp[],
                                     int lifeline_read, int lifeline_write,
                                     const char *remove_file, const char *remove_dir) {
    pid_t guard = fork();
    if (guard != 0) return guard;

    /* The guard. */
    setpgid(0, 0);
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGINT, &ignore, 0);
    sigaction(SIGQUIT, &ignore, 0);
    sigaction(SIGHUP, &ignore, 0);
    sigaction(SIGTSTP, &ignore, 0);
    sigaction(SIGTTOU, &ignore, 0);
    sigaction(SIGTTIN, &ignore, 0);
    sigaction(SIGPIPE, &ignore, 0);
    /* SIGCHLD is caught (by a handler that does nothing) so that it ends the wait below, and blocked except
     * while waiting, so that a player that ends before the wait still ends it. */
    struct sigaction wake;
    memset(&wake, 0, sizeof wake);
    wake.sa_handler = kk_guard_woken;
    sigaction(SIGCHLD, &wake, 0);
    sigset_t onlyChild;
    sigemptyset(&onlyChild);
    sigaddset(&onlyChild, SIGCHLD);
    sigprocmask(SIG_SETMASK, &onlyChild, 0);
    sigset_t none;
    sigemptyset(&none);
    close(lifeline_write);
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
    }
    /* Nothing of karaoke's (the terminal, sockets) stays open in the guard or the player. */
    for (int fd = 3; fd < 1024; fd++) {
        if (fd != lifeline_read) close(fd);
    }

    pid_t player = fork();
    if (player == 0) {
        close(lifeline_read);
        struct sigaction restore;
        memset(&restore, 0, sizeof restore);
        restore.sa_handler = SIG_DFL;
        for (int signal = 1; signal < 32; signal++) sigaction(signal, &restore, 0);
        sigprocmask(SIG_SETMASK, &none, 0);
        execve(path, argv, envp);
        _exit(127);
    }

    /* Wait for karaoke to let go, or for the player to end. */
    int status;
    int ended = player <= 0;
    while (!ended) {
        if (waitpid(player, &status, WNOHANG) == player) {
            ended = 1;
            break;
        }
        struct pollfd lifeline = { lifeline_read, POLLIN, 0 };
        int ready = ppoll(&lifeline, 1, 0, &none);
        if (ready < 0 && errno != EINTR) break;
        if (ready > 0) {
            char byte;
            ssize_t count = read(lifeline_read, &byte, 1);
            if (count == 0 || (count < 0 && errno != EINTR)) break;
        }
    }
    if (!ended && player > 0) {
        kill(player, SIGTERM);
        struct timespec tick = { 0, 20 * 1000 * 1000 };
        int waited = 0;
        while (waitpid(player, &status, WNOHANG) == 0) {
            if (waited == 50) kill(player, SIGKILL);
            if (waited > 100) break;
            nanosleep(&tick, 0);
            waited++;
        }
    }
    if (remove_file) unlink(remove_file);
    if (remove_dir) rmdir(remove_dir);
    _exit(0);
}

/// Waits like poll(2) for `milliseconds` (negative: without end) with the signal mask `mask` only while it
/// waits: the follow loop keeps its signals blocked otherwise, so one that comes just before the wait still
/// ends it at once instead of being slept through.
static inline int kk_poll_with_mask(struct pollfd *fds, unsigned long count, int milliseconds, const sigset_t *mask) {
    struct timespec limit;
    struct timespec *limitPointer = NULL;
    if (milliseconds >= 0) {
        limit.tv_sec = milliseconds / 1000;
        limit.tv_nsec = (long)(milliseconds % 1000) * 1000000L;
        limitPointer = &limit;
    }
    return ppoll(fds, (nfds_t)count, limitPointer, mask);
}

#endif
