"""A small PEtab problem with a known optimum, written to a folder: the
same files as tests/estimate/synthetic_petab_problem.hpp with its default
options (A' = -k1 A, A(0) = 1, observed as obs = scale * A at t = 0, 0.5,
..., 6 with sd 0.1; data made by the model at k1 = 0.3, scale = 2 without
noise, so that the optimum is there exactly). With ``lag``, as the C++
problem's SyntheticOptions::lag: the decay starts at t = lag, estimated
(lin, 0..24, the data's 0), and at lag past t = 6 nothing measured depends
on lag or k1."""

import math
import pathlib

K1_TRUE = 0.3
SCALE_TRUE = 2.0
SD = 0.1

MODEL = """<?xml version="1.0" encoding="UTF-8"?>
<sbml xmlns="http://www.sbml.org/sbml/level2/version4" level="2" version="4">
  <model id="decay">
    <listOfCompartments>
      <compartment id="cell" spatialDimensions="3" size="1" constant="true"/>
    </listOfCompartments>
    <listOfSpecies>
      <species id="A" compartment="cell" initialConcentration="1" boundaryCondition="false" constant="false"/>
    </listOfSpecies>
    <listOfParameters>
      <parameter id="k1" value="0.3" constant="true"/>
      <parameter id="lag" value="0" constant="true"/>
    </listOfParameters>
    <listOfReactions>
      <reaction id="rate" reversible="false">
        <listOfReactants>
          <speciesReference species="A" stoichiometry="1"/>
        </listOfReactants>
        <kineticLaw>
          <math xmlns="http://www.w3.org/1998/Math/MathML">
            <apply><times/><ci> cell </ci><ci> k1 </ci><ci> A </ci>LAG</apply>
          </math>
        </kineticLaw>
      </reaction>
    </listOfReactions>
  </model>
</sbml>
"""


LAG = """
              <piecewise>
                <piece><cn> 0 </cn><apply><lt/><csymbol encoding="text"
                  definitionURL="http://www.sbml.org/sbml/symbols/time"> t </csymbol>
                  <ci> lag </ci></apply></piece>
                <otherwise><cn> 1 </cn></otherwise>
              </piecewise>"""


def write_problem(folder, lag=False):
    """Writes the problem into ``folder``; the path of its YAML file."""
    folder = pathlib.Path(folder)
    files = {
        "problem.yaml": "format_version: 1\nparameter_file: parameters.tsv\nproblems:\n"
                        "- sbml_files: [model.xml]\n  condition_files: [conditions.tsv]\n"
                        "  measurement_files: [measurements.tsv]\n"
                        "  observable_files: [observables.tsv]\n",
        "model.xml": MODEL.replace("LAG", LAG if lag else ""),
        "conditions.tsv": "conditionId\nc0\n",
        "observables.tsv": "observableId\tobservableFormula\tnoiseFormula\tnoiseDistribution\n"
                           "obs\tscale * A\tsd\tnormal\n",
        "measurements.tsv": "observableId\tsimulationConditionId\ttime\tmeasurement\n" + "".join(
            f"obs\tc0\t{0.5 * k!r}\t{SCALE_TRUE * math.exp(-K1_TRUE * 0.5 * k)!r}\n"
            for k in range(13)),
        "parameters.tsv": "parameterId\tparameterScale\tlowerBound\tupperBound\tnominalValue\t"
                          "estimate\tobjectivePriorType\tobjectivePriorParameters\n"
                          "k1\tlog10\t0.001\t10\t1\t1\t\t\n"
                          "scale\tlin\t0.1\t10\t1\t1\t\t\n" +
                          ("lag\tlin\t0\t24\t0\t1\t\t\n" if lag else "") +
                          f"sd\tlog10\t0.001\t10\t{SD!r}\t0\t\t\n",
    }
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder / "problem.yaml"


# The optimum on the parameters' scales (k1 log10, scale lin).
OPTIMUM = (math.log10(K1_TRUE), SCALE_TRUE)


# tests/estimate/block_petab_problem.hpp, written again: two experiments with
# parameters of their own. obs_a = amp * sin(w * time) * A (A = 1) in c1 and
# c2, which set w to w_c1 and w_c2 (data from 1 and 2; noise sd_c1 in c1's
# rows, 0.1 in c2's); obs_b = offset_c2 + A in c2 alone (data from 0.3).
# Blocks: [offset_c2, w_c2] and [sd_c1, w_c1]; c2's term has a local minimum
# at w_c2 = 0.83 (BLOCKS_STUCK).
BLOCK_OPTIMUM = (1.0, 0.3, -2.0, 0.5, 1.0, 2.0)  # exact data: sd_c1 at its bound
BLOCKS_STUCK = (1.0, 0.3, -2.0, 0.5, 1.0, 0.83)


def write_block_problem(folder):
    folder = pathlib.Path(folder)
    (folder / "model.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<sbml xmlns="http://www.sbml.org/sbml/level2/version4" level="2" version="4">\n'
        '  <model id="waves">\n'
        '    <listOfCompartments><compartment id="cell" spatialDimensions="3" size="1" '
        'constant="true"/></listOfCompartments>\n'
        '    <listOfSpecies><species id="A" compartment="cell" initialConcentration="1" '
        'boundaryCondition="false" constant="false"/></listOfSpecies>\n'
        '    <listOfParameters><parameter id="w" value="1" constant="true"/>'
        '</listOfParameters>\n'
        '  </model>\n</sbml>\n')
    (folder / "conditions.tsv").write_text("conditionId\tw\nc1\tw_c1\nc2\tw_c2\n")
    (folder / "observables.tsv").write_text(
        "observableId\tobservableFormula\tnoiseFormula\n"
        "obs_a\tamp * sin(w * time) * A\tnoiseParameter1_obs_a\nobs_b\toffset_c2 + A\t0.1\n")
    rows = ["observableId\tsimulationConditionId\ttime\tmeasurement\tnoiseParameters"]
    for k in range(21):
        t = 0.2 * k
        rows += [f"obs_a\tc1\t{t!r}\t{math.sin(t)!r}\tsd_c1",
                 f"obs_a\tc2\t{t!r}\t{math.sin(2 * t)!r}\t0.1", f"obs_b\tc2\t{t!r}\t1.3\t"]
    (folder / "measurements.tsv").write_text("\n".join(rows) + "\n")
    (folder / "parameters.tsv").write_text(
        "parameterId\tparameterScale\tlowerBound\tupperBound\tnominalValue\testimate\t"
        "objectivePriorType\tobjectivePriorParameters\n"
        "amp\tlin\t0.1\t10\t1\t1\t\t\noffset_c2\tlin\t-1\t1\t0.3\t1\t\t\n"
        "sd_c1\tlog10\t0.01\t1\t0.1\t1\t\t\nunused\tlin\t0\t1\t0.5\t1\tnormal\t0.5;0.1\n"
        "w_c1\tlin\t0.5\t4\t1\t1\t\t\nw_c2\tlin\t0.5\t4\t2\t1\t\t\n")
    (folder / "problem.yaml").write_text(
        "format_version: 1\nparameter_file: parameters.tsv\nproblems:\n"
        "- sbml_files: [model.xml]\n  condition_files: [conditions.tsv]\n"
        "  measurement_files: [measurements.tsv]\n  observable_files: [observables.tsv]\n")
    return folder / "problem.yaml"
