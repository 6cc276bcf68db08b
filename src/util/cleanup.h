/* SPDX-License-Identifier: Apache-2.0 */
/* cleanup.h - temporary files and directories that never outlive the run:
 * their owner removes them at the end (success or failure), and once the
 * command line has asked for it (sd_cleanup_on_signals), a SIGINT, SIGTERM
 * or SIGHUP removes every one still registered before the process dies of
 * that signal. A SIGKILL cannot be caught: nothing can clean up after it.
 *
 *     sd_cleanup_hold(&old);               (signals wait, so that a file
 *     fd = mkstemp(path);                   made is always registered)
 *     sd_cleanup_add(path, 0);
 *     sd_cleanup_release(&old);
 *     ... rename(path, target) or unlink(path) ...
 *     sd_cleanup_forget(path);
 */
#ifndef SD_CLEANUP_H
#define SD_CLEANUP_H

#include <signal.h>

/** From now on, the first registration installs handlers for SIGINT,
 *  SIGTERM and SIGHUP (a signal the process was started ignoring stays
 *  ignored) that remove what is registered, then end the process with the
 *  same signal. For programs (the command line); a library user who wants
 *  it calls it too. */
void sd_cleanup_on_signals(void);
/** Register `path` (copied): a file (is_dir 0) or a directory tree
 *  (is_dir 1) to remove on a signal, in this process only (a forked child
 *  leaves its parent's alone). Returns 0, or -1 when the table (16 slots)
 *  is full or memory is short: the path is then not covered on signals,
 *  which is all that is lost. */
int sd_cleanup_add(const char *path, int is_dir);
/** The owner removed or renamed `path` itself: it is no longer covered
 *  (a path never added is a no-op). */
void sd_cleanup_forget(const char *path);
/** Hold SIGINT, SIGTERM and SIGHUP back (the previous mask in *old) while
 *  a temporary file is made and registered; sd_cleanup_release() lets
 *  them in again (one that came meanwhile is then delivered). */
void sd_cleanup_hold(sigset_t *old);
void sd_cleanup_release(const sigset_t *old);
/** Remove `path` and everything under it, whatever the depth: one open
 *  directory at a time, no recursion and no memory (so the signal handler
 *  uses it too). Symbolic links are removed, never followed. Returns 0
 *  (also when nothing is there) or -1 with errno set when something could
 *  not be removed (it stops there rather than loop). */
int sd_rmtree(const char *path);

#endif
