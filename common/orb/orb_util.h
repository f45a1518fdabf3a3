/*
 * orb_util.h - the ORB as C sees it: one per process.  main() calls
 * dls_orb_init() first, so that the standard -ORB... options are consumed
 * by the ORB (and removed from argv) before the program parses its own.
 */
#ifndef DLS_ORB_UTIL_H
#define DLS_ORB_UTIL_H

#ifdef __cplusplus
extern "C" {
#endif

/* How long, by default, the pings of a slave below a relay hmaster may fail
 * before it counts as lost (slave_refs.hh, SlaveRefs::remember_relayed;
 * dls-master and dls-hmaster --relay-grace-ms). */
#define DLS_RELAY_GRACE_MS 3000

/*
 * Initialises the ORB from argv (removing the -ORB options it takes) and
 * sets the default call timeout.  With -ORBsslCAFile among the options it
 * first loads omniORB's TLS transport, so that giop:ssl endpoints and
 * -ORBsslKeyFile, -ORBsslKeyPassword, -ORBsslVerifyMode work.  DLS_OK, or
 * DLS_EREMOTE with the reason logged.
 */
int dls_orb_init(int *argc, char **argv, int call_timeout_ms);

struct net_listen;

/*
 * The same for a server placed on a network (net_addr.h): listen (NULL:
 * omniORB's default, every interface) is the one address it binds and
 * advertises in its object references; tls_dir (NULL: plain IIOP) a TLS
 * folder whose CA, key and key password it uses, both ways verified
 * (peer,fail), then it listens on giop:ssl only.  Options given as -ORB...
 * arguments still win.  DLS_OK, or DLS_EREMOTE with the reason logged.
 */
int dls_orb_init_net(int *argc, char **argv, int call_timeout_ms,
		     const struct net_listen *listen, const char *tls_dir);

/* Shuts the ORB down and destroys it; no-op when not initialised. */
void dls_orb_destroy(void);

/* "DLS/<run>/<leaf>" into buf (at least 192 bytes); returns buf. */
char *dls_name_path(char *buf, const char *run, const char *leaf);

#ifdef __cplusplus
}
#endif
#endif
