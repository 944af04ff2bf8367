// Numbers in messages: the shortest decimal text that reads back as the
// same double ("0.1", "1e+308", not "0.100000" or 309 digits).
#pragma once

#include <string>

namespace odesens {

std::string number_text(double v);

// v to `digits` significant digits ("3.31", "1e-06"), for estimates whose
// further digits mean nothing.
std::string rounded_number_text(double v, int digits = 3);

// False for text strtod would read but that is no decimal number: a
// hexadecimal one (0x10, 0X1p3) or one after leading white space. The
// command line and the numeric tables take decimal numbers only, as the
// PEtab tables do.
bool decimal_number_text(const std::string& text);

}  // namespace odesens
