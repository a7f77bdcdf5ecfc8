/*
 * App Store messages and storefront changes through the C ABI with the local store (on the catalog with win-back
 * offers that test-native.sh makes): each kind of message raised by the C control reaches the game as
 * STOREKIT_MESSAGE with its reason and an id; display records it once; unknown ids and bad input are refused;
 * a message raised by `iosiap-store message` while the game runs reaches it, and one never displayed comes again
 * at the next launch. The storefront set by the C control and by `iosiap-store storefront` reaches the game as
 * STOREFRONT_CHANGED, once; setting the same one again tells nothing.
 * Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
 * over StoreKit (Message.messages, Message.display(in:) on the game's window scene, Storefront.updates), where QA's
 * changes are all made by `iosiap-store`.
 * usage: messages CATALOG STATE_DIRECTORY IOSIAP_STORE
 */
#define _POSIX_C_SOURCE 200112L /* nanosleep, popen, setenv */
#include <iosiap/iosiap.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "store_tool.h"
#include "wait_for.h"

#define GOLD "com.iosiap.example.club_gold_monthly"
static const char *gold = GOLD;
static char last_message_id[64];
static int last_reason = -1;
static char last_storefront[8];
static int awaited_marker_told;
#ifdef IOSIAP_STOREKIT_STANDIN
/* Whether a generic message with `id` is the marker awaited: the StoreKit backend numbers StoreKit's messages
   itself (each launch from 1), not as `iosiap-store messages` lists them; the markers are the only generic
   messages, raised one at a time, and StoreKit tells none again in the same process (see the next launch). */
#define IS_AWAITED_MARKER(id) 1
#else
static long awaited_marker; /* the id of the marker raised last */
#define IS_AWAITED_MARKER(id) (strtol((id), NULL, 10) == awaited_marker)
#endif

static void on_event(const iosiap_event *event, void *user_data) {
    (void)user_data;
    count_event(event);
    if (event->kind == IOSIAP_EVENT_STOREKIT_MESSAGE && event->size > offsetof(iosiap_event, message_reason)) {
        snprintf(last_message_id, sizeof last_message_id, "%s", event->message_id ? event->message_id : "");
        last_reason = event->message_reason;
        if (last_reason == IOSIAP_MESSAGE_REASON_GENERIC && IS_AWAITED_MARKER(last_message_id)) {
            awaited_marker_told = 1;
        }
    }
    if (event->kind == IOSIAP_EVENT_STOREFRONT_CHANGED && event->size > offsetof(iosiap_event, storefront)) {
        snprintf(last_storefront, sizeof last_storefront, "%s", event->storefront ? event->storefront : "");
    }
}

/* Polls until `*count` exceeds `before` (10 s at most); 1 if it did. */
static int poll_until_more(iosiap_store *store, const int *count, int before) {
    int waited;
    for (waited = 0; waited < 10000 && *count <= before; waited += 5) {
        iosiap_poll(store, 0);
        between_frames(5);
    }
    return *count > before;
}

#ifndef IOSIAP_STOREKIT_STANDIN
/* The id of the newest message in the store, from `iosiap-store messages` (the largest id in its first column);
 * 0 if none or if the tool failed. */
static long newest_message_id(void) {
    char command[4096], line[512];
    long newest = 0;
    int at_line_start = 1;
    FILE *listing;
    snprintf(command, sizeof command, "'%s' --state '%s' --catalog '%s' messages", store_tool, store_tool_state,
             store_tool_catalog);
    if (!(listing = popen(command, "r"))) return 0;
    while (fgets(line, sizeof line, listing)) {
        long id = at_line_start ? strtol(line, NULL, 10) : 0; /* 0 for the heading and a long line's rest */
        if (id > newest) newest = id;
        at_line_start = strchr(line, '\n') != NULL;
    }
    return pclose(listing) == 0 ? newest : 0;
}
#endif

/* Raises a generic message from iosiap-store (another process) with `from_tool`, or else in the game (over
 * StoreKit from iosiap-store too), and waits until that very message is told (by its id: one raised before, told
 * again at a launch, does not count): a positive sign that the store has handed out what came of everything done
 * before it, so that a count checked next has nothing still on its way. 1 if the marker came. */
static int marker(iosiap_store *store, int from_tool) {
    if (from_tool) {
        if (!run_quiet("message generic " GOLD)) return 0;
    } else if (!QA(iosiap_local_send_message(store, IOSIAP_MESSAGE_REASON_GENERIC, gold, NULL), "message generic " GOLD)) {
        return 0;
    }
    awaited_marker_told = 0;
#ifndef IOSIAP_STOREKIT_STANDIN
    if ((awaited_marker = newest_message_id()) == 0) return 0;
#endif
    return poll_until_more(store, &awaited_marker_told, 0);
}

int main(int argc, char **argv) {
    iosiap_store *store;
    char price_increase[64], command[512];
    int again;
#ifndef IOSIAP_STOREKIT_STANDIN
    int undisplayed;
#endif

    if (argc != 4) return 2;
    use_store_tool(argv[3], argv[2], argv[1]);
    if ((store = open_test_store(argv[1], argv[2], NULL, on_event)) == NULL) return 1;

    /* Each kind reaches the game with its reason; nothing is shown until the game displays it. */
    EXPECT(QA(iosiap_local_send_message(store, IOSIAP_MESSAGE_REASON_PRICE_INCREASE, gold, NULL),
              "message price-increase " GOLD));
    EXPECT(wait_for(store, IOSIAP_EVENT_STOREKIT_MESSAGE) && last_reason == IOSIAP_MESSAGE_REASON_PRICE_INCREASE);
    EXPECT(last_message_id[0] != '\0');
    snprintf(price_increase, sizeof price_increase, "%s", last_message_id);
    EXPECT(QA(iosiap_local_send_message(store, IOSIAP_MESSAGE_REASON_BILLING_ISSUE, gold, NULL),
              "message billing-issue " GOLD));
    EXPECT(wait_for(store, IOSIAP_EVENT_STOREKIT_MESSAGE) && last_reason == IOSIAP_MESSAGE_REASON_BILLING_ISSUE);
    EXPECT(strcmp(last_message_id, price_increase) != 0);
    EXPECT(QA(iosiap_local_send_message(store, IOSIAP_MESSAGE_REASON_WIN_BACK_OFFER, gold, "gold_half_price_back"),
              "message win-back " GOLD " gold_half_price_back"));
    EXPECT(wait_for(store, IOSIAP_EVENT_STOREKIT_MESSAGE) && last_reason == IOSIAP_MESSAGE_REASON_WIN_BACK_OFFER);

    /* Displayed once; a second display, an id never delivered and NULL are refused. */
    EXPECT(iosiap_display_message(store, price_increase, game_scene()) == IOSIAP_OK);
    EXPECT(iosiap_display_message(store, price_increase, game_scene()) == IOSIAP_E_WRONG_STATE);
    EXPECT(iosiap_display_message(store, "999999", game_scene()) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_display_message(store, NULL, game_scene()) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_display_message(NULL, price_increase, game_scene()) == IOSIAP_E_INVALID_ARGUMENT);

    /* Bad input is refused and raises nothing (the C control's own refusals: it needs a local-store handle). */
#ifndef IOSIAP_STOREKIT_STANDIN
    EXPECT(iosiap_local_send_message(store, 4, gold, NULL) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_local_send_message(store, -1, gold, NULL) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_local_send_message(store, IOSIAP_MESSAGE_REASON_BILLING_ISSUE, "com.iosiap.example.nope", NULL)
           == IOSIAP_E_UNKNOWN_PRODUCT);
    EXPECT(iosiap_local_send_message(store, IOSIAP_MESSAGE_REASON_BILLING_ISSUE, "com.iosiap.example.coins_100", NULL)
           == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_local_send_message(store, IOSIAP_MESSAGE_REASON_WIN_BACK_OFFER, gold, "no_such_offer")
           == IOSIAP_E_SK_INVALID_OFFER_IDENTIFIER);
    EXPECT(iosiap_local_send_message(store, IOSIAP_MESSAGE_REASON_PRICE_INCREASE, gold, "gold_half_price_back")
           == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_local_send_message(store, IOSIAP_MESSAGE_REASON_GENERIC, NULL, NULL) == IOSIAP_E_INVALID_ARGUMENT);
#endif
    again = count_kind[IOSIAP_EVENT_STOREKIT_MESSAGE];
    EXPECT(marker(store, 0) && count_kind[IOSIAP_EVENT_STOREKIT_MESSAGE] == again + 1);

    /* QA raises one with iosiap-store, another process, while the game runs. */
    snprintf(command, sizeof command, "message billing-issue %s", gold);
    EXPECT(run_quiet(command));
    EXPECT(wait_for(store, IOSIAP_EVENT_STOREKIT_MESSAGE) && last_reason == IOSIAP_MESSAGE_REASON_BILLING_ISSUE);

    /* The storefront: set here, then by iosiap-store; each change is told once, the same value not at all. */
    EXPECT(QA(iosiap_local_set_storefront(store, "DEU"), "storefront DEU"));
    EXPECT(wait_for(store, IOSIAP_EVENT_STOREFRONT_CHANGED) && strcmp(last_storefront, "DEU") == 0);
    EXPECT(QA(iosiap_local_set_storefront(store, "DEU"), "storefront DEU"));
#ifndef IOSIAP_STOREKIT_STANDIN /* the C control's own refusal */
    EXPECT(iosiap_local_set_storefront(store, "NOPE") == IOSIAP_E_INVALID_ARGUMENT);
#endif
    EXPECT(marker(store, 0) && count_kind[IOSIAP_EVENT_STOREFRONT_CHANGED] == 1);
    EXPECT(run_quiet("storefront JPN"));
    EXPECT(wait_for(store, IOSIAP_EVENT_STOREFRONT_CHANGED) && strcmp(last_storefront, "JPN") == 0);
    EXPECT(marker(store, 1) && count_kind[IOSIAP_EVENT_STOREFRONT_CHANGED] == 2);
    iosiap_store_close(store);

#ifdef IOSIAP_STOREKIT_STANDIN
    /* The store opened again in the same process: StoreKit retrieves the App Store's messages when the app launches
     * ("Message"), so none is told again, only the marker, which can be displayed. (Message ids are each launch's
     * own, from 1: price_increase's may name the marker now.) */
    if ((store = open_test_store(argv[1], argv[2], NULL, on_event)) == NULL) return 1;
    again = count_kind[IOSIAP_EVENT_STOREKIT_MESSAGE];
    EXPECT(marker(store, 0) && count_kind[IOSIAP_EVENT_STOREKIT_MESSAGE] == again + 1);
    EXPECT(iosiap_display_message(store, last_message_id, game_scene()) == IOSIAP_OK);
    between_frames(100); /* StoreKit shows it on the main actor */
#else
    /* The next launch: the messages never displayed come again (the three raised, the one from iosiap-store and
     * the markers), all of them before a marker raised once they are in; the one displayed does not. */
    undisplayed = count_kind[IOSIAP_EVENT_STOREKIT_MESSAGE] - 1;
    store = open_test_store(argv[1], argv[2], NULL, on_event);
    again = count_kind[IOSIAP_EVENT_STOREKIT_MESSAGE];
    EXPECT(poll_until_more(store, &count_kind[IOSIAP_EVENT_STOREKIT_MESSAGE], again + undisplayed - 1));
    EXPECT(marker(store, 0) && count_kind[IOSIAP_EVENT_STOREKIT_MESSAGE] == again + undisplayed + 1);
    EXPECT(iosiap_display_message(store, last_message_id, game_scene()) == IOSIAP_OK);
    EXPECT(iosiap_display_message(store, price_increase, game_scene()) == IOSIAP_E_INVALID_ARGUMENT);
#endif
    iosiap_store_close(store);

    printf("messages: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
