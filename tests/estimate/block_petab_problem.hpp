// A PEtab problem of two experiments with parameters of their own, written
// to a temporary folder: obs_a = amp * sin(w * time) * A (A = 1 throughout)
// in conditions c1 and c2, which set w to w_c1 and w_c2 (data from 1 and
// 2); its noise parameter is sd_c1 in c1's rows (a placeholder override)
// and 0.1 in c2's; obs_b = offset_c2 + A, measured in c2 alone (data from
// offset 0.3). Estimated, in this order: amp (shared), offset_c2, sd_c1,
// unused (read by nothing but its prior), w_c1, w_c2. Blocks (fitting::parameter_blocks):
// {offset_c2, w_c2} (c2) and {sd_c1, w_c1} (c1). sum (sin(w t) - sin(2 t))^2
// over c2's times has local minima besides w = 2, where a fit of w_c2 stays.
// With fails_above_3, obs_a adds 1e-9 * sqrt(3 - w): a point with w_c1 or w_c2
// above 3 cannot be evaluated (its h is NaN). With gain, obs_b is offset_c2
// + gain * A, gain an SBML parameter that nothing else reads, set to gain_b
// (estimated, last) by both conditions: only c2, which measures obs_b, reads
// gain_b, which joins c2's block. With preequilibration, c2's rows are
// pre-equilibrated in condition pre, which sets w to w_pre and the rate kin
// of species B (dB/dt = kin - B, read by nothing measured) to kin_pre; c1
// and c2 set kin to 1. The dynamics read kin, not w: c2 reads kin_pre,
// which joins its block, and no experiment reads w_pre (estimated after the
// others, kin_pre first). kin_pre moves c2's steady state and sets nothing
// in c2: its derivatives go by a carrier column of the dynamics
// (docs/petab.md), which the blocks, read from the tables, do not see.
#pragma once

#include <stdlib.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace odesens::test {

class BlockProblem {
 public:
  explicit BlockProblem(bool fails_above_3 = false, bool gain = false,
                        bool preequilibration = false) {
    std::string pattern = (std::filesystem::temp_directory_path() / "blocks_XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
    write("problem.yaml",
          "format_version: 1\nparameter_file: parameters.tsv\nproblems:\n"
          "- sbml_files: [model.xml]\n  condition_files: [conditions.tsv]\n"
          "  measurement_files: [measurements.tsv]\n  observable_files: [observables.tsv]\n");
    write("model.xml", std::string(kModel) + (gain ? kGainParameter : "") +
                           (preequilibration ? kRateParameter : "") + kModelEnd +
                           (preequilibration ? kReactions : "") + kEnd);
    write("conditions.tsv", conditions(gain, preequilibration));
    write("observables.tsv",
          "observableId\tobservableFormula\tnoiseFormula\n"
          "obs_a\tamp * sin(w * time) * A" +
              std::string(fails_above_3 ? " + 1e-9 * sqrt(3 - w)" : "") +
              "\tnoiseParameter1_obs_a\n"
          "obs_b\toffset_c2 + " + std::string(gain ? "gain * " : "") + "A\t0.1\n");
    std::ostringstream m;
    m.precision(17);
    const std::string pre = preequilibration ? "pre" : "";
    m << "observableId\tpreequilibrationConditionId\tsimulationConditionId\ttime\t"
         "measurement\tnoiseParameters\n";
    for (int k = 0; k <= 20; ++k) {
      const double t = 0.2 * k;
      m << "obs_a\t\tc1\t" << t << "\t" << std::sin(t) << "\tsd_c1\n";
      m << "obs_a\t" << pre << "\tc2\t" << t << "\t" << std::sin(2 * t) << "\t0.1\n";
      m << "obs_b\t" << pre << "\tc2\t" << t << "\t" << 1.3 << "\t\n";
    }
    write("measurements.tsv", m.str());
    write("parameters.tsv",
          "parameterId\tparameterScale\tlowerBound\tupperBound\tnominalValue\testimate\t"
          "objectivePriorType\tobjectivePriorParameters\n"
          "amp\tlin\t0.1\t10\t1\t1\t\t\n"
          "offset_c2\tlin\t-1\t1\t0.3\t1\t\t\n"
          "sd_c1\tlog10\t0.01\t1\t0.1\t1\t\t\n"
          "unused\tlin\t0\t1\t0.5\t1\tnormal\t0.5;0.1\n"
          "w_c1\tlin\t0.5\t4\t1\t1\t\t\n"
          "w_c2\tlin\t0.5\t4\t2\t1\t\t\n" +
              std::string(gain ? "gain_b\tlin\t0.5\t2\t1\t1\t\t\n" : "") +
              std::string(preequilibration ? "kin_pre\tlin\t0.5\t2\t1\t1\t\t\n"
                                             "w_pre\tlin\t0.5\t2\t1\t1\t\t\n"
                                           : ""));
  }
  ~BlockProblem() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  BlockProblem(const BlockProblem&) = delete;
  BlockProblem& operator=(const BlockProblem&) = delete;

  std::string yaml() const { return (dir_ / "problem.yaml").string(); }
  std::string dir() const { return dir_.string(); }

 private:
  void write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }
  static std::string conditions(bool gain, bool preequilibration) {
    std::string text = std::string("conditionId\tw") + (gain ? "\tgain" : "") +
                       (preequilibration ? "\tkin" : "") + "\n";
    for (const char* c : {"c1", "c2"})
      text += std::string(c) + "\tw_" + c + (gain ? "\tgain_b" : "") +
              (preequilibration ? "\t1" : "") + "\n";
    if (preequilibration)
      text += std::string("pre\tw_pre") + (gain ? "\tgain_b" : "") + "\tkin_pre\n";
    return text;
  }
  static constexpr const char* kModel = R"(<?xml version="1.0" encoding="UTF-8"?>
<sbml xmlns="http://www.sbml.org/sbml/level2/version4" level="2" version="4">
  <model id="waves">
    <listOfCompartments>
      <compartment id="cell" spatialDimensions="3" size="1" constant="true"/>
    </listOfCompartments>
    <listOfSpecies>
      <species id="A" compartment="cell" initialConcentration="1"
               boundaryCondition="false" constant="false"/>
      <species id="B" compartment="cell" initialConcentration="0"
               boundaryCondition="false" constant="false"/>
    </listOfSpecies>
    <listOfParameters>
      <parameter id="w" value="1" constant="true"/>)";
  static constexpr const char* kGainParameter = R"(
      <parameter id="gain" value="1" constant="true"/>)";
  static constexpr const char* kRateParameter = R"(
      <parameter id="kin" value="1" constant="true"/>)";
  static constexpr const char* kModelEnd = R"(
    </listOfParameters>)";
  static constexpr const char* kReactions = R"(
    <listOfReactions>
      <reaction id="make_B" reversible="false">
        <listOfProducts><speciesReference species="B"/></listOfProducts>
        <kineticLaw><math xmlns="http://www.w3.org/1998/Math/MathML">
          <apply><times/><ci>kin</ci><ci>cell</ci></apply></math></kineticLaw>
      </reaction>
      <reaction id="lose_B" reversible="false">
        <listOfReactants><speciesReference species="B"/></listOfReactants>
        <kineticLaw><math xmlns="http://www.w3.org/1998/Math/MathML">
          <apply><times/><ci>B</ci><ci>cell</ci></apply></math></kineticLaw>
      </reaction>
    </listOfReactions>)";
  static constexpr const char* kEnd = R"(
  </model>
</sbml>
)";

  std::filesystem::path dir_;
};

}  // namespace odesens::test
