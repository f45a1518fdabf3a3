/*
 * net_addr.h - the address a server listens on (--listen ADDR[:PORT]) and
 * the TLS folder it proves itself with (--tls-dir D): parsed and checked
 * here, before the ORB starts, so that a wrong address or a missing key is
 * a clear error naming the value instead of an ORB that cannot bind.
 */
#ifndef DLS_NET_ADDR_H
#define DLS_NET_ADDR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NET_HOST_LEN 256

/* A parsed --listen value: host (a name, an IPv4 address or an IPv6 one
 * without brackets) and port (0: any free port). */
struct net_listen {
	char host[NET_HOST_LEN];
	int port;
};

/*
 * Parses spec, "ADDR", "ADDR:PORT", "[IPV6]" or "[IPV6]:PORT", into *out
 * and checks that this host can bind that address (so it is one of its
 * own).  0, or -1 with why filled (the cause, without the value).
 */
int net_listen_parse(const char *spec, struct net_listen *out, char *why, size_t len);

/* host as an address in a URL or endpoint wants it: an IPv6 address in
 * brackets, anything else as it is.  Returns buf. */
char *net_url_host(const char *host, char *buf, size_t len);

/*
 * The omniORB endpoint for l: "giop:tcp:HOST:PORT" or, with tls,
 * "giop:ssl:HOST:PORT" (IPv6 in brackets; port empty when 0).  l NULL:
 * every interface ("giop:tcp::").  Returns buf.
 */
char *net_endpoint(const struct net_listen *l, int tls, char *buf, size_t len);

/* The files of a TLS folder (dls tls init): the CA's certificate, this
 * host's certificate with its encrypted key, and the key's password. */
#define TLS_CA_FILE "ca.pem"
#define TLS_KEY_FILE "node.pem"
#define TLS_PASSWORD_FILE "node.password"

/*
 * Checks a TLS folder: its CA and key file readable, its password file
 * readable, mode 0600 (or stricter) and of 1..255 bytes, which go to
 * password (the trailing newline removed).  0, or -1 with why filled
 * (the file and the cause).
 */
int net_tls_dir_check(const char *dir, char *password, size_t plen, char *why, size_t len);

#ifdef __cplusplus
}
#endif
#endif
