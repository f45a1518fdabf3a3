// upcall_guard.hh - a servant's link to its core (common/serve/upcall_gate.h):
// every operation enters the core through it and leaves on every way out.
// At the end of the run the servant detaches the link, so that no later
// operation touches the core, not even one the ORB had begun to unmarshal
// when the core closed; the core's close then drains those inside.
#ifndef DLS_UPCALL_GUARD_HH
#define DLS_UPCALL_GUARD_HH

#include <omnithread.h>

#include "dls/err.h"
#include "orb_util.hh"

template <typename Core, int (*Enter)(Core *, char *), void (*Leave)(Core *)>
class CoreLink {
public:
	explicit CoreLink(Core *core) : core_(core)
	{
	}

	// No operation reaches the core after this returns (they are refused
	// with "the run is over"); the core's close drains those inside.
	void detach()
	{
		omni_mutex_lock l(lock_);

		core_ = nullptr;
	}

	// One operation inside the core: refused with DLS::Refused once the
	// link is detached or the core is closing.
	class Inside {
	public:
		explicit Inside(CoreLink &link)
		{
			char why[256] = "the run is over";
			int rc = DLS_ESTATE;

			{
				omni_mutex_lock l(link.lock_);

				core_ = link.core_;
				if (core_)
					rc = Enter(core_, why);
			}
			if (rc)
				dls_refuse(rc, why);
		}
		~Inside()
		{
			Leave(core_);
		}
		Inside(const Inside &) = delete;
		Inside &operator=(const Inside &) = delete;

	private:
		Core *core_;
	};

private:
	omni_mutex lock_;
	Core *core_;
};

#endif
