/* wb_csv.h - splitting one line of comma-separated values in place */
/* SPDX-License-Identifier: MIT */
#ifndef WB_CSV_H
#define WB_CSV_H

#ifdef __cplusplus
extern "C" {
#endif

/* Splits line at its commas, in place: f[0 .. max-1] point at the first
 * fields, a field that starts with a double quote ends at the next one
 * (quotes removed, commas inside kept). Returns the number of fields in the
 * line, which may exceed max (the extra ones are not stored); an empty line
 * is one empty field. */
int wb_csv_split(char *line, char **f, int max);

#ifdef __cplusplus
}
#endif

#endif
