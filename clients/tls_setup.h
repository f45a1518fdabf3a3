/*
 * tls_setup.h - a throw-away certificate authority and node certificate for
 * one run (`dls run --tls`), made with the openssl command.
 */
#ifndef DLS_TLS_SETUP_H
#define DLS_TLS_SETUP_H

#include <stddef.h>

/*
 * Writes dir/ca.pem (the run's CA) and dir/node.pem (a certificate for
 * 127.0.0.1 signed by it, with its key, as omniORB's -ORBsslKeyFile wants).
 * 0, or -1 with why filled (the openssl output is in dir/openssl.log).
 */
int tls_setup(const char *dir, char *why, size_t len);

#endif
