/* check_dv_edge.c - unit tests of lab 03: edge warps computed without a GPU, and their sample CSV
 */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dv_edge.h"
#include "wb_answers.h"

/* The salt of lab 03's answer hashes (WB_LAB_MAIN: the lab's name and "/v1"). */
#define SALT "03-divergence/v1"
/* The picture's sample: the CSV the grader's own code writes, from the
 * masks it computes, for the images no question asks about. */
#define SAMPLE "slides/samples/03-edge-warps.csv"
#define SAMPLE_NEW "build/tests/03-edge-warps.csv"

static int edge_warp(int width, int bx, int by, int k) {
    return (by * dv_edge_blocks_x(width) + bx) * DV_EDGE_WARPS_PER_BLOCK + k;
}

/* README.md, "Boundary checks", region by region: 40 x 20 in 3 x 2 blocks. */
START_TEST(test_chapter_example) {
    ck_assert_int_eq(dv_edge_warps(40, 20), 48);
    for (int k = 0; k < DV_EDGE_WARPS_PER_BLOCK; k++) {
        ck_assert_str_eq(dv_edge_state(dv_edge_expected(40, 20, edge_warp(40, 0, 0, k))), "inside");
        ck_assert_str_eq(dv_edge_state(dv_edge_expected(40, 20, edge_warp(40, 1, 0, k))), "inside");
        /* the right edge cuts every warp of block (2, 0): columns 32..39 of 32..47 */
        ck_assert_uint_eq(dv_edge_expected(40, 20, edge_warp(40, 2, 0, k)), 0x00FF00FFu);
        /* the bottom edge falls between warps 1 and 2 (rows 16..19 inside) */
        const char *bottom = k < 2 ? "inside" : "outside";
        ck_assert_str_eq(dv_edge_state(dv_edge_expected(40, 20, edge_warp(40, 0, 1, k))), bottom);
        ck_assert_str_eq(dv_edge_state(dv_edge_expected(40, 20, edge_warp(40, 1, 1, k))), bottom);
        const char *corner = k < 2 ? "divergent" : "outside";
        ck_assert_str_eq(dv_edge_state(dv_edge_expected(40, 20, edge_warp(40, 2, 1, k))), corner);
    }
    ck_assert_int_eq(dv_edge_divergent(40, 20), 10);
}
END_TEST

/* An odd height puts the bottom edge between a warp's two rows: lane l is
 * row l / 16 of the warp, so the first row's 16 lanes are inside. */
START_TEST(test_odd_height_lanes) {
    ck_assert_uint_eq(dv_edge_expected(70, 37, edge_warp(70, 0, 2, 2)), 0x0000FFFFu);
    ck_assert_uint_eq(dv_edge_expected(70, 37, edge_warp(70, 4, 2, 2)), 0x0000003Fu);
    ck_assert_uint_eq(dv_edge_expected(70, 37, edge_warp(70, 4, 2, 3)), 0);
    ck_assert_int_eq(dv_edge_divergent(70, 37), 23);
}
END_TEST

/* The counts the picture draws are the answers question.<key> accepts, so a
 * question's image is drawn exactly when its question passes. */
START_TEST(test_question_images_agree_with_hashes) {
    int questions = 0;
    for (int i = 0; i < dv_edge_n_images; i++) {
        const dv_edge_image *img = &dv_edge_images[i];
        if (!img->question)
            continue;
        char count[16];
        snprintf(count, sizeof count, "%d", dv_edge_divergent(img->width, img->height));
        ck_assert_msg(wb_answer_hash(SALT, img->question, count) == img->hash,
                      "the count computed for %d x %d is not the answer %s accepts", img->width,
                      img->height, img->question);
        questions++;
    }
    ck_assert_int_eq(questions, 3);
}
END_TEST

/* A warp whose records differ is written with what it recorded, agrees 0. */
START_TEST(test_csv_flags_a_differing_warp) {
    int n = dv_edge_warps(40, 20);
    dv_edge_record *rec = calloc((size_t)n, sizeof *rec);
    for (int w = 0; w < n; w++) {
        unsigned e = dv_edge_expected(40, 20, w);
        rec[w] = (dv_edge_record){0xFFFFFFFFu, e, e};
    }
    int bad = edge_warp(40, 2, 1, 0);
    rec[bad].active = 0xFFFFFFFFu; /* a mask read before the if */
    rec[0].present = 0xFFFFu;      /* a warp not all of whose lanes ran */
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    ck_assert_int_eq(dv_edge_csv_rows(f, 40, 20, rec), 2);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(text,
                                 "40x20,40,20,2,1,0,32,16,32,11111111111111111111111111111111,"
                                 "11111111000000001111111100000000,inside,0\n"));
    ck_assert_ptr_nonnull(strstr(text, "40x20,40,20,0,0,0,0,0,32,"));
    ck_assert_ptr_nonnull(strstr(text, ",inside,0\n40x20,40,20,0,0,1,"));
    free(text);
    free(rec);
}
END_TEST

/* The sample is the CSV the grader writes, with the records every warp must
 * make, for the images no question asks about, and no other. */
START_TEST(test_sample_is_the_grader_csv) {
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    dv_edge_csv_header(f);
    for (int i = 0; i < dv_edge_n_images; i++) {
        const dv_edge_image *img = &dv_edge_images[i];
        if (img->question)
            continue;
        int n = dv_edge_warps(img->width, img->height);
        dv_edge_record *rec = calloc((size_t)n, sizeof *rec);
        for (int w = 0; w < n; w++) {
            unsigned e = dv_edge_expected(img->width, img->height, w);
            rec[w] = (dv_edge_record){0xFFFFFFFFu, e, e};
        }
        ck_assert_int_eq(dv_edge_csv_rows(f, img->width, img->height, rec), 0);
        free(rec);
    }
    fclose(f);
    FILE *s = fopen(SAMPLE, "r");
    char *want = calloc(size + 2, 1);
    size_t got = s ? fread(want, 1, size + 1, s) : 0;
    if (s)
        fclose(s);
    if (!s || got != size || memcmp(want, text, size) != 0) {
        FILE *o = fopen(SAMPLE_NEW, "w");
        if (o) {
            fwrite(text, 1, size, o);
            fclose(o);
        }
        ck_abort_msg("%s is missing or not what the grader's CSV code writes (written to %s: "
                     "copy it over if the grader's images or columns changed)",
                     SAMPLE, SAMPLE_NEW);
    }
    for (int i = 0; i < dv_edge_n_images; i++) {
        char row[32];
        snprintf(row, sizeof row, "\n%dx%d,", dv_edge_images[i].width, dv_edge_images[i].height);
        ck_assert_msg((strstr(want, row) != NULL) == (dv_edge_images[i].question == NULL),
                      "%s: the %d x %d image %s", SAMPLE, dv_edge_images[i].width,
                      dv_edge_images[i].height,
                      dv_edge_images[i].question ? "is a question's: it must not be in the sample"
                                                 : "is missing");
    }
    free(want);
    free(text);
}
END_TEST

static Suite *dv_edge_suite(void) {
    Suite *s = suite_create("dv_edge");
    TCase *tc = tcase_create("edge warps");
    tcase_add_test(tc, test_chapter_example);
    tcase_add_test(tc, test_odd_height_lanes);
    tcase_add_test(tc, test_question_images_agree_with_hashes);
    tcase_add_test(tc, test_csv_flags_a_differing_warp);
    tcase_add_test(tc, test_sample_is_the_grader_csv);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(dv_edge_suite());
    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
