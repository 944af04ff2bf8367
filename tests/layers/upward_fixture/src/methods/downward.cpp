// A method including a model header: allowed.
#include "model/finite_differences.hpp"
