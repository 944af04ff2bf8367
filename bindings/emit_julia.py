"""The Julia raw layer: one function per function of odesens.h, with the
same name and arguments, each a single `ccall` returning what C returns,
and the header's constants. Included by the module ODESens
(capi/ODESens.jl), which defines `libodesens` before including it.
"""
from odesens_header import KINDS, HeaderError

FILE_NAME = "odesens_raw.jl"
MAX_LINE = 100

_ARGS = {
    "int": "Cint",
    "int64": "Int64",
    "double": "Cdouble",
    "handle": "Ptr{Cvoid}",
    "callback": "Ptr{Cvoid}",  # from @cfunction
    "string": "Cstring",
    "string_or_null": "Ptr{UInt8}",  # a String, or C_NULL
    "double_array": "Ptr{Cdouble}",
    "int64_array": "Ptr{Int64}",
    "double_array_out": "Ptr{Cdouble}",
    "int64_array_out": "Ptr{Int64}",
    "double_out": "Ref{Cdouble}",
    "int64_out": "Ref{Int64}",
    "handle_out": "Ref{Ptr{Cvoid}}",
    "string_out": "Ref{Ptr{UInt8}}",
    "string_array": "Ptr{Cstring}",  # a Vector{String}
    "double_view_out": "Ref{Ptr{Cdouble}}",
}
_RETURNS = {"int": "Cint", "void": "Cvoid", "string": "Cstring"}
_CONSTANT_TYPES = {"int": "Cint(%d)", "int64": "Int64(%d)", "integer": "%d"}
assert set(_ARGS) == set(KINDS), "every kind needs a Julia type"

# Names a parameter should not have in Julia (keywords, words that are
# keywords in some places, and the names the wrappers use); such a
# parameter gets a trailing underscore.
_RESERVED = {
    "abstract", "baremodule", "begin", "break", "catch", "const", "continue", "do", "else",
    "elseif", "end", "export", "false", "finally", "for", "function", "global", "if",
    "import", "in", "isa", "let", "local", "macro", "module", "mutable", "outer",
    "primitive", "public", "quote", "return", "struct", "true", "try", "type", "using",
    "where", "while", "ccall", "libodesens",
}


def _name(p):
    return p.name + "_" if p.name in _RESERVED else p.name


def _types(function):
    types = [_ARGS[p.kind] for p in function.params]
    return "(%s,)" % types[0] if len(types) == 1 else "(%s)" % ", ".join(types)


def _wrapper(function):
    """`name(args) =` and its ccall, on lines of at most MAX_LINE: the call,
    then the argument types, then the arguments, each on lines of its own
    when they do not fit together."""
    args = [_name(p) for p in function.params]
    if len(set(args)) != len(args):
        raise HeaderError("%s: two parameters of the same name" % function.name)
    head = "%s(%s) =" % (function.name, ", ".join(args))
    call = "    ccall((:%s, libodesens), %s," % (function.name, _RETURNS[function.ret])
    types = _types(function) + ("," if args else ")")
    passed = ", ".join(args) + ")" if args else ""
    for lines in ([call + " " + (types + " " + passed).strip()],
                  [call, "          " + (types + " " + passed).strip()],
                  [call, "          " + types, "          " + passed]):
        if all(len(line) <= MAX_LINE for line in [head] + lines):
            return [head] + lines
    # Too many arguments for one line: the name's arguments, the types and
    # the arguments passed, each wrapped inside its parentheses.
    lines = _wrap(function.name + "(", args, ") =", " " * (len(function.name) + 1))
    lines += [call]
    lines += _wrap("          (", [_ARGS[p.kind] for p in function.params], "),", " " * 11)
    lines += _wrap("          ", args, ")", " " * 10)
    if all(len(line) <= MAX_LINE for line in lines):
        return lines
    raise HeaderError("%s: its Julia wrapper does not fit in lines of %d characters"
                      % (function.name, MAX_LINE))


def _wrap(first, items, last, indent):
    """`first` + items joined by ", " + `last`, in lines of at most MAX_LINE,
    the continuation lines starting with `indent`; items are never split."""
    lines, line = [], first
    for i, item in enumerate(items):
        piece = item + ("," if i + 1 < len(items) else last)
        if line not in (first, indent) and len(line) + 1 + len(piece) > MAX_LINE:
            lines.append(line)
            line = indent
        line += ("" if line in (first, indent) else " ") + piece
    return lines + [line]


def _constants(header):
    lines = []
    for group, constants in header.groups().items():
        lines.append("")
        lines.append("# " + ("#defines" if group == "#define" else "enum " + group))
        for c in constants:
            lines.append("const %s = %s" % (c.name, _CONSTANT_TYPES[c.ctype] % c.value))
    return lines


def emit(header, banner):
    """The text of odesens_raw.jl; `banner` is the generated-file notice."""
    lines = ["# " + b if b else "#" for b in banner]
    lines += ["#",
              "# The C ABI of libodesens (odesens.h): one function per C function, with",
              "# the same name and arguments, each a single ccall that returns the C",
              "# status and never throws; and the header's constants. Included by the",
              "# module ODESens (ODESens.jl), which defines libodesens before it.",
              "# Handles are Ptr{Cvoid}, outputs Refs, arrays Vector{Float64} or",
              "# Vector{Int64}, callbacks pointers from @cfunction."]
    lines += _constants(header)
    section = None
    for f in header.functions:
        if f.section != section and f.section:
            lines += ["", "# ---- %s ----" % f.section, ""]
        section = f.section
        lines += _wrapper(f)
    return "\n".join(lines) + "\n"
