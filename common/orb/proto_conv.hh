// proto_conv.hh - conversions between the IDL messages (dls.hh) and their
// plain C forms (dls_proto.h), shared by every adapter.  Results are never
// copied: the C side borrows the IDL buffers and the IDL side the C buffers.
#ifndef DLS_PROTO_CONV_HH
#define DLS_PROTO_CONV_HH

#include <vector>

#include "dls.hh"
#include "pile_policy.h"
#include "dls_proto.h"

// What a request converted to C points to: its result descriptors (which
// borrow the IDL buffers) and its measured chunks.
struct proto_request_mem {
	std::vector<struct dls_result> results;
	std::vector<struct dls_chunk_time> measured;
};

// IDL -> C.  `res` owns the result descriptors the request points to.
void proto_results_in(const DLS::ResultSeq &in, std::vector<struct dls_result> &res);
void proto_request_in(const DLS::ChunkRequest &in, proto_request_mem &mem,
		      struct dls_request *out);
void proto_reply_in(const DLS::Reply &in, struct dls_reply *out);
// A merged message: `mem[i]` holds what `reqs[i]` points to.
void proto_requests_in(const DLS::RequestSeq &in, std::vector<proto_request_mem> &mem,
		       std::vector<struct dls_request> &reqs);
// DLS_OK, or DLS_EINVAL with why when the job cannot be taken (another
// protocol version, a name or parameter too long for the C form).
int proto_job_in(const DLS::JobSpec &in, struct dls_job *out, char *why, size_t len);
// Returns when a registration's version is ours; else throws DLS::Refused
// naming the operation, both versions and the fix.
void proto_require_version(CORBA::ULong version, const char *op);

// C -> IDL.  The sequences borrow the C buffers, which must outlive them.
void proto_results_out(const struct dls_result *res, size_t n, DLS::ResultSeq &out);
void proto_request_out(const struct dls_request &in, DLS::ChunkRequest &out);
DLS::Reply proto_reply_out(int slave_id, const struct dls_reply &in);
DLS::JobSpec proto_job_out(const struct dls_job &in);
// A merged registration: names and speeds as C arrays (borrowing the IDL
// strings).  NULL, or the reason to refuse it (counts differ, nil self).
const char *proto_group_in(const DLS::StringSeq &names, const DLS::DoubleSeq &speeds,
			   DLS::Slave_ptr self, std::vector<const char *> &nm,
			   std::vector<double> &sp);
// Its answer: the global ids, capabilities and V_i, and the job (the
// proof is the caller's to add).
DLS::GroupRegistration *proto_group_out(const std::vector<int> &ids,
					const std::vector<uint64_t> &keys,
					const std::vector<double> &vpowers,
					const DLS::JobSpec &job);

// The replies of a merged message, one per request, in request order.
DLS::ReplySeq *proto_replies_out(const std::vector<struct dls_request> &reqs,
				 const std::vector<struct dls_reply> &replies);

// A slave's running totals.
void proto_times_in(const DLS::SlaveTimes &in, struct dls_times *out);
void proto_times_out(const struct dls_times &in, DLS::SlaveTimes &out);

// The workpile/roc parameters of a TreeAssignment, both ways.
void proto_pile_params_out(const struct pile_params *in, DLS::PileParams &out);
void proto_pile_params_in(const DLS::PileParams &in, struct pile_params *out);

// A status snapshot (the master's, or a two-level hmaster's local one) as
// the IDL RunStatus, and back (scheme: storage for the scheme's name).
DLS::RunStatus *proto_status_out(const struct dls_status &s);
int proto_status_in(const DLS::RunStatus &s, struct dls_status *out, char *scheme,
		    size_t scheme_len);

#endif
