/*
 * net_addr: --listen values parsed and checked against this host's own
 * addresses, the endpoints omniORB gets, and a TLS folder's checks (the
 * password file's mode, size and newline).
 */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "net_addr.h"
#include "suites.h"

static void test_listen(void)
{
	struct net_listen l;
	char why[256], ep[300];

	CU_ASSERT_EQUAL(net_listen_parse("127.0.0.1", &l, why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(l.host, "127.0.0.1");
	CU_ASSERT_EQUAL(l.port, 0);
	CU_ASSERT_STRING_EQUAL(net_endpoint(&l, 0, ep, sizeof(ep)), "giop:tcp:127.0.0.1:");
	CU_ASSERT_STRING_EQUAL(net_endpoint(&l, 1, ep, sizeof(ep)), "giop:ssl:127.0.0.1:");
	CU_ASSERT_EQUAL(net_listen_parse("127.0.0.2:4711", &l, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(l.port, 4711);
	CU_ASSERT_STRING_EQUAL(net_endpoint(&l, 0, ep, sizeof(ep)), "giop:tcp:127.0.0.2:4711");
	CU_ASSERT_STRING_EQUAL(net_endpoint(NULL, 1, ep, sizeof(ep)), "giop:ssl::");
	/* IPv6 in brackets, with or without a port; bare */
	if (net_listen_parse("[::1]:0", &l, why, sizeof(why)) == 0) { /* IPv6 may be off */
		CU_ASSERT_STRING_EQUAL(l.host, "::1");
		CU_ASSERT_STRING_EQUAL(net_endpoint(&l, 0, ep, sizeof(ep)), "giop:tcp:[::1]:");
		CU_ASSERT_EQUAL(net_listen_parse("::1", &l, why, sizeof(why)), 0);
		CU_ASSERT_STRING_EQUAL(l.host, "::1");
	}
	/* refused, with the cause */
	CU_ASSERT_EQUAL(net_listen_parse("192.0.2.1", &l, why, sizeof(why)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "not an address of this host"));
	CU_ASSERT_EQUAL(net_listen_parse("127.0.0.1:65536", &l, why, sizeof(why)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "0..65535"));
	CU_ASSERT_EQUAL(net_listen_parse("127.0.0.1:x", &l, why, sizeof(why)), -1);
	CU_ASSERT_EQUAL(net_listen_parse("", &l, why, sizeof(why)), -1);
	CU_ASSERT_EQUAL(net_listen_parse(":80", &l, why, sizeof(why)), -1);
	CU_ASSERT_EQUAL(net_listen_parse("[::1", &l, why, sizeof(why)), -1);
	CU_ASSERT_EQUAL(net_listen_parse("no-such-host.invalid", &l, why, sizeof(why)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "cannot resolve"));
}

static void write_file(const char *dir, const char *name, const char *text, mode_t mode)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	chmod(path, mode);
}

static void test_tls_dir(void)
{
	char dir[] = "/tmp/dls-net-XXXXXX", pw[64], why[4600], cmd[600];

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	CU_ASSERT_EQUAL(net_tls_dir_check(dir, pw, sizeof(pw), why, sizeof(why)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "ca.pem"));
	write_file(dir, TLS_CA_FILE, "ca", 0644);
	write_file(dir, TLS_KEY_FILE, "key", 0600);
	CU_ASSERT_EQUAL(net_tls_dir_check(dir, pw, sizeof(pw), why, sizeof(why)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "node.password"));
	write_file(dir, TLS_PASSWORD_FILE, "secret\n", 0644);
	CU_ASSERT_EQUAL(net_tls_dir_check(dir, pw, sizeof(pw), why, sizeof(why)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "mode 644"));
	write_file(dir, TLS_PASSWORD_FILE, "secret\n", 0600);
	CU_ASSERT_EQUAL(net_tls_dir_check(dir, pw, sizeof(pw), why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(pw, "secret");
	write_file(dir, TLS_PASSWORD_FILE, "\n", 0600);
	CU_ASSERT_EQUAL(net_tls_dir_check(dir, pw, sizeof(pw), why, sizeof(why)), -1);
	write_file(dir, TLS_PASSWORD_FILE,
		   "0123456789012345678901234567890123456789012345678901234567890123456789", 0600);
	CU_ASSERT_EQUAL(net_tls_dir_check(dir, pw, sizeof(pw), why, sizeof(why)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "1..62 bytes"));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

int net_addr_suite_add(void)
{
	CU_pSuite s = CU_add_suite("net_addr: --listen and --tls-dir", NULL, NULL);

	if (!s)
		return 1;
	return !CU_add_test(s, "--listen parsed, checked bindable, endpoints", test_listen) ||
	       !CU_add_test(s, "a TLS folder: files, password mode and size", test_tls_dir);
}
