// Method options are validated against the method's declaration.
#include <gtest/gtest.h>

#include <cmath>

#include "odesens/odesens.hpp"

namespace odesens {
namespace {

const std::vector<OptionSpec> kSpecs = {
    {"eps", OptionType::real, 1e-4, "tolerance", {}},
    {"nmax", OptionType::integer, std::int64_t{10}, "limit", {}},
    {"mode", OptionType::text, std::string("a"), "mode", {"a", "b"}},
};

Status status_of(const Options& given) {
  try {
    MethodOptions o("m", kSpecs, given);
  } catch (const Error& e) {
    return e.status();
  }
  return Status::ok;
}

TEST(MethodOptions, DefaultsApplyWhenNotGiven) {
  MethodOptions o("m", kSpecs, Options{});
  EXPECT_EQ(o.get_double("eps"), 1e-4);
  EXPECT_EQ(o.get_int("nmax"), 10);
  EXPECT_EQ(o.get_string("mode"), "a");
}

TEST(MethodOptions, GivenValuesOverrideAndIntegersWidenToReal) {
  Options given;
  given.set("eps", 3);
  given.set("nmax", 4);
  given.set("mode", "b");
  MethodOptions o("m", kSpecs, given);
  EXPECT_EQ(o.get_double("eps"), 3.0);
  EXPECT_EQ(o.get_int("nmax"), 4);
  EXPECT_EQ(o.get_string("mode"), "b");
}

TEST(MethodOptions, UnknownKeyWrongTypeAndBadChoiceAreErrors) {
  Options unknown;
  unknown.set("epsilon", 1.0);
  EXPECT_EQ(status_of(unknown), Status::unknown_option);
  Options real_for_int;
  real_for_int.set("nmax", 2.5);
  EXPECT_EQ(status_of(real_for_int), Status::option_type);
  Options text_for_real;
  text_for_real.set("eps", "small");
  EXPECT_EQ(status_of(text_for_real), Status::option_type);
  Options bad_choice;
  bad_choice.set("mode", "c");
  EXPECT_EQ(status_of(bad_choice), Status::option_type);
  Options nan;
  nan.set("eps", NAN);
  EXPECT_EQ(status_of(nan), Status::option_type);
}

TEST(MethodOptions, ErrorMessageNamesTheKeyAndTheKnownOptions) {
  Options unknown;
  unknown.set("epsilon", 1.0);
  try {
    MethodOptions o("m", kSpecs, unknown);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "method 'm' has no option 'epsilon' (options: eps, nmax, mode)");
  }
}

TEST(MethodOptions, EveryRegisteredOptionDefaultHasItsDeclaredType) {
  for (const auto& m : method_infos()) {
    MethodOptions o(m.id, m.options, Options{});
    for (const auto& spec : m.options) {
      switch (spec.type) {
        case OptionType::real: EXPECT_NO_THROW(o.get_double(spec.key)); break;
        case OptionType::integer: EXPECT_NO_THROW(o.get_int(spec.key)); break;
        case OptionType::text: EXPECT_NO_THROW(o.get_string(spec.key)); break;
      }
      EXPECT_FALSE(spec.doc.empty()) << m.id << "." << spec.key;
    }
  }
}

}  // namespace
}  // namespace odesens
