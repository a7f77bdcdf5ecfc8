#ifndef IOSIAP_SYSTEM_SHIMS_H
#define IOSIAP_SYSTEM_SHIMS_H

/* What Swift cannot reach in glibc's headers without _GNU_SOURCE. */

/* Names the calling thread (pthread_setname_np); a name is cut to the 15 bytes Linux keeps. Returns 0 or an errno. */
/* Hidden: the library exports its C ABI only. */
__attribute__((visibility("hidden"))) int shims_name_current_thread(const char *name);

#endif
