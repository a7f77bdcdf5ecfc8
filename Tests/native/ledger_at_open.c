/*
 * The grant ledger registered in iosiap_callbacks.on_open. With IOSIAP_DELIVERY_THREAD, purchases left
 * unfinished by the last launch are redelivered at open, while the delivery thread runs: they must arrive as
 * IOSIAP_EVENT_GRANTED, never as IOSIAP_EVENT_PURCHASED (which a game leaving them to the ledger ignores, so
 * they would stay unfinished launch after launch), each credited once. Launch after launch the game spends 0
 * to 3 ms of its own startup after the open returns (a log line, reading its product table, its thread
 * preempted on a busy machine): redelivery reaches the game about 1 ms after open, so registering after the
 * open returned lost that race in most launches. Then on_open's contract: it runs before the first event in
 * poll mode too, a version 1 iosiap_callbacks (without on_open) still opens and delivers, and an on_open that
 * refuses (a failed ledger call) or closes the store voids the open before any event, losing nothing.
 * Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
 * over StoreKit, where QA buys from outside (`iosiap-store buy`) while the game is open and the game quits before
 * it hears of them: at the next launch StoreKit gives them again (Transaction.unfinished).
 * usage: ledger_at_open CATALOG.storekit STATE_DIRECTORY IOSIAP_STORE [ROUNDS]
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep, setenv */
#include "expect.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store_tool.h"
#include "wait_for.h"

#define COINS "com.iosiap.example.coins_100"
#define UNFINISHED_PER_LAUNCH 8

static atomic_int granted, purchased, events, events_at_open, poisoned;
static int64_t coins_per_unit = 100; /* what on_open registers; 0 makes the ledger refuse */

static void on_event(const iosiap_event *event, void *user_data) {
    (void)user_data;
    atomic_fetch_add(&events, 1);
    if (event->kind == IOSIAP_EVENT_GRANTED) atomic_fetch_add(&granted, 1);
    /* A game that leaves COINS to the ledger ignores this: the purchase stays unfinished. */
    if (event->kind == IOSIAP_EVENT_PURCHASED) atomic_fetch_add(&purchased, 1);
}

/* user_data: the open call's out-parameter, which already holds the store. */
static int register_coins(iosiap_store *store, void *user_data) {
    EXPECT(*(iosiap_store **)user_data == store);
    atomic_store(&events_at_open, atomic_load(&events));
    return iosiap_ledger_register_currency(store, COINS, "coins", coins_per_unit);
}

static int close_it(iosiap_store *store, void *user_data) {
    (void)user_data;
    iosiap_store_close(store);
    return IOSIAP_OK;
}

static int answer_one(iosiap_store *store, void *user_data) {
    (void)store;
    (void)user_data;
    return 1;
}

static int poison(iosiap_store *store, void *user_data) {
    (void)store;
    (void)user_data;
    atomic_fetch_add(&poisoned, 1);
    return IOSIAP_OK;
}

/* The game's own startup work: its thread does not come back to the store (nor, over StoreKit, to the run loop). */
static void sleep_us(long us) {
    struct timespec pause = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&pause, NULL);
}

static void reset_counts(void) {
    atomic_store(&granted, 0);
    atomic_store(&purchased, 0);
    atomic_store(&events, 0);
    atomic_store(&events_at_open, -1);
}

/* Opens the store (open_store.h) with `delivery` and `callbacks`; returns the open's status. */
static int open_store(iosiap_store **out, const char *catalog, const char *state, int delivery,
                      const iosiap_callbacks *callbacks) {
    test_store_options how = {NULL, IOSIAP_DELIVERY_POLL, NULL, NULL};
    how.delivery = delivery;
    return open_test_store_with(out, catalog, state, &how, callbacks);
}

/* A launch that buys from outside the game and quits before the purchases are delivered: unfinished. */
static void buy_and_quit(const char *catalog, const char *state) {
    iosiap_store *store = NULL;
    int i;
    EXPECT(open_store(&store, catalog, state, IOSIAP_DELIVERY_POLL, NULL) == IOSIAP_OK);
    for (i = 0; i < UNFINISHED_PER_LAUNCH; i++) EXPECT(QA(iosiap_local_buy(NULL, store, COINS, 1), "buy " COINS));
    iosiap_store_close(store);
}

/* Opens with COINS registered in on_open; in poll mode, polls. Waits for `expected` purchases (granted or
   not), `startup_us` after the open returned, then a little more for any delivered twice. */
static void launch(const char *catalog, const char *state, int delivery, int expected, long startup_us, int64_t *balance) {
    iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
    iosiap_store *store = NULL;
    int waited;
    callbacks.on_event = on_event;
    callbacks.on_open = register_coins;
    callbacks.user_data = &store;
    reset_counts();
    EXPECT(open_store(&store, catalog, state, delivery, &callbacks) == IOSIAP_OK);
    EXPECT(atomic_load(&events_at_open) == 0);
    if (startup_us > 0) sleep_us(startup_us);
    for (waited = 0; waited < 2500 && atomic_load(&granted) + atomic_load(&purchased) < expected; waited++) {
        if (delivery == IOSIAP_DELIVERY_POLL) iosiap_poll(store, 0);
        between_frames(2);
    }
    if (delivery == IOSIAP_DELIVERY_POLL) iosiap_poll(store, 0);
    between_frames(20);
    if (delivery == IOSIAP_DELIVERY_POLL) iosiap_poll(store, 0);
    EXPECT(iosiap_ledger_balance(balance, store, "coins") == IOSIAP_OK);
    iosiap_store_close(store);
}

/* Opens in thread mode with `callbacks`; expects `status` and, when it is not IOSIAP_OK, no store, no event
   and a message holding `fragment`. */
static void open_refused(const char *catalog, const char *state, iosiap_callbacks *callbacks, int status,
                         const char *fragment) {
    iosiap_store *store = NULL;
    reset_counts();
    callbacks->user_data = &store;
    EXPECT(open_store(&store, catalog, state, IOSIAP_DELIVERY_THREAD, callbacks) == status);
    EXPECT(strstr(iosiap_last_error_message(), fragment) != NULL); /* the C ABI's and the ledger's, either store */
    EXPECT(store == NULL);
    between_frames(50);
    EXPECT(atomic_load(&events) == 0);
}

int main(int argc, char **argv) {
    int rounds, round, left = 0, plain_launches = 0;
    int64_t bought = 0, credited = 0, balance = 0;
    iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
    if (argc != 4 && argc != 5) return 2;
    rounds = argc == 5 ? atoi(argv[4]) : 12;
    use_store_tool(argv[3], argv[2], argv[1]);
    /* wait_for.h's counting by kind is not used: events arrive on the delivery thread, counted in atomics here. */
    (void)count_event;
    (void)wait_for;

    /* Thread mode, launch after launch. */
    for (round = 0; round < rounds; round++) {
        int expected = left + UNFINISHED_PER_LAUNCH;
        buy_and_quit(argv[1], argv[2]);
        bought += UNFINISHED_PER_LAUNCH;
        launch(argv[1], argv[2], IOSIAP_DELIVERY_THREAD, expected, (round % 4) * 1000L, &balance);
        credited += atomic_load(&granted);
        if (atomic_load(&purchased) > 0) {
            plain_launches++;
            fprintf(stderr, "ledger at open: launch %d: %d of %d purchases arrived as PURCHASED, not granted\n", round + 1,
                    atomic_load(&purchased), expected);
        }
        EXPECT(atomic_load(&purchased) == 0);
        EXPECT(atomic_load(&granted) + atomic_load(&purchased) == expected);
        EXPECT(balance == 100 * credited); /* each grant credited once */
        left = expected - atomic_load(&granted);
    }
    EXPECT(balance == 100 * bought);
    printf("ledger at open: %d launches in thread mode, %d with purchases not granted; balance %" PRId64 " of %" PRId64 "\n",
           rounds, plain_launches, balance, 100 * bought);

    /* Poll mode: on_open runs before the first event too. */
    buy_and_quit(argv[1], argv[2]);
    bought += UNFINISHED_PER_LAUNCH;
    launch(argv[1], argv[2], IOSIAP_DELIVERY_POLL, UNFINISHED_PER_LAUNCH, 0, &balance);
    EXPECT(atomic_load(&granted) == UNFINISHED_PER_LAUNCH && atomic_load(&purchased) == 0);
    EXPECT(balance == 100 * bought);

    /* on_open refuses with a failed ledger call's status: nothing is delivered, the purchases wait. */
    buy_and_quit(argv[1], argv[2]);
    bought += UNFINISHED_PER_LAUNCH;
    callbacks.on_event = on_event;
    callbacks.on_open = register_coins;
    coins_per_unit = 0;
    open_refused(argv[1], argv[2], &callbacks, IOSIAP_E_INVALID_ARGUMENT, "amount per unit 0");
    EXPECT(strstr(iosiap_last_error_message(), "on_open refused the open") != NULL);
    coins_per_unit = 100;
    /* Any other answer but IOSIAP_OK refuses too; a positive one is IOSIAP_E_INVALID_ARGUMENT. */
    callbacks.on_open = answer_one;
    open_refused(argv[1], argv[2], &callbacks, IOSIAP_E_INVALID_ARGUMENT, "it returned 1");
    /* Closing the store from on_open is a caller error that voids the open. */
    callbacks.on_open = close_it;
    open_refused(argv[1], argv[2], &callbacks, IOSIAP_E_STORE_NOT_OPEN, "on_open closed the store");
    launch(argv[1], argv[2], IOSIAP_DELIVERY_THREAD, UNFINISHED_PER_LAUNCH, 0, &balance);
    EXPECT(atomic_load(&granted) == UNFINISHED_PER_LAUNCH && atomic_load(&purchased) == 0);
    EXPECT(balance == 100 * bought);

    {   /* A version 1 struct, compiled before on_open existed: opens and delivers; the library reads nothing
           past it (the pointer placed where on_open would be is never called). */
        struct callbacks_v1 {
            unsigned int version;
            iosiap_event_callback on_event;
            void *user_data;
        };
        struct {
            struct callbacks_v1 v1;
            iosiap_open_callback after;
        } old = {{1, on_event, NULL}, poison};
        iosiap_store *store = NULL;
        int waited;
        EXPECT(offsetof(iosiap_callbacks, on_open) == sizeof(struct callbacks_v1));
        buy_and_quit(argv[1], argv[2]);
        reset_counts();
        EXPECT(open_store(&store, argv[1], argv[2], IOSIAP_DELIVERY_THREAD, (const iosiap_callbacks *)(const void *)&old) ==
               IOSIAP_OK);
        for (waited = 0; waited < 2500 && atomic_load(&purchased) < UNFINISHED_PER_LAUNCH; waited++) between_frames(2);
        EXPECT(atomic_load(&purchased) == UNFINISHED_PER_LAUNCH); /* no ledger registered: plain purchases */
        EXPECT(atomic_load(&poisoned) == 0);
        iosiap_store_close(store);
    }
    printf("ledger at open: %d passed, %d failed\n", checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
