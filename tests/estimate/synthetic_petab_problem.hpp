// A small PEtab problem with a known optimum, written to a temporary
// folder: A' = -k1 A, A(0) = initial_a (1), observed as obs = scale * A at t = 0, 0.5,
// ..., 6 with noise sd, the data made by the model at k1_true, scale_true
// (plus perturbation * (-1)^k at the k-th point, so that an estimated sd
// has a positive optimum). Estimated: k1 (log10, bounds k1_lower..k1_upper),
// scale (lin, 0.1..10) and, when sd_estimated, sd (log10, sd_lower..10).
#pragma once

#include <stdlib.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace odesens::test {

struct SyntheticOptions {
  double k1_true = 0.3, scale_true = 2.0;
  double k1_lower = 1e-3, k1_upper = 10.0;
  double k1_nominal = 1.0, scale_nominal = 1.0;
  double sd = 0.1;
  double initial_a = 1.0;  // A(0), in the data as in the model
  bool sd_estimated = false;
  double sd_lower = 1e-3;
  // false: k1 held at k1_nominal, so that no estimated parameter acts on
  // the dynamics.
  bool k1_estimated = true;
  double perturbation = 0.0;
  std::string noise = "normal";  // noiseDistribution
  // A' = +k1 A^2 instead: the solution blows up at t = 1/k1, so that the
  // simulation fails for k1 > 1/6 (the data stay the decay's).
  bool blow_up = false;
  // Observed as scale * scale2 * A, scale2 estimated (lin, 0.1..10): only
  // the product is identifiable.
  bool second_scale = false;
  // Observed as scale * A + sqrt(offset), offset estimated (lin, 0..1,
  // nominal 0.5): at offset = 0 h is finite and its derivative in offset
  // is not.
  bool sqrt_offset = false;
  // The decay (or the blow-up) starts at t = lag (its rate times
  // piecewise(0, t < lag, 1)),
  // lag estimated (lin, 0..lag_upper, nominal 0; the data's is 0): at lag
  // past the last measurement (6) nothing measured depends on lag or k1.
  bool lag = false;
  double lag_upper = 24.0;
  // objectivePriorType and objectivePriorParameters of k1, scale; empty: none.
  std::string k1_prior, scale_prior;
  // initializationPriorType and initializationPriorParameters of k1, scale
  // ("normal\t0.3;0.1"); empty: none.
  std::string k1_initialization, scale_initialization;
};

class SyntheticProblem {
 public:
  explicit SyntheticProblem(const SyntheticOptions& o = {}) {
    std::string pattern = (std::filesystem::temp_directory_path() / "fit_XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
    write("problem.yaml",
          "format_version: 1\nparameter_file: parameters.tsv\nproblems:\n"
          "- sbml_files: [model.xml]\n  condition_files: [conditions.tsv]\n"
          "  measurement_files: [measurements.tsv]\n  observable_files: [observables.tsv]\n");
    write("model.xml", model(o.blow_up, o.initial_a, o.lag));
    write("conditions.tsv", "conditionId\nc0\n");
    write("observables.tsv",
          "observableId\tobservableFormula\tnoiseFormula\tnoiseDistribution\n"
          "obs\t" + std::string(o.second_scale ? "scale * scale2 * A" : "scale * A") +
              (o.sqrt_offset ? " + sqrt(offset)" : "") + "\tsd\t" + o.noise + "\n");
    std::ostringstream m;
    m.precision(17);
    m << "observableId\tsimulationConditionId\ttime\tmeasurement\n";
    for (int k = 0; k <= 12; ++k) {
      const double t = 0.5 * k;
      const double y = o.scale_true * o.initial_a * std::exp(-o.k1_true * t) +
                       o.perturbation * (k % 2 ? -1 : 1);
      m << "obs\tc0\t" << t << "\t" << y << "\n";
    }
    write("measurements.tsv", m.str());
    std::ostringstream p;
    p.precision(17);
    p << "parameterId\tparameterScale\tlowerBound\tupperBound\tnominalValue\testimate\t"
         "objectivePriorType\tobjectivePriorParameters\tinitializationPriorType\t"
         "initializationPriorParameters\n";
    p << "k1\tlog10\t" << o.k1_lower << "\t" << o.k1_upper << "\t" << o.k1_nominal << "\t"
      << (o.k1_estimated ? 1 : 0) << "\t" << prior(o.k1_prior) << "\t"
      << prior(o.k1_initialization) << "\n";
    p << "scale\tlin\t0.1\t10\t" << o.scale_nominal << "\t1\t" << prior(o.scale_prior) << "\t"
      << prior(o.scale_initialization) << "\n";
    if (o.second_scale) p << "scale2\tlin\t0.1\t10\t1\t1\t\t\n";
    if (o.sqrt_offset) p << "offset\tlin\t0\t1\t0.5\t1\t\t\n";
    if (o.lag) p << "lag\tlin\t0\t" << o.lag_upper << "\t0\t1\t\t\n";
    p << "sd\tlog10\t" << o.sd_lower << "\t10\t" << o.sd << "\t" << (o.sd_estimated ? 1 : 0) << "\t\t\n";
    write("parameters.tsv", p.str());
  }
  ~SyntheticProblem() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  SyntheticProblem(const SyntheticProblem&) = delete;
  SyntheticProblem& operator=(const SyntheticProblem&) = delete;

  std::string yaml() const { return path("problem.yaml"); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string dir() const { return dir_.string(); }

 private:
  static std::string prior(const std::string& p) { return p.empty() ? "\t" : p; }
  void write(const std::string& name, const std::string& text) {
    std::ofstream(path(name), std::ios::binary) << text;
  }
  static std::string model(bool blow_up, double initial_a, bool lag) {
    std::ostringstream a0;
    a0.precision(17);
    a0 << initial_a;
    const std::string lag_factor = lag ? R"(
              <piecewise>
                <piece><cn> 0 </cn><apply><lt/><csymbol encoding="text"
                  definitionURL="http://www.sbml.org/sbml/symbols/time"> t </csymbol>
                  <ci> lag </ci></apply></piece>
                <otherwise><cn> 1 </cn></otherwise>
              </piecewise>)"
                                       : "";
    const std::string reaction =
        blow_up ? R"(<listOfProducts>
          <speciesReference species="A" stoichiometry="1"/>
        </listOfProducts>
        <kineticLaw>
          <math xmlns="http://www.w3.org/1998/Math/MathML">
            <apply><times/><ci> k1 </ci><ci> A </ci><ci> A </ci>)" +
                      lag_factor + R"(</apply>
          </math>
        </kineticLaw>)"
                : R"(<listOfReactants>
          <speciesReference species="A" stoichiometry="1"/>
        </listOfReactants>
        <kineticLaw>
          <math xmlns="http://www.w3.org/1998/Math/MathML">
            <apply><times/><ci> cell </ci><ci> k1 </ci><ci> A </ci>)" +
                      lag_factor + R"(</apply>
          </math>
        </kineticLaw>)";
    return R"(<?xml version="1.0" encoding="UTF-8"?>
<sbml xmlns="http://www.sbml.org/sbml/level2/version4" level="2" version="4">
  <model id="decay">
    <listOfCompartments>
      <compartment id="cell" spatialDimensions="3" size="1" constant="true"/>
    </listOfCompartments>
    <listOfSpecies>
      <species id="A" compartment="cell" initialConcentration=")" + a0.str() + R"(" boundaryCondition="false" constant="false"/>
    </listOfSpecies>
    <listOfParameters>
      <parameter id="k1" value="0.3" constant="true"/>)" +
           std::string(lag ? R"(
      <parameter id="lag" value="0" constant="true"/>)"
                           : "") +
           R"(
    </listOfParameters>
    <listOfReactions>
      <reaction id="rate" reversible="false">
        )" + reaction + R"(
      </reaction>
    </listOfReactions>
  </model>
</sbml>
)";
  }

  std::filesystem::path dir_;
};

}  // namespace odesens::test
