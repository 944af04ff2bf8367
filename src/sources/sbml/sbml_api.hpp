// libsbml's C++ API, whether or not libsbml was built with its `libsbml`
// namespace (Debian builds it without, so its classes are global). Inside
// odesens::expr::sbml its names are found unqualified; only its Model needs
// another name, since odesens::Model would hide it.
#pragma once

#include <sbml/SBMLTypes.h>

namespace odesens::expr::sbml {
#ifdef LIBSBML_USE_CPP_NAMESPACE
using namespace libsbml;
using SbmlModel = libsbml::Model;
#else
using SbmlModel = ::Model;
#endif
}  // namespace odesens::expr::sbml
