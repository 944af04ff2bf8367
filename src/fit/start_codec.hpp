// A fit's start result as bytes and back, for sending it between the
// processes of an MPI run (mpi_fit.hpp): every field, bit for bit.
#pragma once

#include <cstddef>
#include <vector>

#include "odesens/fit.hpp"

namespace odesens::fitting {

void encode_start(const StartResult& s, std::vector<char>& out);

// The inverse of encode_start on [data, data + size); Error(internal_error)
// when the bytes are not one encoded start.
StartResult decode_start(const char* data, std::size_t size);

}  // namespace odesens::fitting
