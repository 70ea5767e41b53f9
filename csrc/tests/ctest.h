/* ctest.h -- a minimal C test harness for the sanitizer builds.
 *
 * Each csrc/tests/test_*.c is one program: it defines tests with CTEST(name) and
 * lists them in main via ctest_run().  The program prints "N passed, M failed" and
 * exits nonzero on any failure.  tests/core/test_c_sanitizers.py compiles every such file
 * with the whole core under -fsanitize=address,undefined and runs it.
 */
#ifndef MIAI_CTEST_H
#define MIAI_CTEST_H

#include <stdio.h>
#include <stdlib.h>

static int ctest_failures_in_test;

#define CHECK(cond)                                                                   \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);  \
            ctest_failures_in_test++;                                                 \
        }                                                                             \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                            \
    do {                                                                              \
        unsigned long long ctest_a = (unsigned long long)(a);                          \
        unsigned long long ctest_b = (unsigned long long)(b);                          \
        if (ctest_a != ctest_b) {                                                     \
            fprintf(stderr, "%s:%d: %s == %llu, expected %s == %llu\n", __FILE__,     \
                    __LINE__, #a, ctest_a, #b, ctest_b);                              \
            ctest_failures_in_test++;                                                 \
        }                                                                             \
    } while (0)

typedef struct {
    const char *name;
    void (*fn)(void);
} ctest_case;

static inline int ctest_run(const ctest_case *cases, int n) {
    int passed = 0, failed = 0;
    for (int i = 0; i < n; i++) {
        ctest_failures_in_test = 0;
        cases[i].fn();
        if (ctest_failures_in_test) {
            fprintf(stderr, "FAIL %s\n", cases[i].name);
            failed++;
        } else {
            passed++;
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

#endif
