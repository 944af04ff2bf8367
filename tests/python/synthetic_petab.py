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
