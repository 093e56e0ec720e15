/* SPDX-License-Identifier: Apache-2.0 */
/* greeting: each node sends a greeting to the next node of the ring and prints
 * the greeting it receives. Run: build/bin/skifrun -n 4 build/bin/greeting */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "skifch.h"

int main(int argc, char **argv)
{
    if (argc > 1) {
        printf("usage: skifrun -n N %s\n"
               "Each node sends \"Hello from node R\" to node (R+1) mod N and prints what\n"
               "it receives, with the simulated cycle.\n",
               argv[0]);
        return strcmp(argv[1], "--help") && strcmp(argv[1], "-h") ? 2 : 0;
    }
    int rank = SkifCh_Rank(), size = SkifCh_Size();
    SkifCh *ch = SkifCh_Open(0);
    if (!ch) {
        fprintf(stderr, "greeting: SkifCh_Open: %s\n", strerror(errno));
        return 1;
    }
    char msg[64];
    int len = snprintf(msg, sizeof(msg), "Hello from node %d", rank);
    struct iovec iov = {msg, (size_t)len};
    netaddr_t to = SkifCh_Addr((rank + 1) % size, 0);
    ssize_t n;
    while ((n = SkifCh_Send(ch, to, &iov, 1)) < 0 && errno == EAGAIN)
        ;
    if (n != len) {
        fprintf(stderr, "greeting: node %d: SkifCh_Send: %s\n", rank,
                n < 0 ? strerror(errno) : "partial send");
        return 1;
    }
    struct iovec cont[SKIFCH_CONT_SIZE];
    int parts;
    while ((n = SkifCh_Recv(ch, cont, &parts)) < 0 && errno == EAGAIN)
        ;
    if (n < 0) {
        fprintf(stderr, "greeting: node %d: SkifCh_Recv: %s\n", rank, strerror(errno));
        return 1;
    }
    char got[SKIFCH_MAX_MSG + 1];
    size_t at = 0;
    for (int i = 0; i < parts; i++) {
        memcpy(got + at, cont[i].iov_base, cont[i].iov_len);
        at += cont[i].iov_len;
    }
    got[at] = '\0';
    SkifCh_RecvComp(ch);
    printf("node %d: received \"%s\" at cycle %llu\n", rank, got,
           (unsigned long long)SkifCh_Cycle(ch));
    SkifCh_Close(ch);
    return 0;
}
