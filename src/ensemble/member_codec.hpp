// An ensemble member as bytes and back, for sending members between the
// processes of an MPI run: status, message and the whole Result (every
// array bit for bit, the statistics, the warnings).
#pragma once

#include <cstddef>
#include <vector>

#include "odesens/ensemble.hpp"

namespace odesens::ensemble {

// Member `index` (which member it is) and its content, appended to `out`.
void encode_member(std::size_t index, const EnsembleMember& member, std::vector<char>& out);

// The inverse of encode_member on the bytes [data, data + size): the
// member's index into *index. Throws Error(internal_error) when the bytes
// are not one encoded member.
EnsembleMember decode_member(const char* data, std::size_t size, std::size_t* index);

}  // namespace odesens::ensemble
