// What the tool says about its methods: `odesens methods` (what each method
// gives and needs, its default tolerances and summary), the option list of
// `odesens options ID` and `odesens run --method ID --help`, and the option
// table of docs/methods/ID.md (`odesens methods --markdown ID`).
#pragma once

#include <ostream>

#include "odesens/methods.hpp"

namespace odesens::cli {

// One row of capabilities per method, a legend, then each method's summary.
void write_method_table(std::ostream& out);

// Each option of the method: its key, type, range or allowed values and
// default on one line, its documentation wrapped below.
void write_method_options(std::ostream& out, const MethodInfo& info);

// `odesens options ID`: the summary, the default tolerances and the options.
void write_method_description(std::ostream& out, const MethodInfo& info);

// The default tolerances and a Markdown table of the options, the generated
// part of docs/methods/ID.md.
void write_option_markdown(std::ostream& out, const MethodInfo& info);

}  // namespace odesens::cli
