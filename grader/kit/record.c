/* record.c - the record channel: what a test's process tells the parent, one line a fact */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "kit.h"
#include "wb_rng.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A test's record is lines of "key<TAB>value" (measured, hint, reason,
 * skip, rerun, csv and, last, done) written to a pipe the parent opens just
 * before Check forks the test: the test's process and its children hold
 * the write end, the parent reads the other end while the test runs. No
 * file is involved, so nothing a test does can reach another test's record;
 * only the parent writes reports. Without a channel (a body run under a
 * tool, --run-body) records go nowhere: there the body prints its verdict. */

#define RECORD_MAX (4u << 20) /* bytes kept of one test's record */

static struct {
    int rd;               /* the parent's read end, or -1 */
    pthread_t reader;
    volatile int stop;    /* set once the test's processes are gone */
    char *buf;
    size_t len, cap;
    int overflow;         /* the record was cut at RECORD_MAX */
} ch = {.rd = -1};

/* The key of the running test's "done" line, made at random in the parent
 * just before the test is forked. A test's process holds the channel's
 * write end, and so does the code under test, which can write any line to
 * it and end with the kit's exit status: a "done" line is taken only with
 * this key, and one without it makes the test fail as forged. The test's
 * process holds the key too (it is not a secret from code that reads the
 * grader's memory), but a record written blind no longer passes. */
static char done_key[33];

static void make_done_key(void) {
    unsigned char k[16];
    wb_rng_entropy(k, sizeof k);
    for (size_t i = 0; i < sizeof k; i++)
        snprintf(done_key + 2 * i, 3, "%02x", k[i]);
}

static void keep(const char *p, size_t n) {
    if (ch.len + n > RECORD_MAX) {
        ch.overflow = 1;
        return;
    }
    if (ch.len + n + 1 > ch.cap) {
        size_t cap = ch.cap ? ch.cap : 65536;
        while (cap < ch.len + n + 1)
            cap *= 2;
        char *b = realloc(ch.buf, cap);
        if (!b) {
            ch.overflow = 1;
            return;
        }
        ch.buf = b;
        ch.cap = cap;
    }
    memcpy(ch.buf + ch.len, p, n);
    ch.len += n;
    ch.buf[ch.len] = '\0';
}

/* Reads the pipe until every write end is closed, or until the parent says
 * stop and nothing more comes, or a second after stop whatever comes (a
 * process that escaped the reaping still holds a write end: the parent
 * does not wait for it). */
static void *reader(void *arg) {
    (void)arg;
    char b[65536];
    double stopped = 0;
    for (;;) {
        struct pollfd p = {ch.rd, POLLIN, 0};
        int r = poll(&p, 1, 100);
        if (ch.stop && stopped == 0)
            stopped = wb_now_s();
        if (stopped > 0 && wb_now_s() - stopped > 1.0)
            break;
        if (r < 0 && errno != EINTR)
            break;
        if (r == 0) {
            if (ch.stop)
                break;
            continue;
        }
        ssize_t n = read(ch.rd, b, sizeof b);
        if (n > 0)
            keep(b, (size_t)n);
        else if (n == 0 || (errno != EINTR && errno != EAGAIN))
            break;
    }
    return NULL;
}

/* In the parent, before the test is forked: a fresh channel. The write
 * end goes to G.record_fd, which the forked test inherits; both ends are
 * closed on exec, so no tool or program the test starts holds them. */
int wb_record_open(void) {
    int fd[2];
    ch.len = 0;
    ch.overflow = 0;
    ch.stop = 0;
    make_done_key();
    if (ch.buf)
        ch.buf[0] = '\0';
    if (pipe2(fd, O_CLOEXEC) != 0)
        return -1;
    ch.rd = fd[0];
    G.record_fd = fd[1];
    if (pthread_create(&ch.reader, NULL, reader, NULL) != 0) {
        close(fd[0]);
        close(fd[1]);
        ch.rd = G.record_fd = -1;
        return -1;
    }
    return 0;
}

/* In the parent, once the test's processes are gone: the rest of the
 * record, then the channel closed. */
void wb_record_close(void) {
    if (ch.rd < 0)
        return;
    close(G.record_fd);
    G.record_fd = -1;
    ch.stop = 1;
    pthread_join(ch.reader, NULL);
    close(ch.rd);
    ch.rd = -1;
}

/* In the test's process: the read end is the parent's alone. */
void wb_record_child_start(void) {
    if (ch.rd >= 0)
        close(ch.rd);
    ch.rd = -1;
}

/* Appends "key<TAB>field<TAB>field..." to test idx's record, one line, in
 * one write (so lines of the test's processes never interleave); tabs and
 * breaks inside a field are flattened to spaces. */
void wb_record_put_fields(int idx, const char *key, int n, const char *const *fields) {
    (void)idx; /* the channel is the running test's own */
    if (G.record_fd < 0)
        return;
    char line[2048];
    size_t len = 0;
    for (const char *p = key; *p && len < sizeof line - 2; p++)
        line[len++] = *p;
    for (int k = 0; k < n; k++) {
        if (len < sizeof line - 2)
            line[len++] = '\t';
        for (const char *p = fields[k] ? fields[k] : ""; *p && len < sizeof line - 2; p++)
            line[len++] = *p == '\n' || *p == '\t' || *p == '\r' ? ' ' : *p;
    }
    line[len++] = '\n';
    for (size_t off = 0; off < len;) {
        ssize_t w = write(G.record_fd, line + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        off += (size_t)w;
    }
}

void wb_record_put(int idx, const char *key, const char *value) {
    wb_record_put_fields(idx, key, 1, &value);
}

void wb_record_done(int idx) {
    wb_record_put(idx, "done", done_key);
}

/* One "csv" line of a record: the measurement, with the run's lab, set,
 * test, GPU and seed, goes to measurements.csv. */
static void csv_line(const wb_result *r, char *v) {
    if (!G.csv)
        return;
    char *fld[5] = {0};
    /* Split at every tab, keeping empty fields (a unit may be ""): strtok
     * would merge two tabs and shift every later column. */
    char *p = v;
    for (int k = 0; k < 5 && p; k++) {
        char *tab = strchr(p, '\t');
        if (tab)
            *tab = '\0';
        wb_text_clean(p); /* written by the test's process: any bytes at all */
        fld[k] = p;
        p = tab ? tab + 1 : NULL;
    }
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)G.seed);
    const char *row[] = {G.lab->name, G.opt.set, r->id, fld[0], fld[1], fld[2],
                         fld[3],      fld[4],    G.gpu_ok ? G.gpu.name : "", seed};
    wb_csv_row(G.csv, 10, row);
    fflush(G.csv);
}

/* Reads the record the channel carried into r (measured, hint, reason)
 * and s; idx is the test it belongs to (the channel is opened per test). */
/* 1 when the record holds a "done" line without the test's key. */
static int record_forged(void) {
    for (const char *p = ch.buf; p && *p;) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n >= 5 && strncmp(p, "done\t", 5) == 0 &&
            !(done_key[0] && n - 5 == strlen(done_key) && strncmp(p + 5, done_key, n - 5) == 0))
            return 1;
        p = end ? end + 1 : p + n;
    }
    return 0;
}

void wb_record_read(int idx, wb_result *r, wb_record_summary *s) {
    (void)idx;
    memset(s, 0, sizeof *s);
    /* A forged record: nothing in it is taken (its measured text, hint and
     * measurements may be the forger's too), only the verdict that it was. */
    if (record_forged()) {
        if (ch.buf)
            ch.buf[0] = '\0';
        snprintf(r->reason, sizeof r->reason,
                 "the test's record holds a \"done\" line the grader did not write: the code "
                 "under test wrote to the grader's record channel, and a verdict it writes "
                 "is not taken");
        s->has_reason = 1;
    }
    char *save = NULL;
    for (char *line = ch.buf ? strtok_r(ch.buf, "\n", &save) : NULL; line;
         line = strtok_r(NULL, "\n", &save)) {
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        char *v = tab + 1;
        if (strcmp(line, "measured") == 0)
            snprintf(r->measured, sizeof r->measured, "%s", v);
        else if (strcmp(line, "hint") == 0)
            snprintf(r->hint, sizeof r->hint, "%s", v);
        else if (strcmp(line, "reason") == 0) {
            snprintf(r->reason, sizeof r->reason, "%s", v);
            s->has_reason = 1;
        } else if (strcmp(line, "done") == 0) {
            s->complete = 1; /* its key was checked above */
        } else if (strcmp(line, "skip") == 0) {
            snprintf(r->reason, sizeof r->reason, "%s", v);
            s->skipped = 1;
        } else if (strcmp(line, "rerun") == 0) {
            snprintf(r->reason, sizeof r->reason, "%s", v);
            s->rerun = 1;
        } else if (strcmp(line, "csv") == 0) {
            csv_line(r, v);
        }
    }
    if (ch.overflow && !s->has_reason) {
        snprintf(r->reason, sizeof r->reason,
                 "the test's record passed %u bytes: it was cut there (did the code under "
                 "test write to the grader's record channel?)",
                 RECORD_MAX);
        s->has_reason = 1;
    }
    if (ch.buf)
        ch.len = 0, ch.buf[0] = '\0';
}
