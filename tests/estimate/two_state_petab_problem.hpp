// A' = u - k1 A, B' = k1 A - k2 B as a small PEtab problem the tests
// write, with pre-equilibration (test_petab_sensitivity_columns.cpp,
// test_petab_preequilibrations.cpp).
#pragma once

#include <string>

#include "odesens/petab.hpp"
#include "sources/petab_temp_problem.hpp"

namespace odesens::test {

// k2 is a fixed row of the parameter table; the condition table sets k1
// to a number (c0) or to the estimated kc (c1, c2, cp) and the production
// u to a number (0, 0.1, 0.2, 0.5). The model's S has columns k1, k2 and
// u, which the full model moves all; the solves with S carry k1's alone
// where kc sets it, and none in c0.
inline const char* const kTwoStateModel = R"(<?xml version="1.0" encoding="UTF-8"?>
<sbml xmlns="http://www.sbml.org/sbml/level2/version4" level="2" version="4">
  <model id="two">
    <listOfCompartments>
      <compartment id="cell" spatialDimensions="3" size="1" constant="true"/>
    </listOfCompartments>
    <listOfSpecies>
      <species id="A" compartment="cell" initialConcentration="1" boundaryCondition="false" constant="false"/>
      <species id="B" compartment="cell" initialConcentration="0" boundaryCondition="false" constant="false"/>
    </listOfSpecies>
    <listOfParameters>
      <parameter id="k1" value="0.5" constant="true"/>
      <parameter id="k2" value="0.1" constant="true"/>
      <parameter id="u" value="0" constant="true"/>
    </listOfParameters>
    <listOfReactions>
      <reaction id="make" reversible="false">
        <listOfProducts><speciesReference species="A" stoichiometry="1"/></listOfProducts>
        <kineticLaw><math xmlns="http://www.w3.org/1998/Math/MathML"><ci> u </ci></math></kineticLaw>
      </reaction>
      <reaction id="convert" reversible="false">
        <listOfReactants><speciesReference species="A" stoichiometry="1"/></listOfReactants>
        <listOfProducts><speciesReference species="B" stoichiometry="1"/></listOfProducts>
        <kineticLaw><math xmlns="http://www.w3.org/1998/Math/MathML">
          <apply><times/><ci> k1 </ci><ci> A </ci></apply></math></kineticLaw>
      </reaction>
      <reaction id="decay" reversible="false">
        <listOfReactants><speciesReference species="B" stoichiometry="1"/></listOfReactants>
        <kineticLaw><math xmlns="http://www.w3.org/1998/Math/MathML">
          <apply><times/><ci> k2 </ci><ci> B </ci></apply></math></kineticLaw>
      </reaction>
    </listOfReactions>
  </model>
</sbml>
)";

inline const char* const kTwoStateMeasurements =
    "observableId\tpreequilibrationConditionId\tsimulationConditionId\ttime\t"
    "measurement\n"
    "obs_a\t\tc0\t1\t0.7\nobs_b\t\tc0\t2\t0.4\n"
    "obs_a\t\tc1\t1\t0.6\nobs_b\t\tc1\t3\t0.5\n"
    "obs_a\tcp\tc1\t1\t0.9\nobs_b\tcp\tc1\t2\t1.1\nobs_b\tcp\tc1\tinf\t1.0\n";

class TwoStateProblem {
 public:
  // The measurements of the default: c0 and c1 from their initial states,
  // c1 after pre-equilibration in cp (and at time inf).
  explicit TwoStateProblem(const char* measurements = kTwoStateMeasurements) {
    files_.write("model.xml", kTwoStateModel);
    files_.write("parameters.tsv",
                 "parameterId\tparameterScale\tlowerBound\tupperBound\tnominalValue\testimate\n"
                 "kc\tlog10\t1e-3\t1e3\t0.4\t1\n"
                 "scale\tlin\t0.1\t10\t1.3\t1\n"
                 "k2\tlin\t0\t10\t0.2\t0\n");
    files_.write("conditions.tsv",
                 "conditionId\tk1\tu\n"
                 "c0\t0.3\t0\n"
                 "c1\tkc\t0.1\n"
                 "cp\tkc\t0.5\n"
                 "c2\tkc\t0.2\n");
    files_.write("observables.tsv",
                 "observableId\tobservableFormula\tnoiseFormula\n"
                 "obs_a\tA\t0.1\n"
                 "obs_b\tscale * B\t0.2\n");
    files_.write("measurements.tsv", measurements);
  }
  std::string yaml() const { return files_.path("problem.yaml"); }

 private:
  testing::TempProblem files_;
};

inline PetabOptions tight_two_state(const char* method) {
  PetabOptions o;
  o.method = method;
  o.rtol = 1e-11;
  o.atol = {1e-13};
  o.steady_state.rtol = 1e-12;
  o.steady_state.atol = 1e-14;
  return o;
}

}  // namespace odesens::test
