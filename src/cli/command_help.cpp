#include "cli/command_help.hpp"

#include <iostream>
#include <string>
#include <utility>

#include "cli/method_listing.hpp"
#include "cli/text_wrap.hpp"

namespace odesens::cli {
namespace {

const char* kUsage =
    "usage: odesens methods [--markdown ID]\n"
    "       odesens options METHOD\n"
    "       odesens info MODEL [--sens-params ID,...]\n"
    "       odesens run MODEL --method ID [flags]\n"
    "       odesens compare MODEL --methods ID1,ID2[,...] [flags]\n"
    "       odesens ensemble MODEL --method ID --params FILE.csv|FILE.tsv --out FILE.h5 [flags]\n"
    "       odesens petab PROBLEM.yaml [--at FILE.tsv] [--gradient] [--fim] [flags]\n"
    "       odesens fit PROBLEM.yaml --starts N [--out FILE.h5] [--best FILE.tsv] [flags]\n"
    "       odesens profile PROBLEM.yaml [--from BEST.tsv] [--parameters ID,...] [flags]\n"
    "PROBLEM.yaml: a PEtab problem file, or the directory holding it\n"
    "MODEL: path/model.xml (SBML) | path/model.ode | builtin:chua | builtin:vanderpol |\n"
    "       builtin:glv:N | builtin:linear:N | builtin:heat2d:Np | builtin:network:N\n"
    "\n"
    "methods   the methods: what each computes and needs, default tolerances, summaries\n"
    "          (--markdown ID: the option table of docs/methods/ID.md)\n"
    "options   the options of a method: types, ranges, defaults, what each sets\n"
    "info      a model's states, parameters, time span, derivatives and events\n"
    "run       one solve: x, S, gradients at the output times as JSON, CSV or HDF5\n"
    "compare   several methods on one problem: time, work and the difference of S\n"
    "ensemble  one solve per row of a parameter file, on threads, into one HDF5 file\n"
    "petab     a PEtab problem's log-likelihood, chi2, gradient and Fisher information\n"
    "fit       multi-start parameter estimation of a PEtab problem\n"
    "profile   profile likelihoods and confidence intervals of a PEtab problem's parameters\n"
    "\n"
    "odesens COMMAND --help: the flags of run, compare, ensemble, petab, fit or profile; with\n"
    "--method ID, the flags and options that apply to method ID. Every flag and output:\n"
    "docs/cli.md.\n"
    "Exit status: 0 success; 2 the command line or what it names is wrong; 1 valid input\n"
    "that fails; ensemble: 3 when some members failed, 128 + N after signal N.\n";

// What a flag is for: every method, or those with a capability.
// objective: every method that gives S or a gradient (it gives the objective's).
enum class FlagUse { any, objective, bounds, integrands };

enum CommandMask : unsigned { kRun = 1, kCompare = 2, kEnsemble = 4, kAll = 7 };

struct FlagHelp {
  const char* flag;
  const char* text;
  unsigned commands;
  FlagUse use = FlagUse::any;
};

const FlagHelp kFlags[] = {
    {"--method ID", "the method (odesens methods lists them)", kRun | kEnsemble},
    {"--methods ID1,ID2,...",
     "two or more methods solved on the same problem; the table compares each with the first",
     kCompare},
    {"--params FILE.csv|FILE.tsv",
     "one member per row after a header row of parameter names (any of the model's, any "
     "order; the others keep their nominal values); ',' in .csv, tab in .tsv; blank lines and "
     "lines starting with # are skipped; nan or inf fails that member alone",
     kEnsemble},
    {"--out FILE.h5",
     "the HDF5 document (required; written as FILE.h5.partial and renamed when complete; "
     "docs/hdf5-output.md)",
     kEnsemble},
    {"--threads N", "members solved at once, 0 (one per core) to 1024 (default 1)", kEnsemble},
    {"--rtol R", "relative tolerance, 0 < R < 1", kAll},
    {"--atol A", "absolute tolerance, >= 0", kAll},
    {"--t0 T", "initial time (default: the model's)", kAll},
    {"--tout a:b:n|t1,t2,...",
     "output times: n equally spaced from a to b (2 <= n <= 1e8), or a list (default: the "
     "model's time span at 101 points)",
     kAll},
    {"--param NAME=VALUE", "a parameter's value instead of its nominal one (repeatable)",
     kRun | kCompare},
    {"--option KEY=VALUE", "a method option (repeatable; listed below with --method)",
     kRun | kEnsemble},
    {"--option KEY=VALUE", "a method option, given to the methods that have it (repeatable)",
     kCompare},
    {"--max-steps N", "the most solver steps between two output times (a positive integer)",
     kAll},
    {"--sens-params ID,...",
     "SBML: the sensitivity parameters or compartments (default: every global parameter "
     "with a finite value that no rule, initial assignment or event sets; '' for none)",
     kAll},
    {"--observe NAME[:amount|:concentration],...",
     "values at the output times of states, .ode lets and outputs, or any SBML id with a "
     "value; a species as declared unless :amount or :concentration (repeatable)",
     kRun},
    {"--integrand NAME,...",
     "one objective per NAME, psi = the integral of NAME from t0 to the last output time "
     "(names as for --observe; repeatable): the output gives each psi, its gradient and "
     "dpsi/dx(t0)",
     kRun, FlagUse::integrands},
    {"--weights STATE=W,...",
     "the objective G = sum of W * STATE at the last output time, whose gradient is computed "
     "(states not named weigh 0; default: every state weighs 1; repeatable)",
     kRun, FlagUse::objective},
    {"--box NAME=LO:HI,...",
     "the parameter box to enclose over (parameters not named are held at their values; "
     "repeatable)",
     kRun, FlagUse::bounds},
    {"--data FILE.csv|FILE.tsv",
     "the least-squares objective sum (d - x)^2 (not with --weights): a header row "
     "t,STATE,... and one row per output time, an empty or nan cell where a state is not "
     "observed; its t column gives the output times or must agree with --tout",
     kRun, FlagUse::objective},
    {"--format json|csv|h5",
     "output format (default json); h5 needs --out and takes no --observe or --integrand "
     "(docs/hdf5-output.md)",
     kRun},
    {"--out FILE",
     "write the output to FILE, replaced whole or not at all (default: standard output)",
     kRun},
    {"--help, -h", "this help; with --method ID, the flags and options that apply to ID",
     kRun | kEnsemble},
    {"--plot FILE",
     "instead of the table: each method over a sweep of tolerances, its error against "
     "cvodes_fsa at rtol 1e-12 and its time, drawn into FILE (PNG, PDF, SVG) by the Python "
     "module (python3 -m odesens compare; takes only --tout and --sens-params besides; "
     "docs/python.md)",
     kCompare},
    {"--help, -h", "this help; with --methods, the options of each method", kCompare},
};

unsigned mask_of(SolveCommand command) {
  switch (command) {
    case SolveCommand::run: return kRun;
    case SolveCommand::compare: return kCompare;
    case SolveCommand::ensemble: return kEnsemble;
  }
  return 0;
}

bool used_by(FlagUse use, const MethodInfo& info) {
  switch (use) {
    case FlagUse::any: return true;
    case FlagUse::objective: return info.capabilities.gradient || info.capabilities.s_trajectory;
    case FlagUse::bounds: return info.capabilities.bounds;
    case FlagUse::integrands: return info.capabilities.integrands;
  }
  return false;
}

// A flag applies when every method named uses it (any method when none is).
bool applies(const FlagHelp& flag, SolveCommand command,
             const std::vector<const MethodInfo*>& methods) {
  if ((flag.commands & mask_of(command)) == 0) return false;
  for (const auto* info : methods)
    if (!used_by(flag.use, *info)) return false;
  return true;
}

bool all_bounds(const std::vector<const MethodInfo*>& methods) {
  for (const auto* info : methods)
    if (!info->capabilities.bounds) return false;
  return !methods.empty();
}

// --format of a bounds method: h5 has no place for enclosures.
std::string flag_name(const FlagHelp& flag, const std::vector<const MethodInfo*>& methods) {
  const std::string name = flag.flag;
  return name.rfind("--format", 0) == 0 && all_bounds(methods) ? "--format json|csv" : name;
}

// The default tolerance of one method, said after --rtol and --atol.
std::string flag_text(const FlagHelp& flag, const std::vector<const MethodInfo*>& methods) {
  const std::string name = flag.flag;
  if (name.rfind("--format", 0) == 0 && all_bounds(methods))
    return "output format (default json; h5 has no place for the enclosures)";
  std::string text = flag.text;
  const bool rtol = name.rfind("--rtol", 0) == 0, atol = name.rfind("--atol", 0) == 0;
  if (rtol || atol) {
    if (methods.size() == 1)
      text += " (default for " + methods[0]->id + ": " +
              option_value_text(rtol ? methods[0]->default_rtol : methods[0]->default_atol) +
              ")";
    else
      text += " (default: each method's)";
  }
  return text;
}

constexpr std::size_t flag_indent = 30;

void write_flag(std::ostream& out, const std::string& flag, const std::string& text) {
  const std::string first = "  " + flag;
  if (first.size() + 1 >= flag_indent) {
    out << first << '\n';
    write_wrapped(out, "", text, flag_indent);
  } else {
    write_wrapped(out, first, text, flag_indent);
  }
}

std::string usage_line(const char* program, SolveCommand command, const std::string& method) {
  const std::string id = method.empty() ? "ID" : method;
  switch (command) {
    case SolveCommand::run: return std::string(program) + " run MODEL --method " + id + " [flags]";
    case SolveCommand::compare:
      return std::string(program) + " compare MODEL --methods ID1,ID2[,...] [flags]";
    case SolveCommand::ensemble:
      return std::string(program) + " ensemble MODEL --method " + id +
             " --params FILE.csv|FILE.tsv --out FILE.h5 [flags]";
  }
  return program;
}

std::string method_ids() {
  std::string ids;
  for (const auto& info : method_infos()) ids += (ids.empty() ? "" : ", ") + info.id;
  return ids;
}

const std::pair<const char*, const char*> kPetabFlags[] = {
    {"--at FILE.tsv",
     "values of estimated parameters: columns parameterId and value (linear scale), or a "
     "PEtab parameter table (its nominalValue; fit --best writes one); the others keep "
     "their nominal values"},
    {"--method ID",
     "the method of the simulations and the gradient: auto (default: odesd where the "
     "model has second derivatives and S at most 10 000 entries, else cvodes_fsa, or "
     "cvodes_asa for a gradient alone where at least 8 estimated parameters act on the "
     "dynamics and outnumber the measurement times per experiment), a method with S "
     "(forward) or cvodes_asa, erk_adjoint (adjoint)"},
    {"--rtol R", "relative tolerance (default 1e-8)"},
    {"--atol A", "absolute tolerance (default 1e-12)"},
    {"--max-steps N", "the most solver steps of one simulation between two output times "
                      "(default 100000)"},
    {"--option KEY=VALUE", "a method option (repeatable; odesens options ID lists them)"},
    {"--gradient", "the gradient of nllh (nlpost with priors) in the scaled parameters"},
    {"--fim", "the Fisher information matrix"},
    {"--hierarchical",
     "set the inner parameters (scalings, offsets and noise parameters whose optimum has a "
     "closed form: docs/petab.md) to their optimum given the others, and print them"},
    {"--no-state-check",
     "skip the second state solve at tolerances 10 times tighter that checks each "
     "simulation's states and warns where their error exceeds 300 times the tolerances "
     "(up to a third more time)"},
    {"--threads N", "experiments solved at once, 0 (one per core) to 1024 (default 1)"},
    {"--simulations FILE.tsv", "write the PEtab simulation table"},
    {"--format text|json|h5",
     "output format (default text); h5 needs --out: the values, gradient, FIM and every "
     "measurement's simulation, sigma and residual (docs/petab.md)"},
    {"--out FILE",
     "write the output to FILE, replaced whole or not at all (default: standard output)"},
    {"--help, -h", "this help"},
};

const std::pair<const char*, const char*> kFitFlags[] = {
    {"--starts N",
     "local optimizations from N starts, a Latin hypercube in the scaled box (the "
     "parameters' initialization priors where the table has them)"},
    {"--starts-from FILE.tsv",
     "the starts instead (not with --starts): one row each, columns named by estimated "
     "parameter ids (linear scale; a parameter left out starts at its nominal value); or one "
     "start from a table with a parameterId column (--best's: go on from a fit's best point)"},
    {"--seed S", "the hypercube's seed (default 0; the same starts on any thread count)"},
    {"--resample-failed N",
     "a start whose point cannot be simulated runs from a point drawn uniformly in the scaled "
     "box instead, up to N times, N at most 1000 (default 0: it fails there)"},
    {"--hops R",
     "after the starts, R rounds of starts drawn around the best end point so far, a normal "
     "distribution on the parameters' scales clipped to the box (default 0; docs/fit.md, "
     "\"Hops\")"},
    {"--hop-starts K", "starts a hop round (default 8)"},
    {"--hop-sigma S",
     "the hops' standard deviation on the scales, 1e-6 to 100 (default 0.5; doubled after a "
     "round that finds no value lower by more than 0.1, up to 4 times S, and S again after "
     "one that does)"},
    {"--hop-flat box|local",
     "box (default): a parameter whose gradient is exactly 0 at a round's center (nothing "
     "depends on it there, as a switch time past the data) is drawn from its whole range; "
     "local: around the center as the others"},
    {"--hop-blocks on|off",
     "on (default): where some parameters are read by some experiments only (per-condition "
     "switch times, scalings: grouped by the experiments that read them), every second point "
     "of a round redraws one such block from its range and holds the others at the center, "
     "the worst fitted block first; off: every point around the center"},
    {"--threads T", "starts run at once, 0 (one per core) to 1024 (default 1)"},
    {"--optimizer ID",
     "auto (default: ceres_lm_lbfgs, or nlopt_lbfgs without a least-squares form or where the "
     "gradient goes by the adjoint, as for a large S), ceres_lm "
     "(Levenberg-Marquardt on the residuals), nlopt_lbfgs (L-BFGS on nlpost), lbfgsb (L-BFGS-B "
     "on nlpost), ceres_lm_lbfgs "
     "(ceres_lm, then nlopt_lbfgs where it stopped short of a stationary point, again while "
     "that lowers nlpost)"},
    {"--max-iterations N",
     "iterations of a start (default 1000; nlopt_lbfgs, lbfgsb: evaluations; ceres_lm_lbfgs: L-BFGS "
     "has what LM left)"},
    {"--max-seconds-per-start S", "wall time of a start (default: no limit)"},
    {"--method ID", "the simulations' method, as for odesens petab (default auto)"},
    {"--rtol R", "relative tolerance (default 1e-8)"},
    {"--atol A", "absolute tolerance (default 1e-12)"},
    {"--max-steps N", "the most solver steps of one simulation between two output times "
                      "(default 100000)"},
    {"--option KEY=VALUE", "a method option, as for odesens petab (repeatable; with --method "
                           "auto, cvodes_fsa's)"},
    {"--hierarchical",
     "optimize the outer parameters only: each evaluation sets the inner ones (scalings, "
     "offsets, noise parameters: docs/petab.md) to their optimum"},
    {"--out FILE.h5", "every start: start and end points, values, exit reasons (docs/fit.md)"},
    {"--best FILE.tsv",
     "the problem's parameter table with nominalValue set to the best start's values"},
    {"--plot DIR",
     "waterfall.png (the starts' final values) and parameters.png (the best starts' end "
     "points) in DIR (gnuplot)"},
    {"--format text|json", "output format (default text: the waterfall of the starts)"},
    {"--help, -h", "this help"},
};

const std::pair<const char*, const char*> kProfileFlags[] = {
    {"--from FILE.tsv",
     "the point to profile from, normally fit --best's table (parameterId with nominalValue "
     "or value, linear scale; default: the problem's nominal values)"},
    {"--parameters ID,...|all",
     "the estimated parameters to profile (default all; repeated, the lists add up)"},
    {"--confidence C", "confidence level of the intervals (default 0.95: threshold 1.92)"},
    {"--max-points N", "points a side at most (default 50; reaching it leaves the side open)"},
    {"--threads T", "sides traced at once, 0 (one per core) to 1024 (default 1)"},
    {"--optimizer ID", "the re-optimizations' optimizer, as for odesens fit (default auto)"},
    {"--method ID", "the simulations' method, as for odesens petab (default auto)"},
    {"--rtol R", "relative tolerance (default 1e-8)"},
    {"--atol A", "absolute tolerance (default 1e-12)"},
    {"--max-steps N", "the most solver steps of one simulation between two output times "
                      "(default 100000)"},
    {"--option KEY=VALUE", "a method option, as for odesens petab (repeatable; with --method "
                           "auto, cvodes_fsa's)"},
    {"--hierarchical", "re-optimize as odesens fit --hierarchical does"},
    {"--out FILE.json", "every profile's points and interval (docs/fit.md)"},
    {"--plot DIR", "the profiles as PNG pictures in DIR (gnuplot)"},
    {"--format text|json", "output format (default text: the intervals)"},
    {"--help, -h", "this help"},
};

}  // namespace

const char* usage_text() { return kUsage; }

void write_profile_help(std::ostream& out) {
  out << "usage: odesens profile PROBLEM.yaml [--from BEST.tsv] [flags]\n";
  write_wrapped(out, "",
                "Profile likelihoods of a PEtab v1 problem: each parameter moved from the "
                "point towards its bounds with the others re-optimized, until nlpost rises by "
                "the threshold of the confidence level; the intervals, open where a bound is "
                "reached first (docs/fit.md).",
                0);
  out << "\nflags:\n";
  for (const auto& [flag, text] : kProfileFlags) write_flag(out, flag, text);
}

void write_fit_help(std::ostream& out) {
  out << "usage: odesens fit PROBLEM.yaml --starts N [flags]\n";
  write_wrapped(out, "",
                "Multi-start parameter estimation of a PEtab v1 problem: local optimizations "
                "of nlpost (nllh without priors) from many starts, sorted by final value; "
                "Ctrl-C keeps the starts done (docs/fit.md).",
                0);
  out << "\nflags:\n";
  for (const auto& [flag, text] : kFitFlags) write_flag(out, flag, text);
}

void write_petab_help(std::ostream& out) {
  out << "usage: odesens petab PROBLEM.yaml [flags]\n";
  write_wrapped(out, "",
                "A PEtab v1 problem's log-likelihood, chi2, simulations, gradient and Fisher "
                "information at its nominal parameters or those of --at (docs/petab.md).",
                0);
  out << "\nflags:\n";
  for (const auto& [flag, text] : kPetabFlags) write_flag(out, flag, text);
}

void write_command_help(std::ostream& out, const char* program, SolveCommand command,
                        const std::vector<const MethodInfo*>& methods) {
  out << "usage: "
      << usage_line(program, command, methods.size() == 1 ? methods[0]->id : std::string())
      << '\n';
  for (const auto* info : methods) write_wrapped(out, info->id + ":", info->summary, 2);
  out << "\nflags:\n";
  for (const auto& flag : kFlags)
    if (applies(flag, command, methods))
      write_flag(out, flag_name(flag, methods), flag_text(flag, methods));
  for (const auto* info : methods) {
    out << "\noptions of " << info->id << " (--option KEY=VALUE):\n";
    write_method_options(out, *info);
  }
  if (methods.empty()) {
    out << '\n';
    write_wrapped(out, "",
                  std::string("The options depend on the method: ") + program + " " +
                      (command == SolveCommand::compare ? "compare --methods ID1,ID2"
                                                        : command == SolveCommand::run
                                                              ? "run --method ID"
                                                              : "ensemble --method ID") +
                      " --help lists them (ID: " + method_ids() + ").",
                  0);
  }
}

int print_command_help(const char* program, const RunArguments& a, SolveCommand command) {
  std::vector<const MethodInfo*> methods;
  if (command == SolveCommand::compare)
    for (const auto& id : a.methods) methods.push_back(&method_info(id));
  else if (!a.method.empty())
    methods.push_back(&method_info(a.method));
  write_command_help(std::cout, program, command, methods);
  return 0;
}

}  // namespace odesens::cli
