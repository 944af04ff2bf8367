// Option types, ranges and values as people write them, in help texts,
// documentation tables and messages.
#include <gtest/gtest.h>

#include <limits>

#include "odesens/odesens.hpp"

namespace odesens {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

OptionSpec real_in(double min, double max) {
  return bounded({"x", OptionType::real, 1.0, "x", {}}, min, max);
}

OptionSpec integer_in(double min, double max) {
  return bounded({"n", OptionType::integer, std::int64_t{1}, "n", {}}, min, max);
}

TEST(OptionText, RangesReadAsPeopleWriteThem) {
  EXPECT_EQ(range_text(real_in(std::numeric_limits<double>::min(), inf)), "> 0");
  EXPECT_EQ(range_text(real_in(std::numeric_limits<double>::denorm_min(), inf)), "> 0");
  EXPECT_EQ(range_text(real_in(0.0, inf)), ">= 0");
  EXPECT_EQ(range_text(real_in(1e-10, 1.0)), "1e-10 .. 1");
  EXPECT_EQ(range_text(real_in(0.01, 1.0)), "0.01 .. 1");
  EXPECT_EQ(range_text(real_in(-inf, 5.0)), "<= 5");
  EXPECT_EQ(range_text(real_in(-inf, -std::numeric_limits<double>::min())), "< 0");
  EXPECT_EQ(range_text(real_in(std::numeric_limits<double>::min(), 2.0)), "> 0 and <= 2");
  EXPECT_EQ(range_text(real_in(0.0, 1e20)), "0 .. 1e20");
  EXPECT_EQ(range_text(real_in(-inf, inf)), "");
  EXPECT_EQ(range_text(integer_in(1, inf)), ">= 1");
  EXPECT_EQ(range_text(integer_in(1, 1e9)), "1 .. 1e9");
  EXPECT_EQ(range_text(integer_in(1, 1e15)), "1 .. 1e15");
  EXPECT_EQ(range_text(integer_in(0, 1024)), "0 .. 1024");
  EXPECT_EQ(range_text(integer_in(1, 100000)), "1 .. 100000");
  EXPECT_EQ(range_text(integer_in(0, 1)), "0 or 1");
  EXPECT_EQ(range_text(flag_option("f", true, "f")), "0 or 1");
  EXPECT_EQ(range_text({"t", OptionType::text, std::string("a"), "t", {"a", "b"}}), "");
}

TEST(OptionText, TypesNameFlagsApart) {
  EXPECT_EQ(option_type_text(real_in(0.0, 1.0)), "real");
  EXPECT_EQ(option_type_text(integer_in(0, 2)), "integer");
  EXPECT_EQ(option_type_text(flag_option("f", false, "f")), "flag");
  EXPECT_EQ(option_type_text({"t", OptionType::text, std::string("a"), "t", {}}), "text");
}

TEST(OptionText, ValuesAreShortAndExact) {
  EXPECT_EQ(option_value_text(1e-4), "0.0001");
  EXPECT_EQ(option_value_text(1e-5), "1e-5");
  EXPECT_EQ(option_value_text(1e-10), "1e-10");
  EXPECT_EQ(option_value_text(1e20), "1e20");
  EXPECT_EQ(option_value_text(2.5), "2.5");
  EXPECT_EQ(option_value_text(std::int64_t{100000}), "100000");
  EXPECT_EQ(option_value_text(std::int64_t{1000000000}), "1e9");
  EXPECT_EQ(option_value_text(std::int64_t{1234567}), "1234567");
  EXPECT_EQ(option_value_text(std::string("bdf")), "bdf");
}

// The messages of values out of range say the range the same way.
TEST(OptionText, OutOfRangeMessagesSayTheRangeAsWritten) {
  const std::vector<OptionSpec> specs = {
      real_in(std::numeric_limits<double>::min(), inf), integer_in(1, 12),
      flag_option("f", false, "f")};
  const auto message = [&specs](const char* key, OptionValue value) {
    Options given;
    std::visit([&](const auto& v) { given.set(key, v); }, value);
    try {
      MethodOptions o("m", specs, given);
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::option_type);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("x", 0.0), "option 'x' of method 'm' must be > 0 (got 0)");
  EXPECT_EQ(message("n", std::int64_t{13}),
            "option 'n' of method 'm' must be from 1 to 12 (got 13)");
  EXPECT_EQ(message("f", std::int64_t{2}), "option 'f' of method 'm' must be 0 or 1 (got 2)");
}

// No registered option prints a range with a denormal or an infinity.
TEST(OptionText, NoRegisteredRangeShowsMachineNumbers) {
  for (const auto& m : method_infos())
    for (const auto& spec : m.options) {
      const std::string range = range_text(spec);
      EXPECT_EQ(range.find("e-308"), std::string::npos) << m.id << "." << spec.key;
      EXPECT_EQ(range.find("inf"), std::string::npos) << m.id << "." << spec.key;
      EXPECT_EQ(range.find('['), std::string::npos) << m.id << "." << spec.key;
    }
}

}  // namespace
}  // namespace odesens
