/*
 * tls_setup.h - a certificate authority and one key and certificate per host
 * (`dls tls init`, `dls run --tls`), made with the openssl command.  A host's
 * folder, DIR/NAME, is what its programs take as --tls-dir (net_addr.h):
 * ca.pem, node.pem (its certificate, then its key, encrypted) and
 * node.password (the key's password, mode 0600).
 */
#ifndef DLS_TLS_SETUP_H
#define DLS_TLS_SETUP_H

#include <stddef.h>

/*
 * Makes dir (mode 0700 if new) and in it a new CA: dir/ca.pem and its key
 * dir/ca.key (0600), valid for days.  0, or -1 with why filled (openssl's
 * output is in dir/openssl.log).
 */
int tls_make_ca(const char *dir, int days, char *why, size_t len);

/*
 * Makes dir/name/ for host `name`: a key encrypted with a new random
 * password and a certificate signed by dir's CA, with name and addr (an IP
 * address or a DNS name) in its subjectAltName, valid for days.  0, or -1
 * with why filled.
 */
int tls_make_host(const char *dir, const char *name, const char *addr, int days, char *why,
		  size_t len);

#endif
