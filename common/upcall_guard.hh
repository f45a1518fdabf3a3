// upcall_guard.hh - one servant operation inside a core that can close
// (common/upcall_gate.h): the core's enter call first, refused with
// DLS::Refused once the core is closing; its leave call on every way out.
#ifndef DLS_UPCALL_GUARD_HH
#define DLS_UPCALL_GUARD_HH

#include "orb_util.hh"

template <typename Core, int (*Enter)(Core *, char *), void (*Leave)(Core *)>
class UpcallGuard {
public:
	explicit UpcallGuard(Core *core) : core_(core)
	{
		char why[256] = "";
		int rc = Enter(core, why);

		if (rc)
			dls_refuse(rc, why);
	}
	~UpcallGuard()
	{
		Leave(core_);
	}
	UpcallGuard(const UpcallGuard &) = delete;
	UpcallGuard &operator=(const UpcallGuard &) = delete;

private:
	Core *core_;
};

#endif
