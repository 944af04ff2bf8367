// A rename made durable: after rename(2) the new name is on disk only once
// the folder that holds it is synced.
#pragma once

#include <string>

namespace odesens::io {

// Syncs the folder of `path` (".", when it names no folder). A folder that
// cannot be opened or synced leaves the file in place all the same: the
// rename is done, only its durability is not ensured, so nothing is reported.
void sync_folder_of(const std::string& path);

}  // namespace odesens::io
