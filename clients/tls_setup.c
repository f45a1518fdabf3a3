#define _POSIX_C_SOURCE 200809L
#include "tls_setup.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "net_addr.h"
#include "proc.h"

/* Runs openssl with the given arguments, output to log; 0 on success. */
static int openssl(char **args, const char *log)
{
	char *argv[40];
	int n = 0, ws;
	pid_t pid;

	argv[n++] = "openssl";
	for (int i = 0; args[i] && n < 39; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	pid = proc_spawn(argv, log, log, 0);
	if (pid < 0 || waitpid(pid, &ws, 0) != pid)
		return -1;
	return proc_status(ws) == 0 ? 0 : -1;
}

/* Writes text to path, mode 0600 whatever the umask; 0 or -1. */
/* path created (or emptied) for writing, mode 0600 whatever the umask; NULL
 * on failure. */
static FILE *create_private(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	FILE *f = fd < 0 || fchmod(fd, 0600) ? NULL : fdopen(fd, "w");

	if (!f && fd >= 0)
		close(fd);
	return f;
}

/* Writes text to path, mode 0600; 0 or -1. */
static int write_private(const char *path, const char *text)
{
	FILE *f = create_private(path);
	int rc;

	if (!f)
		return -1;
	rc = fputs(text, f) < 0;
	return fclose(f) || rc ? -1 : 0;
}

/* Appends the file from to the open stream out; 0 or -1. */
static int append_file(FILE *out, const char *from)
{
	FILE *in = fopen(from, "r");
	int c;

	if (!in)
		return -1;
	while ((c = fgetc(in)) != EOF)
		fputc(c, out);
	fclose(in);
	return 0;
}

/* 32 random bytes as 64 hex digits into buf (65 bytes); 0 or -1. */
static int random_password(char *buf)
{
	unsigned char raw[32];
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	ssize_t got = fd < 0 ? -1 : read(fd, raw, sizeof(raw));

	if (fd >= 0)
		close(fd);
	if (got != (ssize_t)sizeof(raw))
		return -1;
	for (size_t i = 0; i < sizeof(raw); i++)
		snprintf(buf + 2 * i, 3, "%02x", raw[i]);
	return 0;
}

int tls_make_ca(const char *dir, int days, char *why, size_t len)
{
	char key[4200], ca[4200], log[4200], daystr[16];

	if (mkdir(dir, 0700) && errno != EEXIST) {
		snprintf(why, len, "cannot create '%s': %s", dir, strerror(errno));
		return -1;
	}
	snprintf(key, sizeof(key), "%s/ca.key", dir);
	snprintf(ca, sizeof(ca), "%s/" TLS_CA_FILE, dir);
	snprintf(log, sizeof(log), "%s/openssl.log", dir);
	snprintf(daystr, sizeof(daystr), "%d", days);
	{
		char *mkca[] = {"req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
				"-out", ca, "-days", daystr, "-subj", "/CN=DLS CA", NULL};

		if (openssl(mkca, log) || chmod(key, 0600)) {
			snprintf(why, len, "openssl could not make the CA (see %s)", log);
			return -1;
		}
	}
	return 0;
}

/* The subjectAltName extension file for name and addr. */
static int write_san(const char *path, const char *name, const char *addr)
{
	unsigned char bin[16];
	int is_ip = inet_pton(AF_INET, addr, bin) == 1 || inet_pton(AF_INET6, addr, bin) == 1;
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "subjectAltName=DNS:%s,%s:%s\n", name, is_ip ? "IP" : "DNS", addr);
	return fclose(f) ? -1 : 0;
}

int tls_make_host(const char *dir, const char *name, const char *addr, int days, char *why,
		  size_t len)
{
	char hdir[4200], key[4300], csr[4300], crt[4300], node[4300], pw[4300], pwarg[4400];
	char ca[4200], cakey[4200], serial[4200], ext[4300], log[4300], subj[128], daystr[16];
	char password[65];
	FILE *out;

	snprintf(hdir, sizeof(hdir), "%s/%s", dir, name);
	if (mkdir(hdir, 0700) && errno != EEXIST) {
		snprintf(why, len, "cannot create '%s': %s", hdir, strerror(errno));
		return -1;
	}
	snprintf(key, sizeof(key), "%s/node.key", hdir);
	snprintf(csr, sizeof(csr), "%s/node.csr", hdir);
	snprintf(crt, sizeof(crt), "%s/node.crt", hdir);
	snprintf(node, sizeof(node), "%s/" TLS_KEY_FILE, hdir);
	snprintf(pw, sizeof(pw), "%s/" TLS_PASSWORD_FILE, hdir);
	snprintf(pwarg, sizeof(pwarg), "file:%s", pw);
	snprintf(ext, sizeof(ext), "%s/san.ext", hdir);
	snprintf(log, sizeof(log), "%s/openssl.log", hdir);
	snprintf(ca, sizeof(ca), "%s/" TLS_CA_FILE, dir);
	snprintf(cakey, sizeof(cakey), "%s/ca.key", dir);
	snprintf(serial, sizeof(serial), "%s/ca.srl", dir);
	snprintf(subj, sizeof(subj), "/CN=%s", name);
	snprintf(daystr, sizeof(daystr), "%d", days);
	if (random_password(password) || write_private(pw, password) ||
	    write_san(ext, name, addr)) {
		snprintf(why, len, "cannot write the key's password or '%s': %s", ext,
			 strerror(errno));
		return -1;
	}
	{
		char *mkkey[] = {"genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048",
				 "-aes256", "-pass", pwarg, "-out", key, NULL};
		char *mkreq[] = {"req", "-new", "-key", key, "-passin", pwarg, "-out", csr,
				 "-subj", subj, NULL};
		char *sign[] = {"x509", "-req", "-in", csr, "-CA", ca, "-CAkey", cakey,
				"-CAserial", serial, "-CAcreateserial", "-out", crt, "-days",
				daystr, "-extfile", ext, NULL};

		if (openssl(mkkey, log) || openssl(mkreq, log) || openssl(sign, log)) {
			snprintf(why, len, "openssl could not make %s's certificate (see %s)", name,
				 log);
			return -1;
		}
	}
	/* omniORB's key file holds the certificate and its (encrypted) key */
	out = create_private(node);
	if (!out || append_file(out, crt) || append_file(out, key) || fclose(out)) {
		snprintf(why, len, "cannot write '%s'", node);
		return -1;
	}
	{
		char hca[4300];
		FILE *c;

		snprintf(hca, sizeof(hca), "%s/" TLS_CA_FILE, hdir);
		c = fopen(hca, "w");
		if (!c || append_file(c, ca) || fclose(c)) {
			snprintf(why, len, "cannot write '%s'", hca);
			return -1;
		}
	}
	unlink(csr);
	return chmod(key, 0600) ? -1 : 0;
}
