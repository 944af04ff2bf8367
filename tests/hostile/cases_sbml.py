"""Hostile SBML documents (see run_hostile.py). Malformed documents are a
parse error, exit status 2 (pending EXIT2 where the importer still calls
them unsupported, which exits with 1); valid SBML the importer cannot handle yet (delays,
algebraic rules, packages, limits) is unsupported, exit status 1, with a message naming the
element.
"""
from hostile_case import Case, nest, repeat

EXIT2 = "exit status 2 for malformed documents the importer calls unsupported (today 1)"
ENCODING = "UTF-8 byte-order mark accepted, UTF-16 refused by name, bad UTF-8 located"
PACKAGES = "required SBML packages refused by name"
DEPTH = "nesting-depth limits on SBML documents and math"
CONSTRUCTOR = "libsbml's SBMLConstructorException escapes the importer"
LONG_SUM = ("libsbml nests an n-ary sum one level per term: its translation must not "
            "recurse per level (a stack overflow under AddressSanitizer at 20000 terms)")
BOTH_INITIAL = "a species with both initialAmount and initialConcentration is accepted"

L3 = 'xmlns="http://www.sbml.org/sbml/level3/version2/core" level="3" version="2"'
MATHML = 'xmlns="http://www.w3.org/1998/Math/MathML"'
INFO = ["info", "{input}"]
RUN = ["run", "{input}", "--method", "cvodes_fsa", "--tout", "0:1:3"]


def math(inner):
    return f"<math {MATHML}>{inner}</math>"


def document(model_body, sbml_attributes=L3, head='<?xml version="1.0" encoding="UTF-8"?>\n'):
    return f"{head}<sbml {sbml_attributes}>\n<model id=\"m\">\n{model_body}\n</model>\n</sbml>\n"


COMPARTMENT = ('<listOfCompartments><compartment id="c" size="1" constant="true"/>'
               '</listOfCompartments>')
SPECIES = ('<listOfSpecies><species id="S" compartment="c" initialAmount="1" '
           'hasOnlySubstanceUnits="false" boundaryCondition="false" constant="false"/>'
           '</listOfSpecies>')
PARAMETER = '<listOfParameters><parameter id="k" value="0.5" constant="true"/></listOfParameters>'


def reaction(rate="<apply><times/><ci>k</ci><ci>S</ci></apply>", stoichiometry="1", extra=""):
    return ('<listOfReactions><reaction id="R" reversible="false">'
            f'<listOfReactants><speciesReference species="S" stoichiometry="{stoichiometry}" '
            f'constant="true"/></listOfReactants><kineticLaw>{math(rate)}</kineticLaw></reaction>'
            f'{extra}</listOfReactions>')


def decay(rate=None, stoichiometry="1", parameter=PARAMETER, more=""):
    """S' = -k S in compartment c, with the parts given replaced."""
    r = reaction(stoichiometry=stoichiometry) if rate is None else reaction(rate, stoichiometry)
    return document(COMPARTMENT + SPECIES + parameter + more + r)


DECAY = decay()


def sbml(name, text, status, stderr, args=INFO, pending=None, **kw):
    return Case(name, args, status, stderr, input=text, input_name="model.xml", pending=pending,
                **kw)


def functions(definitions):
    return "<listOfFunctionDefinitions>" + "".join(
        f'<functionDefinition id="{fid}">{math(body)}</functionDefinition>'
        for fid, body in definitions) + "</listOfFunctionDefinitions>"


def lam(args, body):
    return "<lambda>" + "".join(f"<bvar><ci>{a}</ci></bvar>" for a in args) + body + "</lambda>"


# f0(x) = x, f_i(x) = f_{i-1}(x) + 1: a chain of n definitions, each calling the last.
def function_chain(n):
    defs = [("f0", lam(["x"], "<ci>x</ci>"))]
    defs += [(f"f{i}", lam(["x"], f"<apply><plus/><apply><ci>f{i - 1}</ci><ci>x</ci></apply>"
                                  "<cn>1</cn></apply>")) for i in range(1, n)]
    return decay(rate=f"<apply><times/><ci>k</ci><apply><ci>f{n - 1}</ci><ci>S</ci></apply>"
                      "</apply>",
                 more=functions(defs))


# g_i(x) = g_{i-1}(x) + g_{i-1}(x): inlining doubles at each level.
def function_doubling(n):
    defs = [("g0", lam(["x"], "<ci>x</ci>"))]
    defs += [(f"g{i}", lam(["x"], f"<apply><plus/><apply><ci>g{i - 1}</ci><ci>x</ci></apply>"
                                  f"<apply><ci>g{i - 1}</ci><ci>x</ci></apply></apply>"))
             for i in range(1, n)]
    return decay(rate=f"<apply><times/><ci>k</ci><apply><ci>g{n - 1}</ci><ci>S</ci></apply>"
                      "</apply>",
                 more=functions(defs))


def rule_chain(n):
    """n assignment rules, each the next one plus 1, feeding the rate."""
    params = "".join(f'<parameter id="a{i}" constant="false"/>' for i in range(n))
    rules = "".join(f'<assignmentRule variable="a{i}">'
                    + math(f"<apply><plus/><ci>a{i + 1}</ci><cn>1</cn></apply>"
                           if i + 1 < n else "<ci>k</ci>")
                    + "</assignmentRule>" for i in range(n))
    return document(COMPARTMENT + SPECIES +
                    f'<listOfParameters><parameter id="k" value="0.5" constant="true"/>{params}'
                    f'</listOfParameters><listOfRules>{rules}</listOfRules>' +
                    reaction("<apply><times/><ci>a0</ci><ci>S</ci></apply>"))


BILLION_LAUGHS = ('<?xml version="1.0"?>\n<!DOCTYPE sbml [\n<!ENTITY a "aaaaaaaaaa">\n' +
                  "".join(f'<!ENTITY {chr(98 + i)} "{repeat("&" + chr(97 + i) + ";", 10)}">\n'
                          for i in range(9)) +
                  ']>\n' + DECAY.split("\n", 1)[1].replace('id="m"', 'id="m" name="&j;"'))

EXTERNAL_ENTITY = ('<?xml version="1.0"?>\n<!DOCTYPE sbml [\n'
                   '<!ENTITY secret SYSTEM "file:///etc/passwd">\n]>\n' +
                   DECAY.split("\n", 1)[1].replace('id="m"', 'id="m" name="&secret;"'))

PACKAGE_NS = ('xmlns:comp="http://www.sbml.org/sbml/level3/version1/comp/version1" '
              'comp:required="true"')
L3V1 = 'xmlns="http://www.sbml.org/sbml/level3/version1/core" level="3" version="1"'
FBC_NS = 'xmlns:fbc="http://www.sbml.org/sbml/level3/version1/fbc/version2" fbc:required="false"'

def l3v1(package_attributes, more=""):
    """The decay model in SBML L3V1 (where reactions need `fast`), with a package."""
    return document(COMPARTMENT + SPECIES + PARAMETER +
                    reaction().replace('reversible="false"', 'reversible="false" fast="false"') +
                    more, sbml_attributes=L3V1 + " " + package_attributes)


CASES = [
    # Not XML, not SBML.
    sbml("lone_angle_bracket", "<", 2, "model.xml"),
    sbml("unclosed_element", DECAY.replace("</sbml>", ""), 2, "model.xml"),
    sbml("mismatched_tags", DECAY.replace("</model>", "</modle>"), 2, "model.xml"),
    sbml("not_sbml", "<html><body>model</body></html>", 2, "model.xml"),
    sbml("sbml_without_model", f"<sbml {L3}/>", 2, "the SBML document has no model"),
    sbml("level_unknown", DECAY.replace('level="3" version="2"', 'level="99" version="1"'), 2,
         "model.xml"),
    sbml("namespace_mismatch", DECAY.replace("level3/version2", "level2/version4"), 2,
         "not valid SBML"),
    sbml("attribute_without_quotes", DECAY.replace('size="1"', "size=1"), 2, "model.xml"),
    sbml("duplicate_attribute", DECAY.replace('size="1"', 'size="1" size="2"'), 2, "model.xml"),
    sbml("text_after_root", DECAY + "garbage", 2, "model.xml"),
    sbml("two_roots", DECAY + DECAY.split("\n", 1)[1], 2, "model.xml"),
    sbml("constructor_exception",
         '<sbml level="2"><model><listOfReactions><reaction><listOfReactants><c>'
         "<stoichiometryMath> <", 2, "model.xml"),

    # Entities.
    sbml("billion_laughs", BILLION_LAUGHS, 1, "<!ENTITY>"),
    sbml("external_entity", EXTERNAL_ENTITY, 1, "<!ENTITY>"),
    sbml("undefined_entity", DECAY.replace('id="m"', 'id="m" name="&nosuch;"'), 2, "model.xml"),

    # Missing and wrong elements.
    sbml("species_without_compartment", decay().replace(' compartment="c"', ""), 2,
         "model.xml"),
    sbml("species_unknown_compartment", decay().replace('compartment="c"', 'compartment="d"'), 2,
         "model.xml"),
    sbml("reaction_unknown_species", decay().replace('species="S"', 'species="T"'), 2,
         "model.xml"),
    sbml("kinetic_law_unknown_id", decay(rate="<apply><times/><ci>q</ci><ci>S</ci></apply>"), 2,
         "model.xml"),
    sbml("parameter_without_value",
         decay(parameter='<listOfParameters><parameter id="k" constant="true"/>'
                         '</listOfParameters>'),
         2, "model.xml"),
    sbml("duplicate_ids", decay(more='<listOfParameters><parameter id="S" value="1" '
                                     'constant="true"/></listOfParameters>'), 2, "model.xml"),
    sbml("kinetic_law_empty_math", decay(rate=""), 2, "the math is empty"),
    sbml("unknown_mathml_element", decay(rate="<apply><foo/><ci>S</ci></apply>"), 2,
         "model.xml"),
    sbml("unknown_csymbol", decay(rate='<csymbol encoding="text" '
                                       'definitionURL="http://example.org/nosuch">x</csymbol>'),
         2, "model.xml"),
    sbml("lambda_wrong_argument_count",
         decay(rate="<apply><ci>f</ci><ci>S</ci><ci>k</ci></apply>",
               more=functions([("f", lam(["x"], "<ci>x</ci>"))])), 2, "model.xml"),
    sbml("recursive_function",
         decay(rate="<apply><ci>f</ci><ci>S</ci></apply>",
               more=functions([("f", lam(["x"], "<apply><ci>f</ci><ci>x</ci></apply>"))])), 2,
         "model.xml"),
    sbml("rule_cycle", document(COMPARTMENT + SPECIES +
                                '<listOfParameters><parameter id="a" constant="false"/>'
                                '<parameter id="b" constant="false"/></listOfParameters>'
                                '<listOfRules><assignmentRule variable="a">' + math("<ci>b</ci>") +
                                '</assignmentRule><assignmentRule variable="b">' +
                                math("<ci>a</ci>") +
                                "</assignmentRule></listOfRules>" +
                                reaction("<apply><times/><ci>a</ci><ci>S</ci></apply>")), 2,
         "model.xml"),
    sbml("rule_on_constant", decay(more='<listOfRules><assignmentRule variable="k">' +
                                        math("<cn>1</cn>") + "</assignmentRule></listOfRules>"),
         2, "model.xml"),
    sbml("amount_and_concentration", decay().replace('initialAmount="1"',
                                                     'initialAmount="1" initialConcentration="2"'),
         2, "model.xml"),
    sbml("no_state_variables", document(COMPARTMENT + PARAMETER), 0, "", args=RUN),

    # Unsupported constructs.
    sbml("event", decay(more='<listOfEvents><event id="e" useValuesFromTriggerTime="true">'
                             '<trigger initialValue="true" persistent="true">' +
                        math("<apply><geq/><csymbol encoding=\"text\" definitionURL=\"http://"
                             "www.sbml.org/sbml/symbols/time\">t</csymbol><cn>1</cn></apply>") +
                        '</trigger><listOfEventAssignments><eventAssignment variable="S">' +
                        math("<cn>0</cn>") + "</eventAssignment></listOfEventAssignments>"
                        "</event></listOfEvents>"), 0, "", args=RUN),
    sbml("event_on_constant",
         decay(more='<listOfEvents><event id="e" useValuesFromTriggerTime="true">'
                    '<trigger initialValue="true" persistent="true">' + math("<true/>") +
                    '</trigger><listOfEventAssignments><eventAssignment variable="k">' +
                    math("<cn>0</cn>") + "</eventAssignment></listOfEventAssignments>"
                    "</event></listOfEvents>"), 2, "'k' is declared constant"),
    sbml("algebraic_rule", decay(more="<listOfRules><algebraicRule>" +
                                      math("<apply><minus/><ci>S</ci><cn>1</cn></apply>") +
                                      "</algebraicRule></listOfRules>"), 1,
         "algebraic rules are not supported"),
    sbml("delay", decay(rate='<apply><csymbol encoding="text" definitionURL="http://www.sbml.org/'
                             'sbml/symbols/delay">delay</csymbol><ci>S</ci><cn>1</cn></apply>'), 1,
         "delay"),
    sbml("rate_of", decay(rate='<apply><csymbol encoding="text" definitionURL="http://www.sbml.org/'
                               'sbml/symbols/rateOf">rateOf</csymbol><ci>k</ci></apply>'), 0, "",
         args=RUN),
    sbml("fast_reaction", l3v1("").replace('fast="false"', 'fast="true"'), 1,
         "fast reactions are not supported"),
    sbml("constraint", decay(more="<listOfConstraints><constraint>" +
                                  math("<apply><gt/><ci>S</ci><cn>0</cn></apply>") +
                                  "</constraint></listOfConstraints>"), 0, "", args=RUN),
    # comp declared required but not used: the document is plain core SBML
    # (a real model does this), so it loads.
    sbml("required_package_unused_comp", l3v1(PACKAGE_NS), 0, "", stdout="states (1)"),
    sbml("unknown_required_package",
         document(COMPARTMENT + SPECIES + PARAMETER + reaction(),
                  sbml_attributes=L3 + ' xmlns:foo="http://example.org/foo/version1" '
                                       'foo:required="true"'), 1, "'foo'"),
    sbml("package_elements", l3v1(FBC_NS, '<fbc:listOfObjectives fbc:activeObjective="o">'
                                          '<fbc:objective fbc:id="o" fbc:type="maximize"/>'
                                          "</fbc:listOfObjectives>")
         .replace('<model id="m">', '<model id="m" fbc:strict="false">'), 1,
         "SBML package 'fbc' is not supported"),

    # Numbers.
    sbml("stoichiometry_huge", decay(stoichiometry="1e308"), 1, "rates near the largest double",
         args=RUN),
    sbml("stoichiometry_nan", decay(stoichiometry="NaN"), 1, "NaN", args=RUN),
    sbml("stoichiometry_inf", decay(stoichiometry="INF"), 1, "Inf", args=RUN),
    sbml("stoichiometry_text", decay(stoichiometry="lots"), 2, "model.xml"),
    sbml("parameter_nan", decay(parameter='<listOfParameters><parameter id="k" value="NaN" '
                                          'constant="true"/></listOfParameters>'), 1, "NaN",
         args=RUN),
    sbml("parameter_inf", decay(parameter='<listOfParameters><parameter id="k" value="-INF" '
                                          'constant="true"/></listOfParameters>'), 1, "Inf",
         args=RUN),
    sbml("compartment_size_zero", decay().replace('size="1"', 'size="0"'), 1,
         "the initial value of state 'S'", args=RUN),
    sbml("initial_amount_huge", decay().replace('initialAmount="1"', 'initialAmount="1e308"'), 1,
         "CVode", args=RUN),
    sbml("rational_division_by_zero", decay(rate='<apply><times/><ci>S</ci>'
                                                 '<cn type="rational">1<sep/>0</cn></apply>'), 1,
         "NaN or Inf", args=RUN),
    sbml("number_overflow", decay(rate="<apply><times/><ci>S</ci><cn>1e999</cn></apply>"), 2,
         "model.xml:4: not valid SBML"),

    # Encodings.
    sbml("utf8_bom", "\ufeff" + DECAY, 0, "", stdout="states (1)"),
    sbml("utf16le", b"\xff\xfe" + DECAY.replace('encoding="UTF-8"', 'encoding="UTF-16"')
         .encode("utf-16-le"), 1, "UTF-16"),
    sbml("utf16be_without_bom", DECAY.replace('encoding="UTF-8"', 'encoding="UTF-16"')
         .encode("utf-16-be"), 1, "UTF-16"),
    sbml("not_utf8_in_name", DECAY.encode().replace(b'id="m"', b'id="m" name="caf\xe9"'), 2,
         "model.xml"),
    sbml("latin1_declared", DECAY.replace("UTF-8", "ISO-8859-1").encode()
         .replace(b'id="m"', b'id="m" name="caf\xe9"'), 1, "must be UTF-8"),
    sbml("nul_byte", DECAY.encode().replace(b"<model", b"\x00<model"), 2, "model.xml"),

    # Size and depth.
    sbml("many_species", document(COMPARTMENT + "<listOfSpecies>" + "".join(
        f'<species id="S{i}" compartment="c" initialAmount="1" hasOnlySubstanceUnits="false" '
        'boundaryCondition="false" constant="false"/>' for i in range(2000)) + "</listOfSpecies>" +
        PARAMETER + '<listOfReactions><reaction id="R" reversible="false"><listOfReactants>' +
        "".join(f'<speciesReference species="S{i}" stoichiometry="1" constant="true"/>'
                for i in range(2000)) + "</listOfReactants><kineticLaw>" + math("<ci>k</ci>") +
        "</kineticLaw></reaction></listOfReactions>"), 0, "", stdout="states (2000)"),
    sbml("long_sum", decay(rate="<apply><plus/>" + repeat("<ci>S</ci>", 500) + "</apply>"), 0,
         "", stdout="states (1)"),
    # libsbml nests an n-ary sum one level per term: 20000 terms pass the
    # math nesting limit (500) and are refused, not a stack overflow.
    sbml("very_long_sum", decay(rate="<apply><plus/>" + repeat("<ci>S</ci>", 20000) + "</apply>"),
         1, "nested more than 500 levels"),
    sbml("huge_annotation", decay().replace('<model id="m">', '<model id="m"><annotation>'
                                            '<x xmlns="http://example.org/x">' +
                                            repeat("annotation ", 200000) +
                                            "</x></annotation>"), 0, "", stdout="states (1)"),
    sbml("long_id", decay().replace('"k"', '"k' + repeat("k", 100000) + '"')
         .replace("<ci>k</ci>", "<ci>k" + repeat("k", 100000) + "</ci>"), 0, "",
         stdout="states (1)"),
    # libsbml finds argument i of a node by walking from the first: 40 000
    # arguments of max (0.4 MB) took 23 s, a call of 40 000 over a minute.
    sbml("wide_max", decay(rate="<apply><max/>" + repeat("<ci>S</ci>", 40000) + "</apply>"), 1,
         "40000 arguments"),
    sbml("moderately_wide_max", decay(rate="<apply><max/>" + repeat("<ci>S</ci>", 3000) +
                                           "</apply>"), 0, "", stdout="states (1)"),
    # An unknown id of 2 MB was echoed whole in the message.
    sbml("long_unknown_id", decay(rate="<apply><times/><ci>k</ci><ci>" + repeat("z", 2 << 20) +
                                       "</ci></apply>"), 2, ["unknown id", "bytes left out"]),
    sbml("nested_math_moderate", decay(rate=nest("<apply><minus/>", "</apply>", 100,
                                                 "<ci>S</ci>")), 0, "", stdout="states (1)"),
    sbml("deep_math", decay(rate=nest("<apply><minus/>", "</apply>", 100000, "<ci>S</ci>")), 1,
         "nested"),
    sbml("deep_xml_annotation", decay().replace('<model id="m">', '<model id="m"><annotation>' +
                                                nest('<a xmlns="http://example.org/a">', "</a>",
                                                     100000, "") + "</annotation>"), 1,
         "nested"),
    sbml("function_chain", lambda: function_chain(10000), 1, "levels deep"),
    sbml("function_chain_moderate", function_chain(20), 0, "", stdout="states (1)"),
    sbml("function_doubling", lambda: function_doubling(21), 1, "inlining"),
    sbml("rule_chain", lambda: rule_chain(3000), 1, "values nested more than 200 levels deep"),
    sbml("rule_chain_moderate", rule_chain(100), 0, "", stdout="states (1)"),
]
