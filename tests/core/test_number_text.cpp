// Numbers and text in messages (src/core): the shortest text that reads
// back as the same double, without an exponent for whole numbers; bytes of
// a user's file escaped.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cmath>
#include <limits>

#include "core/number_text.hpp"
#include "core/quoted_text.hpp"

namespace odesens {
namespace {

TEST(NumberText, IsShortAndReadsBackAsTheSameDouble) {
  EXPECT_EQ(number_text(0.1), "0.1");
  EXPECT_EQ(number_text(0.5), "0.5");
  EXPECT_EQ(number_text(1e-7), "1e-07");
  EXPECT_EQ(number_text(1e308), "1e+308");
  EXPECT_EQ(number_text(1e15), "1e+15");
  for (const double v : {1.0 / 3.0, 2.0 / 3.0 * 1e10, 123456.789, -9.87654321e-3,
                         std::numeric_limits<double>::max(), std::numeric_limits<double>::min(),
                         999.9999999999999, 1e14 + 1.0})
    EXPECT_EQ(std::strtod(number_text(v).c_str(), nullptr), v) << number_text(v);
}

// NaN is "nan" whatever its sign bit (printf wrote "-nan" for a NaN an
// event assignment computed as 0/0).
TEST(NumberText, NanIsNanWhateverItsSign) {
  EXPECT_EQ(number_text(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(number_text(-std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(number_text(std::copysign(std::numeric_limits<double>::quiet_NaN(), -1.0)), "nan");
}

TEST(NumberText, WholeNumbersHaveNoExponent) {
  EXPECT_EQ(number_text(10.0), "10");
  EXPECT_EQ(number_text(-200.0), "-200");
  EXPECT_EQ(number_text(100000.0), "100000");
  EXPECT_EQ(number_text(225792840.0), "225792840");
  EXPECT_EQ(number_text(1e14), "100000000000000");
}

TEST(QuotedText, EscapesWhatIsNotPrintableAscii) {
  EXPECT_EQ(quoted_text("k1"), "'k1'");
  EXPECT_EQ(quoted_text(std::string("a\x1b[2J\r\0b", 8)), "'a\\x1B[2J\\x0D\\x00b'");
  EXPECT_EQ(printable_text("\xc3\xa4\t"), "\\xC3\\xA4\\x09");
}

}  // namespace
}  // namespace odesens
