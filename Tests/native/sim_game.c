/*
 * The game of the lifecycle simulation (scripts/simulate.py): a store opened through the C ABI, driven one
 * command per line on standard input, telling every event on standard output as it is handed to the game.
 * usage: sim_game CATALOG STATE_DIRECTORY poll|thread LEDGER(0|1) VERIFY_URL|-
 *
 * Output lines (each flushed at once, so that a kill -9 loses none already printed):
 *   ev KIND REQUEST TRANSACTION PRODUCT STATUS QUANTITY   the callback was entered with this event
 *   ret KIND TRANSACTION [refused]                         the callback returns now ("refused": it called
 *                                                          iosiap_event_not_handled first)
 *   ok COMMAND STATUS [VALUE]                              a command's answer
 * Commands: products | buy PRODUCT QUANTITY | finish ID | restore | refund ID | expire PRODUCT |
 *   renew PRODUCT | ask-to-buy 0|1 | approve PENDING | decline PENDING | refuse-revoked N | die-in KIND |
 *   entitled PRODUCT | ends PRODUCT | balance | has ENTITLEMENT | close
 *   (with SIM_STOREKIT also: sync-cancelled 0|1, the user dismissing AppStore.sync()'s sign-in from now on)
 * `ends` answers the latest end (in ms) of the product's entitlements, 0 when there is none.
 * Built with -DSIM_STOREKIT against libiosiap of the StoreKit stand-in's graph (scripts/simulate.sh with
 * IOSIAP_SIMULATE_STOREKIT=1), it opens the store with iosiap_store_open_storekit instead, its journal in
 * STATE_DIRECTORY/device (the stand-in's App Store is named by IOSIAP_STOREKIT_CONFIGURATION and
 * IOSIAP_STOREKIT_STATE), and runs the main run loop between commands, as an iOS app's run loop runs; the local
 * store's controls (refund, expire, renew, ask-to-buy, approve, decline) then answer as the C ABI does there.
 */
#define _POSIX_C_SOURCE 200809L
#include <iosiap/iosiap.h>

#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef SIM_STOREKIT
#include "storekit_standin.h"
#endif

static const char *const product_ids[] = {
    "com.iosiap.example.coins_100", "com.iosiap.example.pro_upgrade", "com.iosiap.example.club_gold_monthly",
    "com.iosiap.example.season_pass", "com.iosiap.example.club_silver_monthly",
};

static iosiap_store *the_store;
static pthread_mutex_t output = PTHREAD_MUTEX_INITIALIZER;
static int refuse_revoked; /* how many of the next REVOKED callbacks refuse their event */
static int die_in_kind;    /* 0, or the kind of event whose callback kills the process */

static void say(const char *format, ...) __attribute__((format(printf, 1, 2)));

static void say(const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    pthread_mutex_lock(&output);
    vprintf(format, arguments);
    fflush(stdout);
    pthread_mutex_unlock(&output);
    va_end(arguments);
}

static void on_event(const iosiap_event *event, void *user_data) {
    uint64_t transaction = event->transaction ? event->transaction->id : 0;
    int refused = 0;
    (void)user_data;
    say("ev %d %" PRIu64 " %" PRIu64 " %s %d %d\n", event->kind, event->request_id, transaction,
        event->product_id ? event->product_id : "-", event->status, event->quantity);
    if (die_in_kind == event->kind) raise(SIGKILL);
    if (event->kind == IOSIAP_EVENT_REVOKED && refuse_revoked > 0) {
        refuse_revoked--;
        refused = iosiap_event_not_handled(the_store, event) == IOSIAP_OK;
    }
    say("ret %d %" PRIu64 "%s\n", event->kind, transaction, refused ? " refused" : "");
}

static int on_open(iosiap_store *store, void *user_data) {
    int status;
    if (!*(int *)user_data) return IOSIAP_OK;
    if ((status = iosiap_ledger_register_currency(store, product_ids[0], "coins", 100)) != IOSIAP_OK) return status;
    if ((status = iosiap_ledger_register_entitlement(store, product_ids[1], "pro")) != IOSIAP_OK) return status;
    if ((status = iosiap_ledger_register_entitlement(store, product_ids[2], "gold")) != IOSIAP_OK) return status;
    if ((status = iosiap_ledger_register_entitlement(store, product_ids[3], "season")) != IOSIAP_OK) return status;
    if ((status = iosiap_ledger_register_entitlement(store, product_ids[4], "silver")) != IOSIAP_OK) return status;
    return iosiap_ledger_set_deduct_refunds(store, 1);
}

static void visit_pending(int64_t pending_id, const char *product_id, int quantity, void *user_data) {
    (void)user_data;
    say("pending %" PRId64 " %s %d\n", pending_id, product_id, quantity);
}

/* The latest end of an entitlement to a product: `ends`' visitor. */
typedef struct entitlement_end {
    const char *product_id;
    int64_t end_ms;
} entitlement_end;

static void visit_entitlement(const iosiap_transaction *transaction, void *user_data) {
    entitlement_end *end = user_data;
    if (strcmp(transaction->product_id, end->product_id) == 0 && transaction->expiration_date_ms > end->end_ms) {
        end->end_ms = transaction->expiration_date_ms;
    }
}

/* Runs one command line; returns 0 when the game should exit. */
static int run(char *line) {
    char *command = strtok(line, " \n"), *argument = strtok(NULL, " \n"), *second = strtok(NULL, " \n");
    uint64_t request = 0;
    int status, value = 0;
    int64_t balance = 0;
    if (!command) return 1;
    if (strcmp(command, "products") == 0) {
        status = iosiap_request_products(&request, the_store, product_ids, sizeof product_ids / sizeof product_ids[0]);
        say("ok products %d %" PRIu64 "\n", status, request);
    } else if (strcmp(command, "buy") == 0 && argument && second) {
        status = iosiap_request_payment(&request, the_store, argument, atoi(second), NULL);
        say("ok buy %d %" PRIu64 "\n", status, request);
    } else if (strcmp(command, "finish") == 0 && argument) {
        say("ok finish %d\n", iosiap_finish_transaction(the_store, strtoull(argument, NULL, 10)));
    } else if (strcmp(command, "restore") == 0) {
        status = iosiap_request_restore(&request, the_store);
        say("ok restore %d %" PRIu64 "\n", status, request);
    } else if (strcmp(command, "refund") == 0 && argument) {
        say("ok refund %d\n", iosiap_local_refund(the_store, strtoull(argument, NULL, 10), 0));
    } else if (strcmp(command, "expire") == 0 && argument) {
        say("ok expire %d\n", iosiap_local_expire_subscription(the_store, argument));
    } else if (strcmp(command, "renew") == 0 && argument) {
        say("ok renew %d\n", iosiap_local_force_renewal(the_store, argument));
    } else if (strcmp(command, "ask-to-buy") == 0 && argument) {
        say("ok ask-to-buy %d\n", iosiap_local_set_ask_to_buy(the_store, atoi(argument)));
    } else if (strcmp(command, "pending") == 0) {
        say("ok pending %d\n", iosiap_local_pending_purchases(the_store, visit_pending, NULL));
    } else if (strcmp(command, "approve") == 0 && argument) {
        say("ok approve %d\n", iosiap_local_approve_ask_to_buy(the_store, strtoll(argument, NULL, 10)));
    } else if (strcmp(command, "decline") == 0 && argument) {
        say("ok decline %d\n", iosiap_local_decline_ask_to_buy(the_store, strtoll(argument, NULL, 10)));
    } else if (strcmp(command, "refuse-revoked") == 0 && argument) {
        refuse_revoked = atoi(argument);
        say("ok refuse-revoked 0\n");
    } else if (strcmp(command, "die-in") == 0 && argument) {
        die_in_kind = atoi(argument);
        say("ok die-in 0\n");
    } else if (strcmp(command, "entitled") == 0 && argument) {
        status = iosiap_is_entitled(&value, the_store, argument);
        say("ok entitled %d %d\n", status, value);
    } else if (strcmp(command, "ends") == 0 && argument) {
        entitlement_end end = {argument, 0};
        status = iosiap_entitlements(the_store, visit_entitlement, &end);
        say("ok ends %d %" PRId64 "\n", status < 0 ? status : IOSIAP_OK, end.end_ms);
    } else if (strcmp(command, "balance") == 0) {
        status = iosiap_ledger_balance(&balance, the_store, "coins");
        say("ok balance %d %" PRId64 "\n", status, balance);
    } else if (strcmp(command, "has") == 0 && argument) {
        status = iosiap_ledger_has_entitlement(&value, the_store, argument);
        say("ok has %d %d\n", status, value);
#ifdef SIM_STOREKIT
    } else if (strcmp(command, "sync-cancelled") == 0 && argument) {
        say("ok sync-cancelled %d\n", storekit_standin_set_sync_cancelled(atoi(argument)));
#endif
    } else if (strcmp(command, "close") == 0) {
        iosiap_store_close(the_store);
        say("ok close 0\n");
        return 0;
    } else {
        say("ok %s %d\n", command, IOSIAP_E_INVALID_ARGUMENT);
    }
    return 1;
}

int main(int argc, char **argv) {
#ifdef SIM_STOREKIT
    iosiap_storekit_options options = IOSIAP_STOREKIT_OPTIONS_INIT;
    char journal[4096];
#else
    iosiap_local_store_options options = IOSIAP_LOCAL_STORE_OPTIONS_INIT;
#endif
    iosiap_verification_options verification = IOSIAP_VERIFICATION_OPTIONS_INIT;
    iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
    int ledger, status, thread_mode;
    char line[512];
    size_t length = 0;

    if (argc != 6) return 2;
    thread_mode = strcmp(argv[3], "thread") == 0;
    ledger = atoi(argv[4]);
#ifdef SIM_STOREKIT
    snprintf(journal, sizeof journal, "%s/device", argv[2]);
    options.state_directory = journal;
#else
    options.catalog_path = argv[1];
    options.state_directory = argv[2];
    options.bundle_id = "com.iosiap.example";
#endif
    options.delivery = thread_mode ? IOSIAP_DELIVERY_THREAD : IOSIAP_DELIVERY_POLL;
    if (strcmp(argv[5], "-") != 0) {
        verification.mode = IOSIAP_VERIFY_SERVER;
        verification.server_url = argv[5];
        verification.timeout_ms = 1000;
        verification.attempts = 1;
        options.verification = &verification;
    }
    callbacks.on_event = on_event;
    callbacks.on_open = on_open;
    callbacks.user_data = &ledger;
#ifdef SIM_STOREKIT
    status = iosiap_store_open_storekit(&the_store, &options, &callbacks);
#else
    status = iosiap_store_open_local(&the_store, &options, &callbacks);
#endif
    say("ok open %d\n", status);
    if (status != IOSIAP_OK) {
        fprintf(stderr, "sim_game: open: %s\n", iosiap_last_error_message());
        return 1;
    }
    for (;;) {
        struct pollfd input = {STDIN_FILENO, POLLIN, 0};
        ssize_t got;
        char *end;
        if (!thread_mode && iosiap_poll(the_store, 0) < 0) return 4;
#ifdef SIM_STOREKIT
        if (storekit_standin_run_main_loop(0.001) != 0) return 6;
        if (poll(&input, 1, 1) <= 0) continue;
#else
        if (poll(&input, 1, 2) <= 0) continue;
#endif
        got = read(STDIN_FILENO, line + length, sizeof line - 1 - length);
        if (got <= 0) { /* the driver went away: end as a game that is closed */
            iosiap_store_close(the_store);
            return 0;
        }
        length += (size_t)got;
        line[length] = '\0';
        while ((end = strchr(line, '\n')) != NULL) {
            size_t used = (size_t)(end - line) + 1;
            char command[512];
            memcpy(command, line, used);
            command[used] = '\0';
            memmove(line, line + used, length - used + 1);
            length -= used;
            if (!run(command)) return 0;
        }
        if (length >= sizeof line - 1) return 5;
    }
}
