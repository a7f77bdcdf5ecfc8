#ifndef IOSIAP_CMICROHTTPD_SHIM_H
#define IOSIAP_CMICROHTTPD_SHIM_H
/* GNU libmicrohttpd (Debian: libmicrohttpd-dev; Homebrew: libmicrohttpd), the HTTP server of
 * `iosiap-store serve`. Wrappers for what Swift cannot call: MHD_start_daemon and MHD_get_daemon_info are
 * variadic. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/* Limits that keep one client from holding the server: connections at once, seconds a client may stay
 * idle (a slow client is dropped), and the memory one connection may use for its request line and
 * headers (larger headers are answered with an error by libmicrohttpd itself). */
enum {
    IOSIAP_MHD_CONNECTION_LIMIT = 64,
    IOSIAP_MHD_TIMEOUT_SECONDS = 10,
    IOSIAP_MHD_CONNECTION_MEMORY = 32 * 1024
};

/* Starts a server on ipv4:port (a dotted IPv4 address, e.g. 127.0.0.1; port 0: a free port) with one
 * internal thread that answers every connection in turn through `handler`; `completed` is told when a
 * request is over, to free what the handler kept for it. NULL when the address is not an IPv4 address or
 * cannot be bound. */
static inline struct MHD_Daemon *iosiap_mhd_start(const char *ipv4, uint16_t port, MHD_AccessHandlerCallback handler,
                                                  void *context, MHD_RequestCompletedCallback completed) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    if (ipv4 == NULL || inet_pton(AF_INET, ipv4, &address.sin_addr) != 1) return NULL;
    return MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO, port, NULL, NULL, handler, context,
                            MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
                            MHD_OPTION_CONNECTION_LIMIT, (unsigned int)IOSIAP_MHD_CONNECTION_LIMIT,
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)IOSIAP_MHD_TIMEOUT_SECONDS,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)IOSIAP_MHD_CONNECTION_MEMORY,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                            MHD_OPTION_END);
}

/* The port the server listens on (the one the system chose when asked for port 0); 0 if unknown. */
static inline uint16_t iosiap_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info != NULL ? info->port : 0;
}

#endif
