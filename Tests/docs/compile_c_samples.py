"""Compiles every C sample of the docs (```c blocks in README.md and docs/*.md) against the C header, so that a
sample naming a function, field or constant the header lacks fails the test command. A sample is a fragment: it
is compiled inside a function that has `store` and `event`, inside a switch on the event's kind (samples show
`case` lines of an on_event), after a prelude declaring the names the samples leave to the game (ids, the
server's offer fields, its window scene, its own functions).
usage: compile_c_samples.py COMPILER INCLUDE_DIR WORK_DIR"""
import pathlib
import sys

import doc_samples

PRELUDE = r'''
#include <iosiap/iosiap.h>
#include <stdint.h>
#include <stdio.h>
#define __bridge /* Objective-C's bridged cast: the samples pass a window scene as void * */

/* What the samples leave to the game. */
extern struct game_state { int coins; } game;
extern struct screen_rows { int count; } screen;
extern const char *ids[];
extern size_t count;
extern const char *key_id, *nonce, *signature, *saved_message_id;
extern int64_t timestamp_ms;
extern void *window_scene;
extern uint64_t transaction_id;
extern const iosiap_product *gold;
void on_event(const iosiap_event *event, void *user_data);
void show_error(const char *message);
int version_before(const char *version, const char *than);
void grant_paid_edition(void);
void send_to_server(const char *jws);
void show_renewal(int state, int will_auto_renew, const char *product_id, int reason);
void add_row(const iosiap_transaction *transaction, void *user_data);
void show_country(const char *storefront);
'''


def main():
    compiler, include, work = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])

    def source(name, body):
        return (PRELUDE + f"\n/* {name} */\nvoid sample(iosiap_store *store, const iosiap_event *event) {{\n"
                "    switch (event->kind) {\n    default: {\n" + body + "    }\n    }\n}\n")

    def command(path):
        return [compiler, "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-Wno-unused-parameter",
                "-I", include, "-fsyntax-only", str(path)]

    return doc_samples.check_all("c", "C", "compile", work, source, command)


if __name__ == "__main__":
    sys.exit(main())
