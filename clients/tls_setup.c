#include "tls_setup.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"

/* Runs openssl with the given arguments, output to log; 0 on success. */
static int openssl(char **args, const char *log)
{
	char *argv[32];
	int n = 0, ws;
	pid_t pid;

	argv[n++] = "openssl";
	for (int i = 0; args[i] && n < 31; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	pid = proc_spawn(argv, log, log, 0);
	if (pid < 0 || waitpid(pid, &ws, 0) != pid)
		return -1;
	return proc_status(ws) == 0 ? 0 : -1;
}

int tls_setup(const char *dir, char *why, size_t len)
{
	char ca_key[4200], ca[4200], key[4200], csr[4200], crt[4200], node[4200], log[4200];
	char serial[4200];
	FILE *out, *in;
	int c;

	snprintf(ca_key, sizeof(ca_key), "%s/ca.key", dir);
	snprintf(ca, sizeof(ca), "%s/ca.pem", dir);
	snprintf(key, sizeof(key), "%s/node.key", dir);
	snprintf(csr, sizeof(csr), "%s/node.csr", dir);
	snprintf(crt, sizeof(crt), "%s/node.crt", dir);
	snprintf(node, sizeof(node), "%s/node.pem", dir);
	snprintf(serial, sizeof(serial), "%s/ca.srl", dir);
	snprintf(log, sizeof(log), "%s/openssl.log", dir);
	{
		char *mkca[] = {"req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca_key,
				"-out", ca, "-days", "2", "-subj", "/CN=DLS run CA", NULL};
		char *mkreq[] = {"req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr,
				 "-subj", "/CN=127.0.0.1", NULL};
		char *sign[] = {"x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key,
				"-CAserial", serial, "-CAcreateserial", "-out", crt, "-days", "2",
				NULL};

		if (openssl(mkca, log) || openssl(mkreq, log) || openssl(sign, log)) {
			snprintf(why, len, "openssl could not make the run's certificates (see %s)",
				 log);
			return -1;
		}
	}
	/* omniORB's key file holds the certificate and its key: the owner's only */
	{
		int fd = open(node, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

		out = fd < 0 || fchmod(fd, 0600) ? NULL : fdopen(fd, "w");
		if (!out && fd >= 0)
			close(fd);
	}
	for (int k = 0; out && k < 2; k++) {
		in = fopen(k ? key : crt, "r");
		if (!in)
			break;
		while ((c = fgetc(in)) != EOF)
			fputc(c, out);
		fclose(in);
	}
	if (!out || fclose(out)) {
		snprintf(why, len, "cannot write '%s'", node);
		return -1;
	}
	/* the private keys openssl wrote, whatever the umask */
	if (chmod(ca_key, 0600) || chmod(key, 0600)) {
		snprintf(why, len, "cannot make the run's keys private (%s, %s)", ca_key, key);
		return -1;
	}
	return 0;
}
