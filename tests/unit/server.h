/* SPDX-License-Identifier: Apache-2.0 */
/* server.h - start tests/httpd.py on a free loopback port for a unit test,
 * and stop it when the test ends (the server also exits by itself after its
 * time limit, or as soon as the test process is gone).
 *
 *   static t_server srv;
 *   if (t_server_start(&srv, "tests/resolve/http") < 0) ...
 *   t_server_url(&srv, "/int.json")  -> "http://127.0.0.1:PORT/int.json" (static buffer ring)
 *   t_server_count(&srv, "/int.json") -> requests that path received
 *
 * Tests run from the top of the tree (tests/run.sh does cd there). */
#ifndef SD_TEST_SERVER_H
#define SD_TEST_SERVER_H

#include <curl/curl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct t_server {
    pid_t pid;
    int port;
} t_server;

static t_server *t_server_running;

static void t_server_stop(t_server *s)
{
    if (s->pid > 0) {
        kill(s->pid, SIGTERM);
        waitpid(s->pid, NULL, 0);
    }
    s->pid = 0;
    if (t_server_running == s)
        t_server_running = NULL;
}

static void t_server_atexit(void)
{
    if (t_server_running)
        t_server_stop(t_server_running);
}

/* Start the server serving `root`; 0 on success, -1 (with a message) if not. */
static int t_server_start(t_server *s, const char *root)
{
    int fd[2];
    char line[64], parent[32];
    size_t n = 0;
    struct pollfd p;

    memset(s, 0, sizeof *s);
    /* loopback only: no proxy may see these requests */
    setenv("NO_PROXY", "*", 1);
    setenv("no_proxy", "*", 1);
    if (pipe(fd) < 0)
        return -1;
    snprintf(parent, sizeof parent, "%ld", (long)getpid());
    if ((s->pid = fork()) < 0)
        return -1;
    if (s->pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        execlp("python3", "python3", "tests/httpd.py", "--port", "0", "--root", root,
               "--time-limit", "120", "--parent", parent, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    t_server_running = s;
    atexit(t_server_atexit);
    p.fd = fd[0];
    p.events = POLLIN;
    while (n < sizeof line - 1 && !memchr(line, '\n', n)) {
        ssize_t r;
        if (poll(&p, 1, 15000) <= 0)
            break;
        if ((r = read(fd[0], line + n, sizeof line - 1 - n)) <= 0)
            break;
        n += (size_t)r;
        line[n] = '\0';
    }
    close(fd[0]);
    line[n] = '\0';
    if (sscanf(line, "port %d", &s->port) != 1) {
        fprintf(stderr, "server.h: tests/httpd.py did not start (got '%s')\n", line);
        t_server_stop(s);
        return -1;
    }
    return 0;
}

/* "http://127.0.0.1:PORT" + path, in one of 8 rotating static buffers. */
static const char *t_server_url(const t_server *s, const char *path)
{
    static char bufs[8][512];
    static int next;
    char *b = bufs[next++ & 7];
    snprintf(b, sizeof bufs[0], "http://127.0.0.1:%d%s", s->port, path);
    return b;
}

static size_t t_server_sink(char *p, size_t size, size_t n, void *payload)
{
    char *out = payload;
    size_t have = strlen(out), len = size * n;
    if (have + len < 64) {
        memcpy(out + have, p, len);
        out[have + len] = '\0';
    }
    return len;
}

/* A small GET straight through libcurl: the text of the answer. */
static const char *t_server_get(const t_server *s, const char *path)
{
    static char out[64];
    CURL *c = curl_easy_init();
    out[0] = '\0';
    if (!c)
        return out;
    curl_easy_setopt(c, CURLOPT_URL, t_server_url(s, path));
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, t_server_sink);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, (void *)out);
    curl_easy_perform(c);
    curl_easy_cleanup(c);
    return out;
}

/* How many requests `path` has received. */
static long t_server_count(const t_server *s, const char *path)
{
    char q[512];
    snprintf(q, sizeof q, "/__count?path=%s", path);
    return atol(t_server_get(s, q));
}

#endif
