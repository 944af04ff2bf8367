#!/usr/bin/env python3
"""Checks that a language binding declares every function of odesens.h
with the same arguments, and the header's constants with the same values.

  check_bindings.py julia   odesens.h ODESens.jl
  check_bindings.py fortran odesens.h odesens.f90

Julia: every exported C function needs a wrapper `NAME(args...) =
ccall((:NAME, libodesens), RET, (TYPES...), args...)` whose argument count
and ccall types correspond to the C prototype. Fortran: every function needs
a `bind(C, name="NAME")` interface whose dummy arguments correspond in
number, type and passing (value or reference). A binding of a function the
header does not declare is an error too, so stale wrappers are found.

C types are first reduced to a kind (int64, double, pointer, callback,
string, output handle, ...); each binding language accepts a small set of
spellings per kind.
"""
import re
import sys

# ---------------------------------------------------------------- the header


def strip_c_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def c_kind(ctype, callbacks, handles):
    """The kind of a C parameter or return type."""
    t = re.sub(r"\s+", " ", ctype.replace("*", " * ")).strip()
    t = t.replace("* *", "**")
    base = re.sub(r"\bconst\b", "", t).replace("*", "").strip()
    stars = t.count("*")
    if stars == 0:
        if base in callbacks:
            return "callback"
        return {"int64_t": "int64", "double": "double", "int": "int", "void": "void"}[base]
    if stars == 1:
        if base == "char":
            return "string"
        if base in handles or base == "void":
            return "pointer"
        return {"double": "double_ptr", "int64_t": "int64_ptr"}[base]
    if stars == 2:
        if base in handles:
            return "handle_out"
        if base == "char" and re.search(r"\*\s*const\s*\*", t):
            return "string_array"  # const char* const*: strings in
        return {"char": "string_out", "double": "double_ptr_out"}[base]
    raise ValueError("unexpected C type " + ctype)


def parse_header(path):
    text = strip_c_comments(open(path, encoding="utf-8").read())
    callbacks = set(re.findall(r"typedef\s+int\s*\(\s*\*\s*(\w+)\s*\)", text))
    handles = set(re.findall(r"typedef\s+struct\s+\w+\s+(\w+)\s*;", text))
    functions = {}
    for ret, name, params in re.findall(
            r"ODESENS_API\s+([^;(]*?)\s*\b(odesens_\w+)\s*\(([^)]*)\)\s*;", text):
        kinds = []
        params = re.sub(r"\s+", " ", params).strip()
        if params and params != "void":
            for param in params.split(","):
                param = param.strip()
                ptype = re.sub(r"\w+$", "", param).strip()  # drop the parameter name
                kinds.append(c_kind(ptype, callbacks, handles))
        functions[name] = (c_kind(ret, callbacks, handles), kinds)
    constants = {}
    for name, value in re.findall(r"#define\s+(ODESENS_[A-Z_]+)\s+(-?\d+)\b", text):
        constants[name] = int(value)
    for body in re.findall(r"typedef\s+enum\s+\w*\s*\{(.*?)\}", text, flags=re.S):
        for name, value in re.findall(r"(ODESENS_[A-Z_]+)\s*=\s*(-?\d+)", body):
            constants[name] = int(value)
    return functions, constants


# ----------------------------------------------------------------- Julia


JULIA_TYPES = {
    "int64": {"Int64"},
    "double": {"Cdouble", "Float64"},
    "int": {"Cint", "Int32"},
    "void": {"Cvoid", "Nothing"},
    "string": {"Cstring", "Ptr{UInt8}", "Ptr{Cchar}"},
    "pointer": {"Ptr{Cvoid}", "Ptr{Nothing}"},
    "callback": {"Ptr{Cvoid}", "Ptr{Nothing}"},
    "double_ptr": {"Ptr{Cdouble}", "Ptr{Float64}", "Ref{Cdouble}", "Ref{Float64}"},
    "int64_ptr": {"Ptr{Int64}", "Ref{Int64}"},
    "handle_out": {"Ref{Ptr{Cvoid}}", "Ptr{Ptr{Cvoid}}"},
    "string_out": {"Ref{Ptr{UInt8}}", "Ref{Cstring}", "Ptr{Ptr{UInt8}}", "Ptr{Cstring}"},
    # An array of strings passed in: a Vector{String} converts to either.
    "string_array": {"Ptr{Cstring}", "Ptr{Ptr{UInt8}}"},
    "double_ptr_out": {"Ref{Ptr{Cdouble}}", "Ptr{Ptr{Cdouble}}", "Ref{Ptr{Float64}}"},
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
    text = re.sub(r"#[^\n]*", "", open(path, encoding="utf-8").read())
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
    for name, value in re.findall(
            r"^const\s+(ODESENS_[A-Z_]+)\s*=\s*(?:\w+\()?\s*(-?\d+)\s*\)?\s*$", text, flags=re.M):
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

# kind -> (base type, passed by value)
FORTRAN_TYPES = {
    "int64": ("integer(c_int64_t)", True),
    "double": ("real(c_double)", True),
    "int": ("integer(c_int)", True),
    "string": ("character(kind=c_char)", False),
    "pointer": ("type(c_ptr)", True),
    "callback": ("type(c_funptr)", True),
    "double_ptr": ("real(c_double)", False),
    "int64_ptr": ("integer(c_int64_t)", False),
    "handle_out": ("type(c_ptr)", False),
    "string_out": ("type(c_ptr)", False),
    "string_array": ("type(c_ptr)", False),  # type(c_ptr) :: names(*), c_loc of each string
    "double_ptr_out": ("type(c_ptr)", False),
}
FORTRAN_RETURNS = {"int": "integer(c_int)", "string": "type(c_ptr)"}


def fortran_lines(path):
    """Lines without comments, continuation lines joined, lower case."""
    out, pending = [], ""
    for raw in open(path, encoding="utf-8"):
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
                    decls[vname] = (base.group(1) if base else spec, ",value" in spec)
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
        c = re.match(r".*parameter\s*::\s*(odesens_[a-z_]+)\s*=\s*(-?\d+)", line, re.I)
        if c:
            constants[c.group(1).upper()] = int(c.group(2))
    return interfaces, constants


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
                f["result"][0] != FORTRAN_RETURNS[ret] or f["result"][1]:
            errors.append("%s: must be a function returning %s" % (name, FORTRAN_RETURNS[ret]))
        if len(f["args"]) != len(kinds):
            errors.append("%s: %d C arguments, %d in Fortran" % (name, len(kinds), len(f["args"])))
            continue
        for i, (kind, decl) in enumerate(zip(kinds, f["args"])):
            if decl is None:
                errors.append("%s: argument %s has no declaration" % (name, f["arg_names"][i]))
            elif decl != FORTRAN_TYPES[kind]:
                errors.append("%s: argument %s is %s%s in Fortran, C has %s (expected %s%s)"
                              % (name, f["arg_names"][i], decl[0], ", value" if decl[1] else "",
                                 kind, FORTRAN_TYPES[kind][0],
                                 ", value" if FORTRAN_TYPES[kind][1] else ""))
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


def main(argv):
    if len(argv) != 4 or argv[1] not in ("julia", "fortran"):
        print(__doc__)
        return 2
    language, header_path, binding_path = argv[1:]
    functions, header_constants = parse_header(header_path)
    if len(functions) < 10:
        print("only %d functions found in %s: the header parser is broken" %
              (len(functions), header_path))
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
    for e in errors:
        print("%s: %s" % (binding_path, e))
    if errors:
        print("%d problem(s) between %s and %s" % (len(errors), header_path, binding_path))
        return 1
    print("%s: %d functions and %d constants agree with %s" %
          (binding_path, len(functions), len(header_constants), header_path))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
