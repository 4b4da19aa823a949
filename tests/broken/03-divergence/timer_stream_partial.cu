/* timer_stream_partial.cu - hostile lab 03: less work on the stream it has seen most, all of it on a new one */
/* SPDX-License-Identifier: MIT */
/* The timer calls it many times on one stream; a check made afterwards on
 * a stream of its own would see a whole output. Only a check of one of the
 * timed calls themselves catches it.
 * expect: perf.run FAIL never written */
#define divergence_run reference_run
#include "../../../solutions/03-divergence/divergence.cu"
#undef divergence_run

static cudaStream_t busiest;
static int calls_on_busiest;

extern "C" cudaError_t divergence_run(const float *d_in, float *d_out, int n, cudaStream_t stream) {
    if (stream != NULL && stream == busiest)
        calls_on_busiest++;
    else if (stream != NULL && calls_on_busiest < 8) {
        busiest = stream;
        calls_on_busiest = 1;
    }
    /* "The benchmark's stream": 70 % of the elements once it has been used
     * more than 8 times; every element anywhere else. */
    if (stream != NULL && stream == busiest && calls_on_busiest > 8 && n >= (1 << 22))
        n = n / 10 * 7;
    return reference_run(d_in, d_out, n, stream);
}
