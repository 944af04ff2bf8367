#!/usr/bin/env python3
"""Checks that a raw language binding declares every function of odesens.h
with the same arguments, and the header's constants with the same values;
and that the hand-written module on it calls the library through it only.

  check_bindings.py julia   odesens.h generated/odesens_raw.jl  [ODESens.jl]
  check_bindings.py fortran odesens.h generated/odesens_raw.f90 [odesens.f90]

The raw bindings are generated from the header (bindings/); this is a
second, independent reader of what the generator wrote. Julia: every C
function needs a wrapper `NAME(args...) = ccall((:NAME, libodesens), RET,
(TYPES...), args...)` whose argument count and ccall types correspond to the
C prototype. Fortran: every function needs a `bind(C, name="NAME")`
interface whose dummy arguments correspond in number, type, passing (value
or reference) and shape (one value or an array). A binding of a function
the header does not declare is an error too, so stale wrappers are found.
The hand-written module must include (Julia) or use (Fortran) the raw one
and neither call a C function of the library nor define a constant of the
header itself.

C types are reduced to a kind (odesens_header.KINDS: int64, double,
handle, callback, string, output handle, ...); each binding language
accepts a small set of spellings per kind.
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "bindings"))
from odesens_header import HeaderError, parse_header  # noqa: E402


def read_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def header_tables(path):
    """{name: (return kind, [argument kinds])} and {constant: value}."""
    header = parse_header(path)
    functions = {f.name: (f.ret, [p.kind for p in f.params]) for f in header.functions}
    return functions, {c.name: c.value for c in header.constants}


# ----------------------------------------------------------------- Julia


_JULIA_DOUBLE_PTR = {"Ptr{Cdouble}", "Ptr{Float64}"}
_JULIA_INT64_PTR = {"Ptr{Int64}"}
JULIA_TYPES = {
    "int64": {"Int64"},
    "double": {"Cdouble", "Float64"},
    "int": {"Cint", "Int32"},
    "void": {"Cvoid", "Nothing"},
    "string": {"Cstring", "Ptr{UInt8}", "Ptr{Cchar}"},
    "string_or_null": {"Ptr{UInt8}", "Ptr{Cchar}"},  # Cstring would refuse C_NULL
    "handle": {"Ptr{Cvoid}", "Ptr{Nothing}"},
    "callback": {"Ptr{Cvoid}", "Ptr{Nothing}"},
    "double_array": _JULIA_DOUBLE_PTR,
    "double_array_out": _JULIA_DOUBLE_PTR,
    "int64_array": _JULIA_INT64_PTR,
    "int64_array_out": _JULIA_INT64_PTR,
    "double_out": {"Ref{Cdouble}", "Ref{Float64}"},
    "int64_out": {"Ref{Int64}"},
    "handle_out": {"Ref{Ptr{Cvoid}}", "Ptr{Ptr{Cvoid}}"},
    "string_out": {"Ref{Ptr{UInt8}}", "Ref{Cstring}", "Ptr{Ptr{UInt8}}", "Ptr{Cstring}"},
    # An array of strings passed in: a Vector{String} converts to either.
    "string_array": {"Ptr{Cstring}", "Ptr{Ptr{UInt8}}"},
    "double_view_out": {"Ref{Ptr{Cdouble}}", "Ptr{Ptr{Cdouble}}", "Ref{Ptr{Float64}}"},
}


def split_top_level(text):
    """Splits at commas outside (), {} and []."""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def balanced(text, start):
    """The text inside the parenthesis opening at text[start]."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return text[start + 1:i]
    raise ValueError("unbalanced parentheses at offset %d" % start)


def parse_julia(path):
    text = re.sub(r"#[^\n]*", "", read_text(path))
    wrappers = {}
    for m in re.finditer(r"^(odesens_\w+)\(([^)]*)\)\s*=\s*ccall\(", text, flags=re.M):
        name, args = m.group(1), m.group(2)
        inner = split_top_level(balanced(text, m.end() - 1))
        target = re.fullmatch(r"\(\s*:(\w+)\s*,\s*libodesens\s*\)", inner[0])
        types = split_top_level(inner[2].strip()[1:-1])
        wrappers[name] = {
            "target": target.group(1) if target else None,
            "params": len(split_top_level(args)),
            "ret": inner[1],
            "types": [re.sub(r"\s+", "", t) for t in types],
            "passed": len(inner) - 3,
        }
    constants = {}
    pattern = r"^const\s+(ODESENS_[A-Z0-9_]+)\s*=\s*(?:\w+\()?\s*(-?\d+)\s*\)?\s*$"
    for name, value in re.findall(pattern, text, flags=re.M):
        constants[name] = int(value)
    return wrappers, constants


def check_julia(functions, wrappers):
    errors = []
    for name, (ret, kinds) in functions.items():
        w = wrappers.get(name)
        if w is None:
            errors.append("%s: no Julia wrapper" % name)
            continue
        if w["target"] != name:
            errors.append("%s: the wrapper calls %s" % (name, w["target"]))
        if w["ret"] not in JULIA_TYPES[ret]:
            errors.append("%s: returns %s in Julia, C returns %s" % (name, w["ret"], ret))
        if not (w["params"] == w["passed"] == len(w["types"]) == len(kinds)):
            errors.append("%s: %d C arguments, Julia wrapper takes %d, declares %d types and "
                          "passes %d" % (name, len(kinds), w["params"], len(w["types"]),
                                         w["passed"]))
            continue
        for i, (kind, jtype) in enumerate(zip(kinds, w["types"])):
            if jtype not in JULIA_TYPES[kind]:
                errors.append("%s: argument %d is %s in Julia, C has %s (expected one of %s)"
                              % (name, i + 1, jtype, kind, sorted(JULIA_TYPES[kind])))
    for name in wrappers:
        if name not in functions:
            errors.append("%s: Julia wrapper of a function odesens.h does not declare" % name)
    return errors


# ---------------------------------------------------------------- Fortran

# kind -> (base type, passed by value, an array)
FORTRAN_TYPES = {
    "int64": ("integer(c_int64_t)", True, False),
    "double": ("real(c_double)", True, False),
    "int": ("integer(c_int)", True, False),
    "string": ("character(kind=c_char)", False, True),
    "string_or_null": ("character(kind=c_char)", False, True),
    "handle": ("type(c_ptr)", True, False),
    "callback": ("type(c_funptr)", True, False),
    "double_array": ("real(c_double)", False, True),
    "double_array_out": ("real(c_double)", False, True),
    "int64_array": ("integer(c_int64_t)", False, True),
    "int64_array_out": ("integer(c_int64_t)", False, True),
    "double_out": ("real(c_double)", False, False),
    "int64_out": ("integer(c_int64_t)", False, False),
    "handle_out": ("type(c_ptr)", False, False),
    "string_out": ("type(c_ptr)", False, False),
    "string_array": ("type(c_ptr)", False, True),  # type(c_ptr) :: names(*), c_loc of each
    "double_view_out": ("type(c_ptr)", False, False),
}
FORTRAN_RETURNS = {"int": "integer(c_int)", "string": "type(c_ptr)"}


def fortran_lines(path):
    """Lines without comments, continuation lines joined, lower case."""
    out, pending = [], ""
    for raw in read_text(path).splitlines():
        line, quote = "", None
        for ch in raw.rstrip("\n"):
            if quote:
                quote = None if ch == quote else quote
            elif ch in "'\"":
                quote = ch
            elif ch == "!":
                break
            line += ch
        line = line.strip()
        if pending:
            line = pending + " " + line.lstrip("&").strip()
            pending = ""
        if line.endswith("&"):
            pending = line[:-1].strip()
            continue
        if line:
            out.append(line)
    return out


def parse_fortran(path):
    lines = fortran_lines(path)
    interfaces, i = {}, 0
    header = re.compile(r'(function|subroutine)\s+(\w+)\s*\(([^)]*)\)\s*bind\s*\(\s*c\s*,\s*'
                        r'name\s*=\s*"(\w+)"\s*\)', re.I)
    while i < len(lines):
        m = header.match(lines[i])
        i += 1
        if not m:
            continue
        what, fname, args, cname = m.group(1).lower(), m.group(2).lower(), m.group(3), m.group(4)
        decls = {}
        while i < len(lines) and not re.match(r"end\s*(function|subroutine)", lines[i], re.I):
            d = re.match(r"(.+?)::(.+)$", lines[i])
            if d:
                spec = re.sub(r"\s+", "", d.group(1).lower())
                base = re.match(r"(integer\([^)]*\)|real\([^)]*\)|type\([^)]*\)|"
                                r"character\([^)]*\))", spec)
                for var in split_top_level(d.group(2)):
                    vname = re.match(r"\w+", var.strip()).group(0).lower()
                    decls[vname] = (base.group(1) if base else spec, ",value" in spec,
                                    bool(re.search(r"\(\s*\*\s*\)", var)))
            i += 1
        arg_names = [a.strip().lower() for a in args.split(",") if a.strip()]
        interfaces[cname] = {
            "kind": what,
            "fortran_name": fname,
            "result": decls.get(fname),
            "args": [decls.get(a) for a in arg_names],
            "arg_names": arg_names,
        }
    constants = {}
    for line in lines:
        c = re.match(r".*parameter\s*::\s*(odesens_[a-z0-9_]+)\s*=\s*(-?\d+)", line, re.I)
        if c:
            constants[c.group(1).upper()] = int(c.group(2))
    return interfaces, constants


def fortran_spelling(decl):
    base, value, array = decl
    return base + (", value" if value else "") + (" :: x(*)" if array else "")


def check_fortran(functions, interfaces):
    errors = []
    for name, (ret, kinds) in functions.items():
        f = interfaces.get(name)
        if f is None:
            errors.append("%s: no bind(C) interface in Fortran" % name)
            continue
        if f["fortran_name"] != name:
            errors.append("%s: Fortran interface named %s" % (name, f["fortran_name"]))
        if ret == "void":
            if f["kind"] != "subroutine":
                errors.append("%s: returns void, the Fortran interface is a function" % name)
        elif f["kind"] != "function" or not f["result"] or \
                f["result"] != (FORTRAN_RETURNS[ret], False, False):
            errors.append("%s: must be a function returning %s" % (name, FORTRAN_RETURNS[ret]))
        if len(f["args"]) != len(kinds):
            errors.append("%s: %d C arguments, %d in Fortran" % (name, len(kinds), len(f["args"])))
            continue
        for i, (kind, decl) in enumerate(zip(kinds, f["args"])):
            if decl is None:
                errors.append("%s: argument %s has no declaration" % (name, f["arg_names"][i]))
            elif decl != FORTRAN_TYPES[kind]:
                errors.append("%s: argument %s is %s in Fortran, C has %s (expected %s)"
                              % (name, f["arg_names"][i], fortran_spelling(decl), kind,
                                 fortran_spelling(FORTRAN_TYPES[kind])))
    for name in interfaces:
        if name.startswith("odesens_") and name not in functions:
            errors.append("%s: Fortran interface of a function odesens.h does not declare" % name)
    return errors


# ---------------------------------------------------------------- main


def check_constants(header, binding, renamed):
    errors = []
    for name, value in header.items():
        bname = renamed.get(name, name)
        if bname not in binding:
            errors.append("constant %s missing" % bname)
        elif binding[bname] != value:
            errors.append("constant %s is %d, odesens.h says %d" % (bname, binding[bname], value))
    return errors


def check_julia_layer(path, raw_path):
    text = re.sub(r"#[^\n]*", "", read_text(path))
    errors = []
    raw_name = os.path.basename(raw_path)
    if not re.search(r"^\s*include\(.*\b%s\b" % re.escape(raw_name), text, flags=re.M):
        errors.append("does not include %s" % raw_name)
    for name in re.findall(r"ccall\(\s*\(\s*:(odesens_\w+)", text):
        errors.append("calls %s itself: call the wrapper of %s" % (name, raw_name))
    for name in re.findall(r"^\s*const\s+(ODESENS_\w+)", text, flags=re.M):
        errors.append("defines %s, which %s defines" % (name, raw_name))
    return errors


def check_fortran_layer(path, raw_path):
    interfaces, constants = parse_fortran(path)
    module = os.path.splitext(os.path.basename(raw_path))[0]
    errors = []
    if not any(re.fullmatch(r"use\s+%s\b.*" % module, line, re.I)
               for line in fortran_lines(path)):
        errors.append("does not use the module %s" % module)
    for name in interfaces:
        if name.startswith("odesens_"):
            errors.append("declares an interface of %s: %s has it" % (name, module))
    for name in constants:
        errors.append("defines %s, which %s defines" % (name, module))
    return errors


def main(argv):
    if len(argv) not in (4, 5) or argv[1] not in ("julia", "fortran"):
        print(__doc__)
        return 2
    language, header_path, binding_path = argv[1:4]
    try:
        functions, header_constants = header_tables(header_path)
    except HeaderError as e:
        print("%s: %s" % (header_path, e))
        return 1
    if language == "julia":
        wrappers, constants = parse_julia(binding_path)
        errors = check_julia(functions, wrappers) + check_constants(header_constants, constants, {})
    else:
        interfaces, constants = parse_fortran(binding_path)
        # Fortran names ignore case: the ABI version constant would clash
        # with the function odesens_abi_version.
        renamed = {"ODESENS_ABI_VERSION": "ODESENS_MODULE_ABI_VERSION"}
        errors = check_fortran(functions, interfaces) + \
            check_constants(header_constants, constants, renamed)
    errors = ["%s: %s" % (binding_path, e) for e in errors]
    if len(argv) == 5:
        layer = check_julia_layer if language == "julia" else check_fortran_layer
        errors += ["%s: %s" % (argv[4], e) for e in layer(argv[4], binding_path)]
    for e in errors:
        print(e)
    if errors:
        print("%d problem(s) between %s and %s" % (len(errors), header_path,
                                                  " and ".join(argv[3:])))
        return 1
    print("%s: %d functions and %d constants agree with %s%s" %
          (binding_path, len(functions), len(header_constants), header_path,
           "; %s calls the library through it" % argv[4] if len(argv) == 5 else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
