"""Hostile command lines for the odesens tool (see run_hostile.py).

Exit statuses: 2 when the command line or what it names is wrong (a flag,
a value, an unknown method, option or model, malformed model text), 1
when valid input fails (the solve, an unsupported feature, writing the
output).
"""
from hostile_case import Case, nest, repeat

FILES = "model files: only regular files, size limit"

RUN = ["run", "builtin:chua", "--method", "cvodes_fsa"]
ERK = ["run", "builtin:chua", "--method", "erk_adjoint"]
SHORT = ["--tout", "0:1:3"]
ENSEMBLE = ["ensemble", "builtin:chua", "--method", "cvodes_fsa", "--tout", "0:1:3"]


def params(name, content, status, stderr, input_name="sets.csv"):
    """ensemble with `content` as its parameter file."""
    return Case(name, ENSEMBLE + ["--params", "{input}", "--out", "{tmp}/out.h5"], status, stderr,
                input=content, input_name=input_name)


ZERO_STATE_ODE = "param k = 1\nstate x = 1\nstate y = 0\ndx/dt = -k*x\ndy/dt = k*x\n"

CASES = [
    # Commands and their arguments.
    Case("no_arguments", [], 2, [], stdout="usage: odesens"),
    Case("unknown_command", ["frobnicate"], 2, "unknown command or wrong arguments: 'frobnicate'"),
    Case("methods_with_argument", ["methods", "extra"], 2, "wrong arguments: 'methods'"),
    Case("options_without_method", ["options"], 2, "wrong arguments: 'options'"),
    Case("options_unknown_method", ["options", "nosuch"], 2, "unknown method 'nosuch'"),
    Case("options_two_methods", ["options", "cvodes_fsa", "exp"], 2, "wrong arguments"),
    Case("info_without_model", ["info"], 2, "wrong arguments: 'info'"),
    Case("info_two_models", ["info", "builtin:chua", "builtin:chua"], 2, "info takes MODEL"),
    Case("run_without_model", ["run", "--method", "cvodes_fsa"], 2, "run: no model given"),
    Case("run_without_method", ["run", "builtin:chua"], 2, "--method ID is required"),
    Case("run_extra_positional", RUN + ["extra"], 2, "unexpected argument 'extra'"),
    Case("run_unknown_flag", RUN + ["--rtoll", "1e-6"], 2, "unknown flag '--rtoll'"),
    Case("run_single_dash_flag", RUN + ["-rtol", "1e-6"], 2, "-rtol"),
    Case("run_flag_without_value", RUN + ["--rtol"], 2, "--rtol needs a value"),
    Case("compare_one_method", ["compare", "builtin:chua", "--methods", "cvodes_fsa"], 2,
         "--methods needs at least two ids"),
    Case("compare_unknown_method", ["compare", "builtin:chua", "--methods", "cvodes_fsa,nosuch"],
         2, "unknown method 'nosuch'"),
    Case("compare_empty_method_id", ["compare", "builtin:chua", "--methods", "cvodes_fsa,"], 2,
         "unknown method ''"),
    Case("compare_option_nobody_has", ["compare", "builtin:chua", "--methods", "cvodes_fsa,exp",
                                       "--option", "nosuch=1"], 2,
         "--option nosuch: none of the compared methods has it"),
    Case("compare_observe", ["compare", "builtin:chua", "--methods", "cvodes_fsa,exp",
                             "--observe", "x1"], 2, "--observe"),
    Case("help_flag", ["--help"], 0, [], stdout="usage: odesens"),

    # Models by name.
    Case("unknown_builtin", ["info", "builtin:nosuch"], 2, "unknown built-in model 'nosuch'"),
    Case("builtin_size_zero", ["info", "builtin:glv:0"], 2, "size must be in [1, 1000]"),
    Case("builtin_size_negative", ["info", "builtin:glv:-1"], 2, "is not a positive integer"),
    Case("builtin_size_text", ["info", "builtin:linear:abc"], 2, "is not a positive integer"),
    Case("builtin_size_huge", ["info", "builtin:glv:99999999999999999999"], 2,
         "size must be in [1, 1000]"),
    Case("builtin_size_exponent", ["info", "builtin:linear:1e9"], 2, "is not a positive integer"),
    Case("dense_newton_matrix_beyond_memory",
         ["run", "builtin:heat2d:300", "--method", "cvodes_fsa", "--option",
          "linear_solver=dense", "--tout", "0,0.01"], 1,
         "the dense Newton matrix of 90000 states needs 64.8 GB"),
    Case("builtin_heat2d_huge", ["info", "builtin:heat2d:1000000"], 2,
         "size must be in [3, 1000]"),
    Case("builtin_network_zero", ["info", "builtin:network:0"], 2, "size must be in [2, 1000000]"),
    Case("missing_model_file", ["info", "{tmp}/nosuch.ode"], 2, "No such file or directory"),
    Case("model_file_is_directory", ["info", "{tmp}"], 1, "directory"),
    Case("model_file_dev_null", ["info", "/dev/null"], 1, "not a regular file"),
    Case("model_file_dev_zero", ["info", "/dev/zero"], 1, "not a regular file"),
    Case("model_name_very_long", ["info", repeat("m", 100000)], 2, "cannot load model file"),
    Case("model_name_not_utf8", ["info", b"\xff\xfe.ode"], 2, "cannot load model file"),
    Case("model_name_empty", ["info", ""], 2, "model"),

    # Methods.
    Case("unknown_method", RUN[:3] + ["nosuch"], 2, "unknown method 'nosuch'"),
    Case("method_empty", RUN[:3] + [""], 2, "--method"),
    Case("method_case_differs", RUN[:3] + ["CVODES_FSA"], 2, "unknown method 'CVODES_FSA'"),
    Case("method_not_utf8", RUN[:3] + [b"cvodes_\xff"], 2, "unknown method"),

    # Tolerances.
    Case("rtol_text", RUN + ["--rtol", "abc"], 2, "--rtol: 'abc' is not a finite number"),
    Case("rtol_nan", RUN + ["--rtol", "nan"], 2, "--rtol: 'nan' is not a finite number"),
    Case("rtol_inf", RUN + ["--rtol", "inf"], 2, "--rtol: 'inf' is not a finite number"),
    Case("rtol_trailing_text", RUN + ["--rtol", "1e-6x"], 2, "is not a finite number"),
    Case("rtol_hex", RUN + ["--rtol", "0x1p-20"], 2, "--rtol: '0x1p-20' is not a finite number"),
    Case("rtol_negative", RUN + ["--rtol", "-1e-6"], 2, "rtol must be"),
    Case("rtol_zero", RUN + ["--rtol", "0"], 2, "rtol must be"),
    Case("rtol_one", RUN + SHORT + ["--rtol", "1"], 2, "rtol must be in (0, 1)"),
    Case("rtol_huge", RUN + SHORT + ["--rtol", "1e300"], 2, "rtol must be in (0, 1)"),
    Case("rtol_overflow", RUN + ["--rtol", "1e999"], 2, "is not a finite number"),
    Case("rtol_underflow", RUN + ["--rtol", "1e-400"], 2, "--rtol"),
    Case("rtol_empty", RUN + ["--rtol", ""], 2, "--rtol"),
    Case("atol_negative", RUN + ["--atol", "-1"], 2, "atol must not be negative"),
    Case("atol_nan", RUN + ["--atol", "NaN"], 2, "--atol: 'NaN' is not a finite number"),
    Case("atol_empty", RUN + ["--atol", ""], 2, "--atol"),
] + [
    # atol 0 for a state that starts at 0: one message for every method,
    # not each method's symptom (CVODES' ewt, NaN in an error estimate).
    Case("atol_zero_on_a_zero_state_" + method,
         ["run", "{input}", "--method", method, "--atol", "0", "--tout", "0.5,1"], 2,
         "atol is 0 for state 'y', which is 0 at t0", input=ZERO_STATE_ODE, input_name="zero.ode")
    for method in ("cvodes_fsa", "odesd", "grk4as", "erk_adjoint", "dopri8s")
] + [

    # Times.
    Case("t0_inf", RUN + ["--t0", "-inf"], 2, "--t0: '-inf' is not a finite number"),
    Case("t0_after_outputs", RUN + ["--t0", "5", "--tout", "0:1:2"], 2,
         "output time 0 is before t0 = 5"),
    Case("tout_one_point", RUN + ["--tout", "0:1:1"], 2, "--tout a:b:n needs an integer n"),
    Case("tout_fractional_count", RUN + ["--tout", "0:1:2.5"], 2,
         "--tout a:b:n needs an integer n"),
    Case("tout_count_huge", RUN + ["--tout", "0:1:1e12"], 2, "--tout a:b:n needs an integer n"),
    Case("tout_count_nan", RUN + ["--tout", "0:1:nan"], 2, "--tout count: 'nan'"),
    Case("tout_reversed", RUN + ["--tout", "1:0:5"], 2, "--tout a:b:n needs b > a"),
    Case("tout_empty_range", RUN + ["--tout", "1:1:5"], 2, "--tout a:b:n needs b > a"),
    Case("tout_two_parts", RUN + ["--tout", "0:1"], 2, "--tout expects a:b:n or t1,t2,..."),
    Case("tout_four_parts", RUN + ["--tout", "0:1:2:3"], 2, "--tout expects a:b:n"),
    Case("tout_empty_item", RUN + ["--tout", "0,,1"], 2, "--tout: empty number"),
    Case("tout_trailing_comma", RUN + ["--tout", "0,1,"], 2, "--tout: empty number"),
    Case("tout_nan_item", RUN + ["--tout", "nan,1"], 2, "--tout: 'nan' is not a finite number"),
    Case("tout_decreasing", RUN + ["--tout", "1,0.5"], 2, "output times must be strictly"),
    Case("tout_repeated_time", RUN + ["--tout", "0,1,1"], 2, "output times must be strictly"),
    Case("tout_empty", RUN + ["--tout", ""], 2, "--tout needs a value"),
    Case("tout_start_text", RUN + ["--tout", "a:1:3"], 2, "--tout start: 'a'"),
    Case("tout_huge_span", RUN + ["--tout", "0:1e300:3", "--max-steps", "10"], 1, "CVode"),
    Case("tout_tiny_span", RUN + ["--tout", "0:1e-300:3"], 0, [], stdout='"times"'),
    Case("tout_many_points", RUN + ["--tout", "0:1:100000001"], 2, "output times"),
    Case("tout_long_list", RUN + ["--tout", ",".join(str(k) for k in range(2000))], 0, [],
         stdout='"times"'),

    # Step limit.
    Case("max_steps_zero", RUN + ["--max-steps", "0"], 2, "--max-steps needs a positive integer"),
    Case("max_steps_negative", RUN + ["--max-steps", "-5"], 2, "positive integer"),
    Case("max_steps_fraction", RUN + ["--max-steps", "1.5"], 2, "positive integer"),
    Case("max_steps_huge", RUN + ["--max-steps", "1e19"], 2, "positive integer"),
    Case("max_steps_text", RUN + ["--max-steps", "many"], 2, "--max-steps: 'many'"),
    Case("max_steps_one", RUN + ["--max-steps", "1", "--tout", "0:100:3"], 1, "max_steps"),

    # Parameters.
    Case("param_unknown", RUN + ["--param", "nosuch=1"], 2,
         "--param: model builtin:chua has no sensitivity parameter 'nosuch' (its parameters: "),
    Case("param_without_value", RUN + ["--param", "p1"], 2, "--param expects NAME=VALUE"),
    Case("param_without_name", RUN + ["--param", "=1"], 2, "--param expects NAME=VALUE"),
    Case("param_empty_value", RUN + ["--param", "p1="], 2, "--param p1: empty number"),
    Case("param_nan", RUN + ["--param", "p1=nan"], 2, "--param p1: 'nan' is not a finite"),
    Case("param_overflow", RUN + ["--param", "p1=1e309"], 2, "is not a finite number"),
    Case("param_two_equals", RUN + ["--param", "p1=1=2"], 2, "--param p1: '1=2'"),
    Case("param_huge_value", RUN + SHORT + ["--param", "p1=1e300", "--max-steps", "50"], 1,
         "CVode"),
    Case("param_empty", RUN + ["--param", ""], 2, "--param"),

    # Method options.
    Case("option_unknown", RUN + ["--option", "nosuch=1"], 2,
         "method 'cvodes_fsa' has no option 'nosuch'"),
    Case("option_bad_choice", RUN + ["--option", "lmm=rk4"], 2, "must be one of: bdf, adams"),
    Case("option_out_of_range", RUN + ["--option", "sens_error_control=2"], 2,
         "must be 0 or 1"),
    Case("option_not_integer", RUN + ["--option", "sparse_threshold=1.5"], 2,
         "--option sparse_threshold needs an integer"),
    Case("option_integer_huge", RUN + ["--option", "sparse_threshold=1e300"], 2,
         "--option sparse_threshold needs an integer"),
    Case("option_number_nan", RUN + ["--option", "sparse_threshold=nan"], 2,
         "--option sparse_threshold: 'nan' is not a finite number"),
    Case("option_without_key", RUN + ["--option", "=bdf"], 2, "--option expects NAME=VALUE"),
    Case("option_empty_value", RUN + ["--option", "jacobian="], 2, "jacobian"),
    Case("option_of_other_method", RUN + ["--option", "eps_tol=1e-3"], 2,
         "has no option 'eps_tol'"),

    # Output.
    Case("format_unknown", RUN + ["--format", "xml"], 2, "--format must be json, csv or h5"),
    Case("format_empty", RUN + ["--format", ""], 2, "--format"),
    Case("format_case_differs", RUN + ["--format", "JSON"], 2, "--format must be json, csv or h5"),
    Case("out_missing_directory", RUN + SHORT + ["--out", "{tmp}/nosuch/out.json"], 1,
         "nosuch/out.json"),
    Case("out_is_directory", RUN + SHORT + ["--out", "{tmp}"], 1, "{tmp}"),
    Case("out_full_device", RUN + SHORT + ["--out", "/dev/full"], 1, "writing"),
    Case("out_empty", RUN + SHORT + ["--out", ""], 2, "--out needs a value"),

    # Sensitivity parameters and observables.
    Case("sens_params_on_builtin", RUN + ["--sens-params", "k"], 2,
         "sensitivity parameters by SBML id apply to SBML models"),
    Case("sens_params_empty_id", RUN + ["--sens-params", "a,,b"], 2,
         "--sens-params: empty id in 'a,,b'"),
    Case("observe_unknown", RUN + ["--observe", "nosuch"], 2,
         "--observe: model builtin:chua has no observable 'nosuch'"),
    Case("observe_empty_name", RUN + ["--observe", "x1,"], 2, "--observe: empty name"),
    Case("observe_empty", RUN + ["--observe", ""], 2, "--observe"),
    Case("observe_bad_suffix", RUN + ["--observe", "x1:volume"], 2, "--observe"),

    # Running costs (--integrand): names as for --observe, erk_adjoint only.
    Case("integrand_unknown", ERK + SHORT + ["--integrand", "x1,nosuch"], 2,
         "--integrand: model builtin:chua has no observable 'nosuch'"),
    Case("integrand_empty_name", ERK + ["--integrand", ",x1"], 2, "--integrand: empty name"),
    Case("integrand_empty", ERK + ["--integrand", ""], 2, "--integrand needs a value"),
    Case("integrand_method_without_integrands", RUN + SHORT + ["--integrand", "x1"], 1,
         "takes neither several objectives nor integrands (erk_adjoint does)"),
    Case("compare_integrand", ["compare", "builtin:chua", "--methods", "cvodes_fsa,erk_adjoint",
                               "--integrand", "x1"], 2, "--integrand"),

    # HDF5 output: a regular file, never standard output.
    Case("h5_without_out", RUN + SHORT + ["--format", "h5"], 2,
         "--format h5 needs --out FILE.h5: HDF5 is not written to standard output"),
    Case("h5_out_dev_null", RUN + SHORT + ["--format", "h5", "--out", "/dev/null"], 2,
         "'/dev/null' is not a regular file"),
    Case("h5_out_is_directory", RUN + SHORT + ["--format", "h5", "--out", "{tmp}"], 1,
         "': it is a directory"),
    Case("json_out_is_directory", RUN + SHORT + ["--out", "{tmp}"], 1, "Is a directory"),
    Case("h5_out_missing_directory", RUN + SHORT + ["--format", "h5", "--out",
                                                    "{tmp}/nosuch/out.h5"], 1,
         "nosuch/out.h5.partial': No such file or directory"),
    # A disk that fills up (a file size limit): one sentence, no HDF5 trace,
    # no crash at exit; an ensemble keeps the members committed.
    Case("h5_file_size_limit", RUN + ["--tout", "0:1:100000", "--format", "h5", "--out",
                                      "{tmp}/x.h5"], 1,
         ["writing '", "File too large"], file_limit=20 << 10),
    Case("ensemble_file_size_limit",
         ["ensemble", "builtin:chua", "--method", "cvodes_fsa", "--tout", "0:1:2000",
          "--params", "{input}", "--out", "{tmp}/out.h5"], 1,
         ["File too large", "members done are in '"], input="\n".join(["p2"] + ["15.6"] * 300),
         input_name="sets.csv", file_limit=3 << 20),
    # A .partial a killed run left is kept, not replaced.
    Case("stale_partial_is_kept", RUN + SHORT + ["--format", "h5", "--out", "{tmp}/out.h5"], 1, ["out.h5.partial' is left from an earlier run", "move or remove it"],
         input="an earlier run's members", input_name="out.h5.partial"),
    # A solution that blows up: one sentence from cvodes_asa's forward pass, as
    # from cvodes_fsa, not CVODES' t + h = t warning ten times over.
    Case("cvodes_asa_blow_up_one_sentence", ["run", "{input}", "--method", "cvodes_asa",
                                             "--tout", "0,2"], 1,
         ["CVodeF could not advance past t = 0.99",
          "the step size fell below the resolution of t"],
         input="state x = 1\ndx/dt = x^2\n", input_name="blow_up.ode"),
    # The HDF5 layout has no enclosures: refused, not written without them.
    Case("h5_bounds_refused", ["run", "builtin:chua", "--method", "bounds_fsa", "--box",
                               "p1=6.9:7.1", "--tout", "0:1:3", "--format", "h5", "--out",
                               "{tmp}/b.h5"], 2,
         "--format h5 does not hold the enclosures of bounds_fsa"),
    Case("h5_bounds_asa_refused", ["run", "builtin:chua", "--method", "bounds_asa", "--box",
                                   "p1=6.9:7.1", "--tout", "0:1:3", "--format", "h5", "--out",
                                   "{tmp}/b.h5"], 2,
         "--format h5 does not hold the enclosures of bounds_asa"),
    # An infinite measurement is a bad cell of the file (status 2), as any other.
    Case("data_infinite_value", ["run", "builtin:chua", "--method", "bounds_fsa", "--box",
                                 "p1=6.9:7.1", "--tout", "0:1:3", "--data", "{input}"], 2,
         "row 2, column 2: inf is not a measurement", input="t,x1\n0,1\n0.5,inf\n1,2\n",
         input_name="data.csv"),
    # A box too wide to enclose anything: a clear status, not CVODES' internals.
    Case("bounds_box_of_1e300", ["run", "{input}", "--method", "bounds_fsa", "--box",
                                 "k=-1e300:1e300", "--tout", "0:1:3"], 1,
         "the box is too wide to enclose the solution", input="param k = 1\nstate x = 1\n"
         "dx/dt = -k*x\n", input_name="decay.ode"),
    Case("bounds_asa_box_of_1e300", ["run", "{input}", "--method", "bounds_asa", "--box",
                                     "k=-1e300:1e300", "--tout", "0:1:3"], 1,
         "the box is too wide to enclose the solution", input="param k = 1\nstate x = 1\n"
         "dx/dt = -k*x\n", input_name="decay.ode"),
    Case("h5_observe", RUN + SHORT + ["--format", "h5", "--out", "{tmp}/o.h5", "--observe", "x1"],
         2, "--format h5 does not take --observe"),

    # Ensembles: flags, and the parameter file (one member per row).
    Case("ensemble_without_params", ENSEMBLE + ["--out", "{tmp}/out.h5"], 2,
         "ensemble: --params FILE.csv|FILE.tsv is required"),
    Case("ensemble_without_out", ENSEMBLE + ["--params", "{input}"], 2,
         "ensemble: --out FILE.h5 is required", input="p1\n7\n", input_name="sets.csv"),
    Case("ensemble_param_flag", ENSEMBLE + ["--param", "p1=7"], 2, "unknown flag '--param'"),
    Case("ensemble_threads_negative", ENSEMBLE + ["--threads", "-1"], 2,
         "--threads needs a whole number from 0 (one per core) to 1024, got '-1'"),
    Case("ensemble_threads_huge", ENSEMBLE + ["--threads", "1e9"], 2,
         "--threads needs a whole number from 0 (one per core) to 1024"),
    Case("ensemble_threads_text", ENSEMBLE + ["--threads", "two"], 2,
         "--threads: 'two' is not a finite number"),
    Case("ensemble_out_dev_full", ENSEMBLE + ["--params", "{input}", "--out", "/dev/full"], 2,
         "'/dev/full' is not a regular file", input="p1\n7\n", input_name="sets.csv"),
    Case("ensemble_missing_params_file", ENSEMBLE + ["--params", "{tmp}/nosuch.csv", "--out",
                                                     "{tmp}/out.h5"], 2,
         "nosuch.csv': No such file or directory"),
    # Bytes of a parameter file reach the terminal escaped, as the .ode parser's.
    params("params_control_bytes", b"p1\n1\x1b[2J\r\x00x\n", 2,
           "'1\\x1B[2J\\x0D\\x00x' is not a number"),
    params("params_control_bytes_in_header", b"p1\x07\x1b]0;x\n1\n", 2,
           "has no parameter 'p1\\x07\\x1B]0;x'"),
    params("params_empty", "", 2, "sets.csv: empty file"),
    params("params_only_comments", "# p1\n\n   \n# p2\n", 2, "only blank and comment lines"),
    params("params_no_rows", "p1,p2\n", 2, "no data rows after the header (line 1)"),
    params("params_ragged", "p1,p2\n7,15\n7\n", 2, "sets.csv:3: 1 cell, but the header (line 1) has 2"),
    params("params_not_a_number", "p1,p2\n7,15\n7,0x\n", 2,
           "sets.csv:3: column 2 (p2): '0x' is not a number"),
    params("params_overflow", "p1\n1e400\n", 2, "'1e400' is out of the range of doubles"),
    params("params_underflow", "p1\n1e-400\n", 2, "'1e-400' is out of the range of doubles"),
    params("params_empty_cell", "p1,p2\n7,\n", 2, "sets.csv:2: column 2 (p2) is empty"),
    params("params_unknown_name", "p1,nosuch\n7,1\n", 2,
           "sets.csv:1: model builtin:chua has no parameter 'nosuch' (column 2)"),
    params("params_duplicate_name", "p1,p1\n7,7\n", 2, "appears twice in the header"),
    params("params_many_names", repeat("p1", 100000, ","), 2, "appears twice in the header"),
    params("params_nul_bytes", b"p1\n\x00\n", 2, "is not a number"),
    params("params_binary", bytes(range(256)) * 64, 2, "sets.csv:1:"),
    params("params_not_utf8_name", b"p1,\xff\xfe\n1,2\n", 2, "has no parameter"),
    # UTF-16 without a byte-order mark (as some editors save): named, not
    # read as odd names full of NUL bytes
    params("params_utf16", "p1,p2\n7,15\n".encode("utf-16-le"), 1,
           "sets.csv: UTF-16 (little-endian) is not supported; convert the file to UTF-8"),
    # ... also where its first line is blank (the encoding is read from the
    # file's first bytes, not from its first line)
    params("params_utf16_blank_first_line", "\np1,p2\n7,15\n".encode("utf-16-le"), 1,
           "sets.csv: UTF-16 (little-endian) is not supported; convert the file to UTF-8"),
    params("params_utf16be_blank_first_line", "\r\np1\n7\n".encode("utf-16-be"), 1,
           "sets.csv: UTF-16 (big-endian) is not supported; convert the file to UTF-8"),
    params("params_long_line", lambda: "p1," + "x" * (65 << 20) + "\n", 2,
           "sets.csv:1: line longer than 64 MiB"),
    params("params_wrong_suffix", "p1\n7\n", 2, "must end in .csv (comma-separated) or .tsv",
           input_name="sets.json"),
    params("params_tsv_with_commas", "p1,p2\n7,15\n", 2, "has no parameter 'p1,p2'",
           input_name="sets.tsv"),
    params("params_nan_member", "p1\n7\nnan\n", 3, ["2 members, 1 failed", "member 1"]),
    params("params_inf_member", "p2\n-inf\n", 3, "1 member, 1 failed"),

    # PEtab problems: the YAML file, and --at's parameter table.
    Case("petab_without_problem", ["petab"], 2, "petab: no problem given"),
    Case("petab_help", ["petab", "--help"], 0, [], stdout="usage: odesens petab PROBLEM.yaml"),
    Case("petab_missing_problem", ["petab", "{tmp}/nosuch.yaml"], 2,
         "nosuch.yaml': No such file or directory"),
    Case("petab_problem_is_directory", ["petab", "{tmp}"], 2,
         "holds no problem file (.yaml or .yml)"),
    Case("petab_problem_dev_zero", ["petab", "/dev/zero"], 1, "not a regular file"),
    Case("petab_empty_yaml", ["petab", "{input}"], 2,
         "problem.yaml: a PEtab problem file must be a YAML mapping", input="",
         input_name="problem.yaml"),
    Case("petab_binary_yaml", ["petab", "{input}"], 2, "problem.yaml", input=bytes(range(256)) * 64,
         input_name="problem.yaml"),
    Case("petab_yaml_list", ["petab", "{input}"], 2, "must be a YAML mapping",
         input="- a\n- b\n", input_name="problem.yaml"),
    Case("petab_yaml_deep", ["petab", "{input}"], 2, "problem.yaml",
         input=lambda: nest("[", "]", 100000, "1"), input_name="problem.yaml"),
    Case("petab_yaml_without_tables", ["petab", "{input}"], 2,
         "the required key 'parameter_file' is missing", input="format_version: 1\n",
         input_name="problem.yaml"),
    Case("petab_at_directory", ["petab", "{shared}/petab/test-suite/0001/_0001.yaml", "--at",
                                "{tmp}"], 2, "a directory, not a parameter table"),
    Case("petab_at_binary", ["petab", "{shared}/petab/test-suite/0001/_0001.yaml", "--at",
                             "{input}"], 2,
         "at.tsv:1: the header needs the columns parameterId and value",
         input=bytes(range(256)) * 64, input_name="at.tsv"),
    Case("petab_at_utf16", ["petab", "{shared}/petab/test-suite/0001/_0001.yaml", "--at",
                            "{input}"], 1, "at.tsv: UTF-16 (little-endian) is not supported",
         input="parameterId\tvalue\na\t1\n".encode("utf-16"), input_name="at.tsv"),
]
