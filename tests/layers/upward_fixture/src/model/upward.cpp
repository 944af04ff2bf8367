// A model file that reaches up into the methods layer: must be reported.
#include "methods/registry.hpp"
