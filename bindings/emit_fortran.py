"""The Fortran raw layer: module odesens_raw, one bind(C) interface per
function of odesens.h (same name, same arguments) and the header's
constants as parameters. The module odesens (capi/odesens.f90) uses it.
"""
import re

from odesens_header import KINDS, HeaderError

MODULE = "odesens_raw"
FILE_NAME = "odesens_raw.f90"
MAX_LINE = 100  # the project's width; Fortran allows 132
MAX_NAME = 63  # Fortran 2008

# kind -> (type, attributes, dimension)
_ARGS = {
    "int": ("integer(c_int)", "value", ""),
    "int64": ("integer(c_int64_t)", "value", ""),
    "double": ("real(c_double)", "value", ""),
    "handle": ("type(c_ptr)", "value", ""),
    "callback": ("type(c_funptr)", "value", ""),
    "string": ("character(kind=c_char)", "intent(in)", "(*)"),
    "string_or_null": ("character(kind=c_char)", "intent(in)", "(*)"),
    "double_array": ("real(c_double)", "intent(in)", "(*)"),
    "int64_array": ("integer(c_int64_t)", "intent(in)", "(*)"),
    # inout: a failed call leaves the caller's buffer as it was.
    "double_array_out": ("real(c_double)", "intent(inout)", "(*)"),
    "int64_array_out": ("integer(c_int64_t)", "intent(inout)", "(*)"),
    "double_out": ("real(c_double)", "intent(out)", ""),
    "int64_out": ("integer(c_int64_t)", "intent(out)", ""),
    "handle_out": ("type(c_ptr)", "intent(out)", ""),
    "string_out": ("type(c_ptr)", "intent(out)", ""),
    "string_array": ("type(c_ptr)", "intent(in)", "(*)"),  # c_loc of each string
    "double_view_out": ("type(c_ptr)", "intent(out)", ""),
}
_RETURNS = {"int": "integer(c_int)", "string": "type(c_ptr)"}
_CONSTANT_TYPES = {"int": "integer(c_int)", "int64": "integer(c_int64_t)", "integer": "integer"}
assert set(_ARGS) == set(KINDS), "every kind needs a Fortran declaration"

# The iso_c_binding names an interface may need to import, in import order.
_C_NAMES = ("c_int", "c_int64_t", "c_double", "c_char", "c_ptr", "c_funptr")


def _imports(declarations):
    text = " ".join(declarations)
    return [n for n in _C_NAMES if re.search(r"[(=]%s\)" % n, text)]


def _wrap(first, items, last, indent, cont_indent):
    """`first` + items joined by ", " + `last`, in lines of at most MAX_LINE
    continued with `&`; items are never split."""
    lines, line = [], indent + first
    for i, item in enumerate(items):
        piece = item + (", " if i + 1 < len(items) else "")
        if len(line + piece.rstrip()) + 2 > MAX_LINE and line != indent + first:
            lines.append(line.rstrip() + " &")
            line = cont_indent
        line += piece
    if len(line + last) > MAX_LINE:
        lines.append(line.rstrip() + " &")
        line = cont_indent + last.strip()
    else:
        line += last
    return lines + [line]


def _constant_names(header, function_names):
    """Fortran names of the constants: names ignore case, so a constant
    named like a function (ODESENS_ABI_VERSION) gets MODULE_ after ODESENS_."""
    names, taken = {}, {n.lower() for n in function_names}
    for c in header.constants:
        name = c.name
        if name.lower() in taken:
            name = name.replace("ODESENS_", "ODESENS_MODULE_", 1)
        if name.lower() in taken or name.lower() in {n.lower() for n in names.values()}:
            raise HeaderError("%s: no Fortran name for it that differs from every other "
                              "name of the module regardless of case" % c.name)
        names[c.name] = name
    return names


def _check_names(function):
    names = [function.name] + [p.name for p in function.params]
    lower = [n.lower() for n in names]
    for n in names:
        if len(n) > MAX_NAME:
            raise HeaderError("%s: the Fortran name %s is longer than %d characters"
                              % (function.name, n, MAX_NAME))
        if lower.count(n.lower()) > 1 or n.lower() in _C_NAMES:
            raise HeaderError("%s: the name %s clashes with another in Fortran (names "
                              "ignore case)" % (function.name, n))


def _interface(function):
    _check_names(function)
    what = "subroutine" if function.ret == "void" else "function"
    declarations = []
    for p in function.params:
        ftype, attribute, dimension = _ARGS[p.kind]
        declarations.append("%s, %s :: %s%s" % (ftype, attribute, p.name, dimension))
    if what == "function":
        declarations.append("%s :: %s" % (_RETURNS[function.ret], function.name))
    bind = 'bind(C, name="%s")' % function.name
    header = _wrap("%s %s(" % (what, function.name), [p.name for p in function.params],
                  ") " + bind, "    ", "        ")
    if len(header) > 1:  # bind(C) on a line of its own
        header = _wrap("%s %s(" % (what, function.name), [p.name for p in function.params],
                      ")", "    ", "        ")
        header[-1] += " &"
        header.append("        " + bind)
    imports = _imports(declarations)
    body = (["      import :: " + ", ".join(imports)] if imports else [])
    body += ["      " + d for d in declarations]
    return header + body + ["    end " + what]


def _constants(header, names):
    lines = []
    for group, constants in header.groups().items():
        lines.append("")
        lines.append("  ! " + ("#defines" if group == "#define" else "enum " + group))
        for c in constants:
            if names[c.name] != c.name:
                lines.append("  ! %s, renamed: Fortran names ignore case and %s is a "
                             "function" % (c.name, c.name.lower()))
            lines.append("  %s, parameter :: %s = %d"
                         % (_CONSTANT_TYPES[c.ctype], names[c.name], c.value))
    return lines


def emit(header, banner):
    """The text of odesens_raw.f90; `banner` is the generated-file notice."""
    names = _constant_names(header, [f.name for f in header.functions])
    lines = ["! " + b if b else "!" for b in banner]
    lines += ["!",
              "! %s: the C ABI of libodesens (odesens.h) as bind(C) interfaces, one per" % MODULE,
              "! function with the same name and arguments, and the header's constants.",
              "! Use the module odesens (odesens.f90), which uses this one and adds",
              "! conveniences; see docs/c-api.md.",
              "module " + MODULE,
              "  use, intrinsic :: iso_c_binding",
              "  implicit none"]
    lines += _constants(header, names)
    lines += ["", "  interface"]
    section = None
    for f in header.functions:
        if f.section != section and f.section:
            lines += ["    ! ---- %s ----" % f.section]
        section = f.section
        lines += _interface(f) + [""]
    lines[-1:] = ["  end interface", "", "end module " + MODULE]
    return "\n".join(lines) + "\n"
