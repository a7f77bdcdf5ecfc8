/* The C header compiles alone, twice, with every warning, as C99 and C11; its INIT macros are complete. */
#include <iosiap/iosiap.h>
#include <iosiap/iosiap.h>

int main(void) {
    iosiap_payment_options payment = IOSIAP_PAYMENT_OPTIONS_INIT;
    int sheet = iosiap_present_offer_code_redeem_sheet(NULL, NULL); /* no store: refused */
    uint64_t refund_request = 0;
    int refund = iosiap_begin_refund_request(&refund_request, NULL, 1, NULL);  /* no store: refused */
    uint64_t manage_request = 0;
    int manage = iosiap_show_manage_subscriptions(&manage_request, NULL, NULL);  /* since 0.4; no store: refused */
    iosiap_local_store_options options = IOSIAP_LOCAL_STORE_OPTIONS_INIT;
    iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
    iosiap_offer offer = IOSIAP_OFFER_INIT;
    iosiap_offer_signature signature = IOSIAP_OFFER_SIGNATURE_INIT;
    iosiap_event event;
    iosiap_app_transaction_info *app = NULL;
    event.kind = IOSIAP_EVENT_PURCHASED;
    event.status = IOSIAP_E_SK_PAYMENT_CANCELLED;
    iosiap_app_transaction_free(app);
    if (iosiap_local_set_notification_url(NULL, NULL) == IOSIAP_OK) return 1;  /* since 0.4; no store: refused */
    /* Since 0.4: an event the callback could not handle, and finish refused for a transaction never delivered. */
    if (iosiap_event_not_handled(NULL, &event) == IOSIAP_OK || IOSIAP_E_NOT_DELIVERED != -20) return 1;
    {   /* since 0.4: what the store knows about the user, and Family Sharing's controls; no store: refused */
        iosiap_subscription_status_info *status = NULL;
        char *storefront = NULL;
        int eligible = -1;
        iosiap_subscription_status_free(status);
        if (iosiap_storefront(&storefront, NULL) == IOSIAP_OK || storefront != NULL ||
            iosiap_subscription_status(&status, NULL, "g") == IOSIAP_OK || status != NULL ||
            iosiap_is_eligible_for_intro_offer(&eligible, NULL, "g") == IOSIAP_OK || eligible != -1 ||
            iosiap_transaction_history(NULL, NULL, NULL) >= 0 || iosiap_local_buy_family_shared(NULL, NULL, "p") == IOSIAP_OK ||
            iosiap_local_stop_family_sharing(NULL, 1) == IOSIAP_OK || IOSIAP_SUBSCRIPTION_REVOKED != 5 ||
            IOSIAP_EXPIRATION_UNKNOWN != 5)
            return 1;
    }
    if (iosiap_display_message(NULL, "1", NULL) != IOSIAP_E_INVALID_ARGUMENT || IOSIAP_EVENT_STOREKIT_MESSAGE != 19 ||
        IOSIAP_EVENT_STOREFRONT_CHANGED != 20 || IOSIAP_MESSAGE_REASON_WIN_BACK_OFFER != 3 ||
        iosiap_local_send_message(NULL, IOSIAP_MESSAGE_REASON_GENERIC, "p", NULL) == IOSIAP_OK)
        return 1;
    return (options.version == IOSIAP_LOCAL_STORE_OPTIONS_VERSION && callbacks.on_event == NULL &&
            callbacks.version == 2 && callbacks.on_open == NULL &&  /* since 0.4 */
            options.delivery == IOSIAP_DELIVERY_POLL && offer.size == sizeof offer && offer.id == NULL &&
            signature.size == sizeof signature && signature.key_id[0] == '\0' && event.kind == 4 && event.status == -102 &&
            IOSIAP_VERSION_NUMBER >= 100 && payment.win_back_offer_id == NULL && sheet != IOSIAP_OK &&
            payment.version == 4 && payment.offer_jws == NULL && payment.intro_offer_eligibility_jws == NULL &&
            IOSIAP_MAX_OFFER_JWS_LENGTH == 8192 &&
            iosiap_local_redeem_offer_code(NULL, NULL, "p", "c") != IOSIAP_OK && refund == IOSIAP_E_INVALID_ARGUMENT &&
            refund_request == 0 && manage == IOSIAP_E_INVALID_ARGUMENT && manage_request == 0 && IOSIAP_EVENT_REFUND_REQUEST_FINISHED == 17 &&
            IOSIAP_EVENT_MANAGE_SUBSCRIPTIONS_CLOSED == 18 && IOSIAP_REFUND_REQUEST_CANCELLED != IOSIAP_REFUND_REQUEST_FAILED) ? 0 : 1;
}
