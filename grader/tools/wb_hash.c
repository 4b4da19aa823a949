/* wb_hash.c - print the salted hash of an answer, for storing expected answers in a grader */
/* SPDX-License-Identifier: MIT */
#include "wb_answers.h"

#include <stdio.h>

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s SALT KEY ANSWER\n", argv[0]);
        return 2;
    }
    char norm[WB_ANSWER_VALUE_MAX];
    wb_answer_normalise(argv[3], norm, sizeof norm);
    printf("0x%016llxULL /* %s, normalised \"%s\" */\n",
           (unsigned long long)wb_answer_hash(argv[1], argv[2], argv[3]), argv[2], norm);
    return 0;
}
