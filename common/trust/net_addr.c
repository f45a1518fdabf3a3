#define _POSIX_C_SOURCE 200809L
#include "net_addr.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

/* Splits "HOST[:PORT]" or "[V6][:PORT]" into host and the port's text. */
static int split_host_port(const char *spec, char *host, size_t hlen, const char **port)
{
	const char *colon;
	size_t n;

	*port = NULL;
	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');

		if (!close || (close[1] && close[1] != ':'))
			return -1;
		n = (size_t)(close - spec - 1);
		if (close[1] == ':')
			*port = close + 2;
		spec++;
	} else {
		colon = strchr(spec, ':');
		if (colon && strchr(colon + 1, ':')) /* a bare IPv6 address */
			colon = NULL;
		n = colon ? (size_t)(colon - spec) : strlen(spec);
		if (colon)
			*port = colon + 1;
	}
	if (n == 0 || n >= hlen)
		return -1;
	memcpy(host, spec, n);
	host[n] = 0;
	return 0;
}

/* Can a TCP socket be bound to host (port 0)?  0, or the errno. */
static int bindable(const char *host, char *why, size_t len)
{
	struct addrinfo hints = {0}, *res = NULL;
	int rc, err = 0;

	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	rc = getaddrinfo(host, "0", &hints, &res);
	if (rc) {
		snprintf(why, len, "cannot resolve it: %s", gai_strerror(rc));
		return -1;
	}
	for (struct addrinfo *a = res; a; a = a->ai_next) {
		int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);

		if (fd < 0) {
			err = errno;
			continue;
		}
		rc = bind(fd, a->ai_addr, a->ai_addrlen);
		err = rc ? errno : 0;
		close(fd);
		if (!rc) {
			freeaddrinfo(res);
			return 0;
		}
	}
	freeaddrinfo(res);
	snprintf(why, len, "not an address of this host (%s): give one of its own, see 'ip -br addr'",
		 strerror(err));
	return -1;
}

int net_listen_parse(const char *spec, struct net_listen *out, char *why, size_t len)
{
	const char *port;
	char *end;
	long p = 0;

	memset(out, 0, sizeof(*out));
	if (!spec || split_host_port(spec, out->host, sizeof(out->host), &port)) {
		snprintf(why, len, "must be ADDR, ADDR:PORT or [IPV6]:PORT");
		return -1;
	}
	if (port) {
		errno = 0;
		p = strtol(port, &end, 10);
		if (!*port || *end || errno || p < 0 || p > 65535) {
			snprintf(why, len, "the port must be a number in 0..65535");
			return -1;
		}
	}
	out->port = (int)p;
	return bindable(out->host, why, len);
}

char *net_url_host(const char *host, char *buf, size_t len)
{
	if (strchr(host, ':'))
		snprintf(buf, len, "[%s]", host);
	else
		snprintf(buf, len, "%s", host);
	return buf;
}

char *net_endpoint(const struct net_listen *l, int tls, char *buf, size_t len)
{
	const char *proto = tls ? "giop:ssl" : "giop:tcp";
	char port[16] = "", host[NET_HOST_LEN + 2];

	if (!l) {
		snprintf(buf, len, "%s::", proto);
		return buf;
	}
	if (l->port)
		snprintf(port, sizeof(port), "%d", l->port);
	snprintf(buf, len, "%s:%s:%s", proto, net_url_host(l->host, host, sizeof(host)), port);
	return buf;
}

/* The file dir/name readable: 0, or -1 with why filled. */
static int readable(const char *dir, const char *name, char *why, size_t len)
{
	char path[4400];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (access(path, R_OK)) {
		snprintf(why, len, "'%s': %s (make the folder with 'dls tls init')", path,
			 strerror(errno));
		return -1;
	}
	return 0;
}

int net_tls_dir_check(const char *dir, char *password, size_t plen, char *why, size_t len)
{
	char path[4400];
	struct stat st;
	ssize_t n;
	int fd;

	if (readable(dir, TLS_CA_FILE, why, len) || readable(dir, TLS_KEY_FILE, why, len))
		return -1;
	snprintf(path, sizeof(path), "%s/%s", dir, TLS_PASSWORD_FILE);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(why, len, "'%s': %s (make the folder with 'dls tls init')", path,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (st.st_mode & 077) {
		snprintf(why, len, "'%s': mode %03o: the key's password must be the owner's only "
			 "(chmod 600)", path, (unsigned)(st.st_mode & 0777));
		close(fd);
		return -1;
	}
	n = read(fd, password, plen - 1);
	close(fd);
	while (n > 0 && (password[n - 1] == '\n' || password[n - 1] == '\r'))
		n--;
	if (n <= 0 || (size_t)n >= plen - 1) {
		snprintf(why, len, "'%s': the key's password must be 1..%zu bytes", path, plen - 2);
		return -1;
	}
	password[n] = 0;
	return 0;
}
