// What a path that is not a regular file is, for messages ("it is a
// directory, not a regular file").
#pragma once

#include <sys/stat.h>

namespace odesens {

// "a directory", "a FIFO (named pipe)", ... for st_mode; "a special file"
// for anything else that is not a regular file.
const char* kind_of_file(mode_t mode);

}  // namespace odesens
