/*
 * Structs the library fills in the caller's memory are written at the caller's declared size: a caller built
 * against a smaller struct (a local copy cut before its last field) sits in a larger buffer of canary bytes,
 * and nothing past its size is written; a size below the first published layout is refused; a caller with
 * a larger (newer) struct gets what this library knows, and size says how much.
 * Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
 * over StoreKit for the product's offers (iosiap_offer); iosiap_offer_signature, which only the local store's C
 * control iosiap_local_sign_promotional_offer fills, is checked in the local store's build only.
 * usage: out_structs CATALOG STATE_DIRECTORY [IOSIAP_STORE]
 * (IOSIAP_STORE is not used: scripts/test-storekit-standin.sh passes it to every test it runs.)
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep, setenv */
#include <iosiap/iosiap.h>

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "expect.h"
#include "wait_for.h"

#define CANARY 0xA5
#define SLACK 64

/* iosiap_offer as a caller built against a smaller struct declares it: cut before display_price. */
typedef struct small_offer {
    size_t size;
    const char *id;
    int payment_mode;
    int period_value;
    int period_unit;
    int period_count;
    const char *price;
} small_offer;

/* iosiap_offer_signature cut before signature. */
typedef struct small_signature {
    size_t size;
    char key_id[64];
    char nonce[40];
    int64_t timestamp_ms;
} small_signature;

static union {
    iosiap_offer offer;
    iosiap_offer_signature signature;
    unsigned char bytes[sizeof(iosiap_offer_signature) + SLACK];
} buffer;

static void fill_canary(size_t declared_size) {
    memset(buffer.bytes, CANARY, sizeof buffer.bytes);
    memcpy(buffer.bytes, &declared_size, sizeof declared_size);
}

/* 1 if every byte from `from` to the end of the buffer is still the canary. */
static int untouched_from(size_t from) {
    size_t i;
    for (i = from; i < sizeof buffer.bytes; i++) {
        if (buffer.bytes[i] != CANARY) {
            fprintf(stderr, "byte %zu of the buffer was written (caller's size ends at %zu)\n", i, from);
            return 0;
        }
    }
    return 1;
}

static void on_event(const iosiap_event *event, void *user_data) {
    (void)user_data;
    count_event(event);
}

int main(int argc, char **argv) {
    iosiap_store *store = NULL;
    const iosiap_product *gold = NULL;
    const char *ids[] = {"com.iosiap.example.club_gold_monthly"};
    iosiap_offer offer = IOSIAP_OFFER_INIT;
    iosiap_offer_signature signature = IOSIAP_OFFER_SIGNATURE_INIT;

    if (argc != 3 && argc != 4) return 2;
    if ((store = open_test_store(argv[1], argv[2], NULL, on_event)) == NULL) return 1;
    EXPECT(iosiap_request_products(NULL, store, ids, 1) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PRODUCTS_RECEIVED));
    EXPECT(iosiap_store_product(&gold, store, ids[0]) == IOSIAP_OK);

    /* The _INIT macros set size; a caller of this header's size gets every field. */
    EXPECT(offer.size == sizeof(iosiap_offer) && signature.size == sizeof(iosiap_offer_signature));
    EXPECT(iosiap_product_intro_offer(&offer, gold) == IOSIAP_OK && offer.size == sizeof(iosiap_offer));
    EXPECT(strcmp(offer.display_price, "$0.00") == 0);

    /* A smaller struct: refused, and nothing past its size is written. */
    fill_canary(sizeof(small_offer));
    EXPECT(iosiap_product_intro_offer(&buffer.offer, gold) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(strstr(iosiap_last_error_message(), "size") != NULL);
    EXPECT(untouched_from(sizeof(small_offer)));
    EXPECT(untouched_from(sizeof(size_t)));
    fill_canary(sizeof(small_offer));
    EXPECT(iosiap_product_promotional_offer(&buffer.offer, gold, 0) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(untouched_from(sizeof(small_offer)));
    fill_canary(0);
    EXPECT(iosiap_product_intro_offer(&buffer.offer, gold) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(untouched_from(sizeof(size_t)));
#ifndef IOSIAP_STOREKIT_STANDIN /* the local store's C control, the one call that fills an iosiap_offer_signature */
    fill_canary(sizeof(small_signature));
    EXPECT(iosiap_local_sign_promotional_offer(&buffer.signature, store, ids[0], "club_gold_winback", NULL) ==
           IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(strstr(iosiap_last_error_message(), "size") != NULL);
    EXPECT(untouched_from(sizeof(small_signature)));
#endif

    /* The exact size: filled up to it, not a byte further. */
    fill_canary(sizeof(iosiap_offer));
    EXPECT(iosiap_product_promotional_offer(&buffer.offer, gold, 0) == IOSIAP_OK);
    EXPECT(buffer.offer.size == sizeof(iosiap_offer) && strcmp(buffer.offer.id, "club_gold_winback") == 0);
    EXPECT(untouched_from(sizeof(iosiap_offer)));
#ifndef IOSIAP_STOREKIT_STANDIN /* the local store's C control, as above */
    fill_canary(sizeof(iosiap_offer_signature));
    EXPECT(iosiap_local_sign_promotional_offer(&buffer.signature, store, ids[0], "club_gold_winback", NULL) == IOSIAP_OK);
    EXPECT(buffer.signature.size == sizeof(iosiap_offer_signature) && strlen(buffer.signature.signature) > 80);
    EXPECT(untouched_from(sizeof(iosiap_offer_signature)));
#endif

    /* A newer caller's larger struct: the library writes what it knows and size says how much. */
    fill_canary(sizeof(iosiap_offer) + SLACK / 2);
    EXPECT(iosiap_product_intro_offer(&buffer.offer, gold) == IOSIAP_OK);
    EXPECT(buffer.offer.size == sizeof(iosiap_offer) && strcmp(buffer.offer.display_price, "$0.00") == 0);
    EXPECT(untouched_from(sizeof(iosiap_offer)));

    iosiap_store_close(store);
    printf("out_structs: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
