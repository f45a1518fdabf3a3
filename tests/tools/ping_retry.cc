// ping_retry.cc - the liveness ping survives a connection closed under it
// (tests/integration/t_kill_slave.sh).  A peer's ORB closes a connection
// idle for inConScanPeriod; a ping sent at that moment fails with
// COMM_FAILURE although the peer lives, and the master declared it lost.
// Here a proxy in front of a live PingOnlySlave reads the first
// connection's request and closes it unanswered; dls_ping must answer
// DLS_OK through a second connection.  Then a ping to a closed port must
// fail at once: the retry never hides a peer that is gone.  Last, a call
// timeout given to dls_ref_with_timeout must hold on the typed
// reference it makes (the slave's and dls-hmaster's registration timeout):
// a ping to a peer that accepts and never answers ends in that timeout,
// not the process-wide one.  (Set on a corbaloc's reference before the
// narrow, it was lost: the narrow makes a new proxy.)
// Prints one line per check; exits 1 if one failed.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

#include "dls/err.h"
#include "orb_util.hh"
#include "ping_slave.hh"

struct proxy {
	int listener;
	int target_port;  // the ORB's own port
	int connections;  // accepted so far
};

// A TCP socket on 127.0.0.1: listening (port 0: any free one) or connected.
static int loopback_socket(int port, int listen_on)
{
	struct sockaddr_in a = {};
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0)
		return -1;
	if (listen_on ? bind(fd, (struct sockaddr *)&a, len) || listen(fd, 4)
		      : connect(fd, (struct sockaddr *)&a, len)) {
		close(fd);
		return -1;
	}
	return fd;
}

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static int bound_port(int fd)
{
	struct sockaddr_in a = {};
	socklen_t len = sizeof(a);

	getsockname(fd, (struct sockaddr *)&a, &len);
	return ntohs(a.sin_port);
}

// Copies octets both ways between a and b until either side closes.
static void relay(int a, int b)
{
	char buf[4096];
	struct pollfd p[2] = {{a, POLLIN, 0}, {b, POLLIN, 0}};

	while (poll(p, 2, -1) > 0) {
		for (int i = 0; i < 2; i++) {
			if (!p[i].revents)
				continue;
			ssize_t n = read(p[i].fd, buf, sizeof(buf));
			if (n <= 0 || write(p[1 - i].fd, buf, (size_t)n) != n)
				return;
		}
	}
}

// The first connection: its request is read and dropped, the connection
// closed unanswered; every later one goes through to the ORB.
static void *proxy_main(void *arg)
{
	struct proxy *px = (struct proxy *)arg;
	char buf[4096];

	for (;;) {
		int c = accept(px->listener, NULL, NULL);

		if (c < 0)
			return NULL;
		if (__atomic_fetch_add(&px->connections, 1, __ATOMIC_SEQ_CST) == 0) {
			if (read(c, buf, sizeof(buf)) <= 0)
				fprintf(stderr, "ping_retry: the first connection sent nothing\n");
			close(c);
			continue;
		}
		int t = loopback_socket(px->target_port, 0);
		if (t >= 0) {
			relay(c, t);
			close(t);
		}
		close(c);
	}
}

// The port in the first address of obj's reference ("giop:tcp:HOST:PORT").
static int ref_port(CORBA::Object_ptr obj)
{
	char addrs[512];
	const char *colon;

	if (!dls_ref_addresses(obj, addrs, sizeof(addrs)))
		return -1;
	*strchrnul(addrs, ',') = 0;
	colon = strrchr(addrs, ':');
	return colon ? atoi(colon + 1) : -1;
}

int main(int argc, char **argv)
{
	char why[256];
	int failures = 0;

	if (dls_orb_init(&argc, argv, 5000))
		return 2;
	// a key a corbaloc can name: the servant in omniORB's INS POA
	CORBA::Object_var obj = dls_orb()->resolve_initial_references("omniINSPOA");
	PortableServer::POA_var ins = PortableServer::POA::_narrow(obj);
	PortableServer::POAManager_var pm = ins->the_POAManager();
	PortableServer::ObjectId_var oid = PortableServer::string_to_ObjectId("ping");
	PingOnlySlave *servant = new PingOnlySlave();

	pm->activate();
	ins->activate_object_with_id(oid, servant);
	servant->_remove_ref();
	CORBA::Object_var direct = ins->id_to_reference(oid);

	struct proxy px = {loopback_socket(0, 1), ref_port(direct), 0};
	pthread_t tid;
	if (px.listener < 0 || px.target_port <= 0 ||
	    pthread_create(&tid, NULL, proxy_main, &px)) {
		fprintf(stderr, "ping_retry: cannot set up the proxy\n");
		return 2;
	}
	std::string loc = "corbaloc::127.0.0.1:" + std::to_string(bound_port(px.listener)) + "/ping";
	CORBA::Object_var direct_loc = dls_orb()->string_to_object(loc.c_str());
	CORBA::Object_var proxied = dls_ref_with_timeout<DLS::Slave>(direct_loc, 3000);
	int ok = dls_ping(proxied, why, sizeof(why)) == DLS_OK;
	int seen = __atomic_load_n(&px.connections, __ATOMIC_SEQ_CST);
	if (ok && seen == 2) {
		printf("ok: a ping whose connection closed unanswered was answered on a new one\n");
	} else {
		printf("FAILED: ping through a dropped connection (%d connections): %s\n",
		       seen, why);
		failures++;
	}

	// a port nobody listens on: the peer is gone, and the ping says so
	int gone = loopback_socket(0, 1), gone_port = bound_port(gone);
	close(gone);
	std::string dead = "corbaloc::127.0.0.1:" + std::to_string(gone_port) + "/ping";
	CORBA::Object_var dead_loc = dls_orb()->string_to_object(dead.c_str());
	CORBA::Object_var absent = dls_ref_with_timeout<DLS::Slave>(dead_loc, 3000);
	if (dls_ping(absent, why, sizeof(why)) != DLS_OK && strstr(why, "TRANSIENT")) {
		printf("ok: a ping to a closed port fails: %s\n", why);
	} else {
		printf("FAILED: a ping to a closed port answered\n");
		failures++;
	}
	// a peer that accepts (the kernel's backlog) and never answers: the
	// timeout set before dls_ping narrows the reference must end the call
	int silent = loopback_socket(0, 1);
	std::string mute = "corbaloc::127.0.0.1:" + std::to_string(bound_port(silent)) + "/ping";
	CORBA::Object_var unanswering = dls_orb()->string_to_object(mute.c_str());
	CORBA::Object_var timed = dls_ref_with_timeout<DLS::Slave>(unanswering, 300);
	long long t0 = now_ms();
	int answered = dls_ping(timed, why, sizeof(why)) == DLS_OK;
	long long waited = now_ms() - t0;
	if (!answered && waited < 2000) {
		printf("ok: a typed reference's 300 ms timeout ended a call to a silent peer "
		       "after %lld ms (process-wide: 5000): %s\n", waited, why);
	} else {
		printf("FAILED: a typed reference's 300 ms timeout was not kept: the call to "
		       "a silent peer took %lld ms\n", waited);
		failures++;
	}
	close(silent);
	dls_orb_destroy();		     // ends the relayed connection
	shutdown(px.listener, SHUT_RDWR); // and the proxy's accept
	pthread_join(tid, NULL);
	close(px.listener);
	return failures ? 1 : 0;
}
