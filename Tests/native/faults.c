/*
 * Storage faults through the C ABI: each must give a clear error and lose nothing. Built with
 * IOSIAP_STOREKIT_STANDIN it opens StoreKit (open_store.h), its journal in STATE/device: there only the read-only
 * journal is tested, since the stand-in's App Store writes from the game's process and would meet the file-size
 * limit first (a phone's App Store is another process).
 *   faults CATALOG STATE full-disk   buys until the file-size limit stops a write; the failure must be
 *                                    IOSIAP_E_STORAGE with a message, and every charge must survive
 *   faults CATALOG STATE read-only   the state directory cannot be written: open, or the first purchase,
 *                                    must fail with IOSIAP_E_STORAGE naming the problem
 * A recovery launch (crash-campaign.py --rounds 0) then checks that nothing was lost or granted twice.
 */
#define _POSIX_C_SOURCE 200809L
#include <iosiap/iosiap.h>

#include "open_store.h"
#include "wait_for.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <dirent.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#define COINS "com.iosiap.example.coins_100"

static int ended, granted, storage_failures, other_failures;
static char failure[512], other_failure[512];

static void on_event(const iosiap_event *event, void *user_data) {
    (void)user_data;
    if (event->kind == IOSIAP_EVENT_GRANTED) granted++;
    if ((event->kind == IOSIAP_EVENT_FAILED || event->kind == IOSIAP_EVENT_PRODUCTS_FAILED) && event->status == IOSIAP_E_STORAGE) {
        storage_failures++;
        snprintf(failure, sizeof failure, "%s", event->message);
    } else if (event->kind == IOSIAP_EVENT_FAILED && other_failures++ == 0) {
        snprintf(other_failure, sizeof other_failure, "%d: %s", event->status, event->message);
    }
    if (event->request_id != 0 && event->kind != IOSIAP_EVENT_PURCHASING) ended++;
}

/* The largest file in the state directory: the limit is set above it, so that a few writes succeed first. */
static long largest_file(const char *directory) {
    char path[1024];
    struct stat info;
    struct dirent *entry;
    long largest = 0;
    DIR *folder = opendir(directory);
    if (!folder) return 0;
    while ((entry = readdir(folder)) != NULL) {
        snprintf(path, sizeof path, "%s/%s", directory, entry->d_name);
        if (stat(path, &info) == 0 && S_ISREG(info.st_mode) && info.st_size > largest) largest = (long)info.st_size;
    }
    closedir(folder);
    return largest;
}

static int poll_until(iosiap_store *store, int count) {
    int waited;
    for (waited = 0; ended < count && waited < 10000; waited++) {
        iosiap_poll(store, 0);
        between_frames(1);
    }
    return ended >= count;
}

int main(int argc, char **argv) {
    test_store_options how = {NULL, IOSIAP_DELIVERY_POLL, NULL, NULL};
    iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
    iosiap_store *store = NULL;
    const char *ids[] = {COINS};
    int status, round, requests = 0;

    if (argc != 4) return 2;
    callbacks.on_event = on_event;
    status = open_test_store_with(&store, argv[1], argv[2], &how, &callbacks);
    if (strcmp(argv[3], "read-only") == 0 && status != IOSIAP_OK) {
        printf("read-only: open refused (%d): %s\n", status, iosiap_last_error_message());
        return status == IOSIAP_E_STORAGE && strlen(iosiap_last_error_message()) > 0 ? 0 : 1;
    }
    if (status != IOSIAP_OK) {
        fprintf(stderr, "faults: open: %s\n", iosiap_last_error_message());
        return 1;
    }
    iosiap_ledger_register_currency(store, COINS, "coins", 100);
    if (iosiap_request_products(NULL, store, ids, 1) != IOSIAP_OK || !poll_until(store, ++requests)) return 1;

    if (strcmp(argv[3], "full-disk") == 0) {
        /* No file may grow more than 48 KiB past the largest one now: the write-ahead logs soon hit it. */
        rlim_t bytes = (rlim_t)largest_file(argv[2]) + 48 * 1024;
        struct rlimit limit = {bytes, bytes};
        signal(SIGXFSZ, SIG_IGN);
        if (setrlimit(RLIMIT_FSIZE, &limit) != 0) return 1;
    }
    for (round = 0; round < 400 && storage_failures == 0; round++) {
        status = iosiap_request_payment(NULL, store, COINS, 1, NULL);
        if (status != IOSIAP_OK) {
            printf("%s: request refused (%d): %s\n", argv[3], status, iosiap_last_error_message());
            return 1;
        }
        if (!poll_until(store, ++requests)) return 1;
    }
    iosiap_store_close(store);
    printf("%s: %d granted, then a storage failure: %s\n", argv[3], granted, storage_failures ? failure : "(none)");
    if (other_failures) printf("%s: %d other failures, the first %s\n", argv[3], other_failures, other_failure);
    return storage_failures > 0 && strlen(failure) > 0 ? 0 : 1;
}
