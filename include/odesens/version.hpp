// Version of the library these headers belong to. CMakeLists.txt reads the
// project version from here, so this is the one place to change it.
#pragma once

#define ODESENS_VERSION_MAJOR 0
#define ODESENS_VERSION_MINOR 1
#define ODESENS_VERSION_PATCH 0
#define ODESENS_VERSION_STRING "0.1.0"
