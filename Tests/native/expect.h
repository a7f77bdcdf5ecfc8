/*
 * The native tests' one assertion: EXPECT counts a check, and on failure prints the line, the condition and
 * the library's last error message; the test's main reports `checks - failures` and exits non-zero on any.
 */
#ifndef IOSIAP_TESTS_EXPECT_H
#define IOSIAP_TESTS_EXPECT_H

#include <iosiap/iosiap.h>
#include <stdio.h>

static int checks, failures;
#define EXPECT(condition) expect((condition), #condition, __LINE__)
static void expect(int condition, const char *what, int line) {
    checks++;
    if (!condition) {
        failures++;
        fprintf(stderr, "line %d: expected %s (last error: %s)\n", line, what, iosiap_last_error_message());
    }
}

#endif
