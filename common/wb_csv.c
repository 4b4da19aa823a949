/* wb_csv.c - splitting one line of comma-separated values in place */
/* SPDX-License-Identifier: MIT */
#include "wb_csv.h"

#include <string.h>

int wb_csv_split(char *line, char **f, int max) {
    int n = 0;
    for (char *p = line;;) {
        char *start = p;
        if (*p == '"') {
            start = ++p;
            while (*p && *p != '"')
                p++;
            if (*p)
                *p++ = '\0';
        }
        if (n < max)
            f[n] = start;
        n++;
        p = strchr(p, ',');
        if (!p)
            return n;
        *p++ = '\0';
    }
}
