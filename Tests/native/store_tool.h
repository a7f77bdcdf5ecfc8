/*
 * QA acting on the store from outside, for the native tests: `iosiap-store --state STATE --catalog CATALOG ...`
 * run in another process, as QA runs it beside the game; and QA(), a change made with the local store's C control,
 * or over StoreKit (the stand-in's build, where the C controls, which need a local store, do not reach) with
 * iosiap-store. The including file calls use_store_tool first.
 */
#ifndef IOSIAP_TESTS_STORE_TOOL_H
#define IOSIAP_TESTS_STORE_TOOL_H

#include <stdio.h>
#include <stdlib.h>

static const char *store_tool, *store_tool_state, *store_tool_catalog;

/* The iosiap-store executable, and the state directory and catalog it acts on. */
static inline void use_store_tool(const char *tool, const char *state, const char *catalog) {
    store_tool = tool;
    store_tool_state = state;
    store_tool_catalog = catalog;
}

/* Runs iosiap-store with `arguments` (shell words: a pipe may follow, its output goes to the test's unless they
   send it elsewhere); 1 if the command exited 0. */
static inline int run(const char *arguments) {
    char command[4096];
    snprintf(command, sizeof command, "'%s' --state '%s' --catalog '%s' %s", store_tool, store_tool_state,
             store_tool_catalog, arguments);
    return system(command) == 0;
}

/* `run`, its output dropped. */
static inline int run_quiet(const char *arguments) {
    char command[4096];
    snprintf(command, sizeof command, "%s >/dev/null", arguments);
    return run(command);
}

/* Whether iosiap-store with `arguments` is refused with `status` (it exits 1 naming it: "... [-7]"). */
static inline int refused_outside(const char *arguments, int status) {
    char command[1024];
    snprintf(command, sizeof command, "%s 2>&1 >/dev/null | grep -qF -- '[%d]'", arguments, status);
    return run(command);
}

/* QA's change, and one the store refuses with `status`. */
#ifdef IOSIAP_STOREKIT_STANDIN
#define QA(local_control, arguments) run_quiet(arguments)
#define QA_REFUSED(local_control, arguments, status) refused_outside((arguments), (status))
#else
#define QA(local_control, arguments) ((local_control) == IOSIAP_OK)
#define QA_REFUSED(local_control, arguments, status) ((local_control) == (status))
#endif

#endif
