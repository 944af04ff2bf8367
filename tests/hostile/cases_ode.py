"""Hostile .ode model texts (see run_hostile.py and
../shared/design/MODEL_FORMAT.md). Malformed text is a parse error, exit
status 2, with "file:line:column: message"; NaN or Inf met during a solve is exit
status 1.
"""
from hostile_case import Case, nest, repeat

ENCODING = "UTF-8 byte-order mark accepted, UTF-16 and NUL bytes refused by name"
FILES = "model files: only regular files, size limit"

DECAY = "param k = 0.5\nstate x = 1\ndx/dt = -k*x\n"
INFO = ["info", "{input}"]
RUN = ["run", "{input}", "--method", "cvodes_fsa", "--tout", "0:1:3"]


def ode(name, text, status, stderr, args=INFO, pending=None, **kw):
    """A model text loaded by `odesens info` (or `args`); parse errors
    name the file, so most fragments start with "model.ode:"."""
    return Case(name, args, status, stderr, input=text, input_name="model.ode",
                pending=pending, **kw)


def lines(*rows):
    return "\n".join(rows) + "\n"


CASES = [
    # Empty and almost empty.
    ode("empty_file", "", 2, "model.ode:1:1: the model declares no state"),
    ode("only_comments", "# nothing\n# here\n", 2, "the model declares no state"),
    ode("only_blank_lines", repeat("\n", 10000), 2, "the model declares no state"),
    ode("only_params", "param k = 1\n", 2, "the model declares no state"),

    # Syntax.
    ode("state_without_value", lines("state x =", "dx/dt = 1"), 2, "model.ode:1:"),
    ode("rhs_without_expression", lines("state x = 1", "dx/dt ="), 2, "model.ode:2:"),
    ode("unknown_statement", lines("variable x = 1"), 2, "model.ode:1:1:"),
    ode("bad_number", lines("param k = 1e", "state x = 1", "dx/dt = -k*x"), 2, "model.ode:1:"),
    ode("two_decimal_points", lines("param k = 1.2.3", "state x = 1", "dx/dt = -k*x"), 2,
        "model.ode:1:"),
    ode("number_overflow", lines("param k = 1e999", "state x = 1", "dx/dt = -k*x"), 2,
        "model.ode:1:"),
    ode("unclosed_parenthesis", lines("state x = 1", "dx/dt = (x + 1"), 2, "model.ode:2:"),
    ode("extra_parenthesis", lines("state x = 1", "dx/dt = x + 1)"), 2, "model.ode:2:"),
    ode("dangling_operator", lines("state x = 1", "dx/dt = x +"), 2, "model.ode:2:"),
    ode("two_operators", lines("state x = 1", "dx/dt = x * / 2"), 2, "model.ode:2:"),
    ode("missing_operator", lines("state x = 1", "dx/dt = 2 x"), 2, "model.ode:2:"),
    ode("semicolons", lines("state x = 1; dx/dt = -x"), 2, "model.ode:1:"),
    ode("unexpected_character", lines("state x = 1", "dx/dt = x $ 2"), 2, "model.ode:2:"),
    ode("event_assigns_a_param", DECAY + "event e when t >= 1: k = 0\n", 2,
        "event 'e' assigns 'k', which is a param"),
    ode("event_without_assignment", DECAY + "event e when t >= 1:\n", 2, "model.ode:4:"),
    ode("condition_outside_piecewise", lines("state x = 1", "dx/dt = x < 1"), 2,
        "model.ode:2:"),
    ode("piecewise_without_otherwise", lines("state x = 1", "dx/dt = piecewise(1, x < 1)"), 2,
        "model.ode:2:"),

    # Names.
    ode("unknown_name", lines("state x = 1", "dx/dt = -k*x"), 2, "model.ode:2:"),
    ode("unknown_function", lines("state x = 1", "dx/dt = foo(x)"), 2, "model.ode:2:"),
    ode("too_few_arguments", lines("state x = 1", "dx/dt = pow(x)"), 2, "model.ode:2:"),
    ode("too_many_arguments", lines("state x = 1", "dx/dt = exp(x, x)"), 2, "model.ode:2:"),
    ode("duplicate_param", "param k = 1\n" + DECAY, 2, "model.ode:2:"),
    ode("duplicate_state", DECAY + "state x = 2\n", 2, "model.ode:4:"),
    ode("state_named_like_param", DECAY + "state k = 2\ndk/dt = 0\n", 2, "model.ode:4:"),
    ode("state_without_rhs", DECAY + "state y = 1\n", 2, "model.ode"),
    ode("rhs_of_param", DECAY + "dk/dt = 1\n", 2, "model.ode:4:"),
    ode("rhs_twice", DECAY + "dx/dt = k\n", 2, "model.ode:4:"),
    ode("rhs_before_state", lines("dx/dt = 1", "state x = 1"), 2, "model.ode:1:"),
    ode("let_cycle", lines("state x = 1", "let a = b + x", "let b = a", "dx/dt = a"), 2,
        "model.ode"),
    ode("let_self_reference", lines("state x = 1", "let a = a + 1", "dx/dt = a"), 2,
        "model.ode:2:"),
    ode("const_uses_state", lines("state x = 1", "const c = x", "dx/dt = c"), 2,
        "model.ode:2:"),
    ode("param_not_a_number", lines("state x = 1", "param k = x", "dx/dt = k"), 2,
        "model.ode:2:"),
    ode("time_declared_as_param", lines("param t = 1", "state x = 1", "dx/dt = t"), 2,
        "model.ode:1:"),
    ode("function_name_as_param", lines("param exp = 1", "state x = 1", "dx/dt = exp"), 2,
        "model.ode:1:"),
    ode("output_unknown_name", DECAY + "output y = nosuch\n", 2, "model.ode:4:"),
    ode("unknown_time_key", DECAY + "time t1 = 5\n", 2, "model.ode:4:"),
    ode("time_not_a_number", DECAY + "time t0 = abc\n", 2, "model.ode:4:"),
    ode("end_before_start", DECAY + "time t0 = 1\ntime t_end = 0\n", 2, "model.ode"),
    # t0 past the default end: the default span is [t0, t0 + 1].
    Case("start_after_default_end", ["run", "{input}", "--method", "cvodes_fsa"], 0, [],
         input=DECAY + "time t0 = 200\n", input_name="model.ode", stdout='"times":[200,200.01,'),
    ode("start_too_large_for_a_default_end", DECAY + "time t0 = 1e300\n", 2,
        "leaves no default end time t0 + 1 in doubles"),
    ode("name_very_long", lines("state " + repeat("x", 100000) + " = 1",
                                "d" + repeat("x", 100000) + "/dt = 1"), 0, "", stdout="states (1)"),

    # Encodings and bytes.
    ode("utf8_bom", "\ufeff" + DECAY, 0, "", stdout="states (1)"),
    ode("utf16le_bom", b"\xff\xfe" + DECAY.encode("utf-16-le"), 1, "UTF-16"),
    ode("utf16be_bom", b"\xfe\xff" + DECAY.encode("utf-16-be"), 1, "UTF-16"),
    ode("nul_byte", DECAY.encode() + b"\x00\n", 2, "model.ode:4:"),
    ode("not_utf8_in_comment", b"# \xff\xfe\x80 latin-1: \xe9\n" + DECAY.encode(), 0, "",
        stdout="states (1)"),
    ode("not_utf8_in_name", b"param k\xe9 = 1\n" + DECAY.encode(), 2, "model.ode:1:"),
    ode("crlf_line_ends", DECAY.replace("\n", "\r\n"), 0, "", stdout="states (1)"),
    ode("tabs", DECAY.replace(" ", "\t"), 0, "", stdout="states (1)"),
    ode("no_final_newline", DECAY.rstrip("\n"), 0, "", stdout="states (1)"),
    ode("control_characters", "\x01\x02\x1b[31m" + DECAY, 2, "model.ode:1:1:"),
    ode("binary_garbage", bytes(range(1, 256)) * 64, 2, "model.ode:1:"),

    # Size and depth.
    ode("long_sum", lines("state x = 1", "dx/dt = " + repeat("x", 20000, " + ")), 0, "",
        stdout="states (1)"),
    ode("long_product", lines("state x = 1", "dx/dt = " + repeat("x", 5000, " * ")), 0, "",
        stdout="states (1)"),
    ode("many_states", "".join(f"state x{i} = {i}\ndx{i}/dt = -x{i}\n" for i in range(3000)), 0,
        "", stdout="states (3000)"),
    ode("many_params", "".join(f"param p{i} = {i}\n" for i in range(3000)) +
        "state x = 1\ndx/dt = " + repeat("p1", 10, " + ") + "\n", 0, "",
        stdout="parameters (3000)"),
    ode("let_chain", "state x = 1\nlet a0 = x\n" +
        "".join(f"let a{i} = a{i - 1} * 1.0001 + x\n" for i in range(1, 3000)) +
        "dx/dt = -a2999\n", 0, "", stdout="states (1)"),
    ode("long_line_of_spaces", repeat(" ", 1 << 20) + DECAY, 0, "", stdout="states (1)"),
    ode("long_comment", "#" + repeat("c", 1 << 22) + "\n" + DECAY, 0, "", stdout="states (1)"),
    ode("nested_parentheses", lines("state x = 1", "dx/dt = " + nest("(", ")", 150, "x")), 0, "",
        stdout="states (1)"),
    ode("deep_parentheses", lines("state x = 1", "dx/dt = " + nest("(", ")", 100000, "x")), 2,
        "model.ode:2:209: expression nested too deeply"),
    ode("deep_unary_minus", lines("state x = 1", "dx/dt = " + repeat("-", 100000) + "x"), 2,
        "expression nested too deeply"),
    ode("deep_power_tower", lines("state x = 1", "dx/dt = " + repeat("x^", 100000) + "x"), 2,
        "expression nested too deeply"),
    ode("deep_function_calls", lines("state x = 1", "dx/dt = " + nest("sin(", ")", 100000, "x")),
        2, "expression nested too deeply"),
    ode("file_over_size_limit", lambda: "#" + repeat("c", 70 << 20) + "\n" + DECAY, 1,
        "size limit"),

    # Values that are not finite.
    ode("division_by_zero_constant", lines("state x = 1", "dx/dt = x/0"), 1, "NaN or Inf",
        args=RUN),
    ode("initial_value_inf", lines("state x = 1/0", "dx/dt = -x"), 1,
        "the initial value of state 'x' is inf", args=RUN),
    ode("initial_value_nan", lines("state x = 0/0", "dx/dt = -x"), 1,
        "the initial value of state 'x' is NaN", args=RUN),
    ode("sqrt_of_negative", lines("state x = 1", "dx/dt = sqrt(-x)"), 1, "NaN or Inf",
        args=RUN),
    ode("log_of_zero", lines("state x = 0", "dx/dt = log(x)"), 1, "NaN or Inf", args=RUN),
    ode("finite_time_blow_up", lines("state x = 1", "dx/dt = x^2"), 1, "CVode",
        args=["run", "{input}", "--method", "cvodes_fsa", "--tout", "0:2:3"]),
    ode("param_huge", lines("param k = 1e308", "state x = 1", "dx/dt = k*k*x"), 1, "NaN or Inf",
        args=RUN),
]
