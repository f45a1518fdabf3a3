// assignment_conv.hh - a TreeAssignment (IDL) as the placement the C core
// runs (slave_placement.h): the registration's answer and each next loop's.
#ifndef DLS_ASSIGNMENT_CONV_HH
#define DLS_ASSIGNMENT_CONV_HH

#include <stddef.h>

#include "dls.hh"
#include "slave_placement.h"

// r into *a: DLS_OK, or DLS_EINVAL with why for a job, gamma or policy it
// cannot take.
int slave_assignment_in(const DLS::TreeAssignment &r, struct placement *a, char *why, size_t len);

#endif
