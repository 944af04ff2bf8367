// Both set-valued methods on the paper's case studies: the full
// containment matrix (case studies x remainders x bases, 1000 samples plus
// the corners; ctest label `slow`) and the cubic oscillator's dF/dp widths
// against the paper's FSA and ASA enclosures (section 5.1).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "methods/bounds/case_study_containment.hpp"
#include "odesens/odesens.hpp"

namespace odesens {
namespace {

using testing::batch_reactor;
using testing::bounds_problem;
using testing::CaseStudy;
using testing::cubic_oscillator;
using testing::digester;
using testing::kSanitized;
using testing::width;

class BoundsPaper : public ::testing::TestWithParam<std::string> {};
class BoundsPaperSlow : public ::testing::TestWithParam<std::string> {};

// On the cubic oscillator only Chebyshev models with ellipsoidal remainders
// (the paper's choice) stay bounded to t = 100 at q = 4; Taylor models with
// ellipsoids run to t = 10, interval remainders wrap without bound sooner
// (Chebyshev to t = 9: by t = 10 the enclosures of S pass max_width; Taylor
// to t = 5: they overflow near t = 7.6).
TEST_P(BoundsPaperSlow, CaseStudiesContainSampledSolutions) {
  for (const std::string remainder : {"ellipsoid", "interval"})
    for (const std::string basis : {"chebyshev", "taylor"}) {
      const bool ellipsoid = remainder == "ellipsoid", chebyshev = basis == "chebyshev";
      const double t_end = ellipsoid ? (chebyshev ? 100.0 : 10.0) : (chebyshev ? 9.0 : 5.0);
      for (const CaseStudy& c : {cubic_oscillator(t_end), digester(), batch_reactor()})
        testing::expect_contained(GetParam(), c, c.name == "anaerobic digester" ? 3 : 4,
                                  remainder, basis, 1000);
    }
}

// Widths at q = 4, 5, 8 within 2x the paper's (Chebyshev, ellipsoidal
// remainders), shrinking with q, and the sampled range inside.
TEST_P(BoundsPaper, CubicOscillatorWidthsShrinkWithOrderAndMeetThePaper) {
  if (kSanitized) GTEST_SKIP() << "t = 100 at q = 8: checked in the Release run";
  const bool fsa = GetParam() == "bounds_fsa";
  const CaseStudy c = cubic_oscillator();
  const struct {
    int q;
    double fsa_w1, fsa_w2, asa_w1, asa_w2;
  } paper[] = {{4, 4.438 - 1.454, 3.566 + 1.553, 4.947 - 0.945, 4.841 + 2.829},
               {5, 3.806 - 2.085, 2.417 + 0.406, 3.876 - 2.015, 2.617 + 0.604},
               {8, 3.639 - 2.252, 2.123 + 0.111, 3.640 - 2.252, 2.125 + 0.113}};
  double previous[2] = {INFINITY, INFINITY};
  for (const auto& row : paper) {
    SCOPED_TRACE("q = " + std::to_string(row.q));
    const Result r = solve(bounds_problem(c, row.q, "ellipsoid"), GetParam());
    const double w[2] = {width(r.bounds.gradient_hull, 0), width(r.bounds.gradient_hull, 1)};
    EXPECT_LE(w[0], 2.0 * (fsa ? row.fsa_w1 : row.asa_w1));
    EXPECT_LE(w[1], 2.0 * (fsa ? row.fsa_w2 : row.asa_w2));
    EXPECT_LT(w[0], previous[0]);
    EXPECT_LT(w[1], previous[1]);
    previous[0] = w[0];
    previous[1] = w[1];
    // The true range (dense sampling) lies inside.
    EXPECT_LE(r.bounds.gradient_hull[0], 2.4606);
    EXPECT_GE(r.bounds.gradient_hull[1], 3.5918);
    EXPECT_LE(r.bounds.gradient_hull[2], -0.0485);
    EXPECT_GE(r.bounds.gradient_hull[3], 1.8938);
  }
}

INSTANTIATE_TEST_SUITE_P(BothVariants, BoundsPaper,
                         ::testing::Values(std::string("bounds_fsa"), std::string("bounds_asa")));
INSTANTIATE_TEST_SUITE_P(BothVariants, BoundsPaperSlow,
                         ::testing::Values(std::string("bounds_fsa"), std::string("bounds_asa")));

}  // namespace
}  // namespace odesens
