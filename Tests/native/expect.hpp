// The native C++ tests' one assertion (C++11), as expect.h is the C tests': expect counts a check, and on failure
// prints the test's name, the condition and the library's last error message; main ends with `return report();`,
// which prints the count and exits non-zero on any failure. The including file defines TEST_NAME first.
#ifndef IOSIAP_TESTS_EXPECT_HPP
#define IOSIAP_TESTS_EXPECT_HPP

#include <iosiap/iosiap.h>

#include <cstdio>

#ifndef TEST_NAME
#error "define TEST_NAME (the name the test's lines start with) before including expect.hpp"
#endif

namespace {

int checks = 0, failures = 0;

void expect(bool condition, const char *what) {
    checks++;
    if (!condition) {
        failures++;
        std::fprintf(stderr, TEST_NAME ": expected %s (last error: %s)\n", what, iosiap_last_error_message());
    }
}

int report() {
    std::printf(TEST_NAME ": %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}

}  // namespace

#endif
