/* asan_fixture.c - a student's library of host code alone, for the self-test of the grader's
 * AddressSanitizer tests: one clean function, one that writes past a malloc'd block, one that
 * writes below a stack array (the two kinds of lab 06's surviving mutants) */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>

/* The sum 0 + 1 + ... + n-1, through a malloc'd array: clean. */
int fixture_clean(int n) {
    int *v = (int *)malloc((size_t)n * sizeof *v);
    int sum = 0;
    for (int i = 0; v && i < n; i++)
        v[i] = i;
    for (int i = 0; v && i < n; i++)
        sum += v[i];
    free(v);
    return sum;
}

/* The same sum with the fill loop one too long: for n = 4 the 16 bytes malloc gave get a fifth
 * int, in the 8 bytes of slack glibc keeps after them, and the sum stays right. */
int fixture_heap_past_end(int n) {
    int *v = (int *)malloc((size_t)n * sizeof *v);
    int sum = 0;
    for (int i = 0; v && i <= n; i++)
        v[i] = i;
    for (int i = 0; v && i < n; i++)
        sum += v[i];
    free(v);
    return sum;
}

/* The sum of n timed laps after a warm-up, each lap stored at ms[lap - 1]: the warm-up (lap 0)
 * stores below the array, where the frame has room, and the sum stays right. */
int fixture_stack_below(int n) {
    double ms[8];
    int sum = 0;
    for (int lap = 0; lap <= 8; lap++)
        if (lap >= 0)
            ms[lap - 1] = lap < n ? lap : 0;
    for (int i = 0; i < 8; i++)
        sum += (int)ms[i];
    return sum;
}
