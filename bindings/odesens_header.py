"""Reads odesens.h into functions, argument kinds and constants.

Every binding of the C ABI (the generated raw layers, and the check of
them in tests/capi/check_bindings.py) starts from this one reading of the
header. A C type is reduced to a kind that says how the argument crosses
the boundary (KINDS below); a declaration whose types have no kind is an
error naming the function, never a guess.
"""
import re
from dataclasses import dataclass

import header_facts

# How an argument crosses the boundary. Every emitter maps every kind.
KINDS = {
    "int": "int, by value",
    "int64": "int64_t, by value",
    "double": "double, by value",
    "handle": "a handle or void*, by value (NULL allowed where the header says so)",
    "callback": "a function pointer (one of the header's callback typedefs), by value",
    "string": "const char*: a NUL-terminated string read by the call",
    "string_or_null": "const char* that may also be NULL (header_facts.NULLABLE_STRINGS)",
    "double_array": "const double*: values read by the call",
    "int64_array": "const int64_t*: values read by the call",
    "double_array_out": "double*: a caller's buffer the call writes",
    "int64_array_out": "int64_t*: a caller's buffer the call writes",
    "double_out": "double*: one value written by the call",
    "int64_out": "int64_t*: one value written by the call",
    "handle_out": "handle**: a new handle written by the call",
    "string_out": "const char**: a string owned by the library, written by the call",
    "string_array": "const char* const*: strings read by the call",
    "double_view_out": "const double**: a view of doubles owned by the library, written",
}
# What a function returns.
RETURN_KINDS = {
    "int": "int: a status (odesens_status) or a number",
    "void": "nothing",
    "string": "const char*: a string owned by the library",
}

# C spellings (tokens, with handle and callback typedefs replaced by HANDLE
# and CALLBACK) and their kinds. Non-const double* and int64_t* are "out"
# here and become arrays or single values by their neighbours.
_PARAM_SPELLINGS = {
    "int": "int",
    "int64_t": "int64",
    "double": "double",
    "CALLBACK": "callback",
    "HANDLE *": "handle",
    "const HANDLE *": "handle",
    "void *": "handle",
    "const void *": "handle",
    "const char *": "string",
    "const double *": "double_array",
    "const int64_t *": "int64_array",
    "double *": "double_out",
    "int64_t *": "int64_out",
    "HANDLE * *": "handle_out",
    "const char * *": "string_out",
    "const char * const *": "string_array",
    "const double * *": "double_view_out",
}
_RETURN_SPELLINGS = {"int": "int", "void": "void", "const char *": "string"}
_BUFFER_LENGTH_NAMES = {"len", "n"}
_C_TYPE_WORDS = {"const", "void", "char", "int", "int64_t", "double", "float", "long",
                 "short", "unsigned", "signed", "size_t", "bool"}


class HeaderError(Exception):
    """A declaration of odesens.h that no binding can map; `line` is its
    line in the header when known."""

    def __init__(self, message, line=None):
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class Param:
    name: str
    ctype: str  # as written in the header
    kind: str


@dataclass(frozen=True)
class Function:
    name: str
    ret: str  # a RETURN_KINDS key
    params: tuple
    section: str  # the header's "---- section ----" it is declared in
    line: int


@dataclass(frozen=True)
class Constant:
    name: str
    value: int
    group: str  # the enum's type name, or "#define"
    ctype: str  # "int" or "int64" (enums), "integer" (#defines)


@dataclass(frozen=True)
class Header:
    path: str
    functions: tuple
    constants: tuple

    def groups(self):
        """The constants by group, in the header's order."""
        out = {}
        for c in self.constants:
            out.setdefault(c.group, []).append(c)
        return out


def _blank_comments(text):
    """The text with comments replaced by spaces, so offsets and lines stay."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r"/\*.*?\*/|//[^\n]*", blank, text, flags=re.S)


def _line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def _spelling(ctype, handles, callbacks):
    tokens = ctype.replace("*", " * ").split()
    return " ".join("HANDLE" if t in handles else "CALLBACK" if t in callbacks else t
                    for t in tokens)


def _split_param(function, text, type_names):
    """(C type, name) of one parameter as written."""
    m = re.fullmatch(r"(.*?[\w*])\s*\b([A-Za-z_]\w*)", text)
    if not m or "[" in text or "(" in text or m.group(2) in type_names:
        raise HeaderError("%s: parameter '%s' is not `type name` (a name, and a type "
                          "without arrays or inline function pointers)" % (function, text))
    return m.group(1).strip(), m.group(2)


def _param_kinds(function, raw_params, handles, callbacks, facts):
    """Params of one function, with out pointers resolved to arrays or values."""
    typed = []
    for text in raw_params:
        ctype, name = _split_param(function, text, _C_TYPE_WORDS | handles | callbacks)
        kind = _PARAM_SPELLINGS.get(_spelling(ctype, handles, callbacks))
        if kind is None:
            raise HeaderError("%s: parameter '%s' has the C type '%s', which no binding maps "
                              "(see KINDS in bindings/odesens_header.py)" % (function, name, ctype))
        if kind == "string" and (function, name) in facts.NULLABLE_STRINGS:
            kind = "string_or_null"
        typed.append([ctype, name, kind])
    for i, (ctype, name, kind) in enumerate(typed):
        if kind not in ("double_out", "int64_out"):
            continue
        after = typed[i + 1] if i + 1 < len(typed) else None
        if (function, name) in facts.ARRAY_OUTPUTS or \
                (after and after[2] == "int64" and after[1] in _BUFFER_LENGTH_NAMES):
            typed[i][2] = kind.replace("_out", "_array_out")
        elif after and after[2] == "int64":
            raise HeaderError(
                "%s: cannot tell whether '%s' is one value or a buffer: a buffer's length "
                "follows it as `int64_t len` (or `n`); otherwise list it in "
                "bindings/header_facts.py" % (function, name))
    return tuple(Param(name, ctype, kind) for ctype, name, kind in typed)


def _sections(raw):
    """(offset, title) of each `/* ---- title ---- */` of the header."""
    return [(m.start(), m.group(1))
            for m in re.finditer(r"/\*\s*-{2,}\s*(.*?)\s*-{2,}\s*\*/", raw)]


def _functions(raw, text, handles, callbacks, facts):
    sections = _sections(raw)
    declaration = re.compile(r"ODESENS_API\s+([^;(]*?)\s*\b(odesens_\w+)\s*\(([^;]*?)\)\s*;")
    functions = []
    for use in re.finditer(r"\bODESENS_API\b", text):
        line_start = text.rfind("\n", 0, use.start()) + 1
        if text[line_start:use.start()].strip().startswith("#"):
            continue  # the macro's own definition
        m = declaration.match(text, use.start())
        line = _line_of(text, use.start())
        if not m:
            snippet = " ".join(text[use.start():use.start() + 120].split())
            raise HeaderError("a declaration that is not `ODESENS_API type "
                              "odesens_name(params);`: %s" % snippet, line)
        ret, name, params = m.group(1), m.group(2), " ".join(m.group(3).split())
        ret_kind = _RETURN_SPELLINGS.get(_spelling(ret, handles, callbacks))
        if ret_kind is None:
            raise HeaderError("%s: returns '%s', which no binding maps" % (name, ret), line)
        raw_params = [] if params in ("", "void") else [p.strip() for p in params.split(",")]
        try:
            kinds = _param_kinds(name, raw_params, handles, callbacks, facts)
        except HeaderError as e:
            raise HeaderError(str(e), line) from None
        section = next((t for at, t in reversed(sections) if at < use.start()), "")
        functions.append(Function(name, ret_kind, kinds, section, line))
    return functions


def _enum_constants(text, facts):
    constants = []
    pattern = r"typedef\s+enum\s+\w*\s*\{(.*?)\}\s*(\w+)\s*;"
    for body, enum in re.findall(pattern, text, flags=re.S):
        ctype = "int" if enum in facts.INT_ENUMS else "int64"
        for entry in (e.strip() for e in body.split(",")):
            if not entry:
                continue
            m = re.fullmatch(r"(ODESENS_\w+)\s*=\s*(-?\d+)", entry)
            if not m:
                raise HeaderError("enum %s: '%s' is not `ODESENS_NAME = integer`"
                                  % (enum, " ".join(entry.split())))
            constants.append(Constant(m.group(1), int(m.group(2)), enum, ctype))
    return constants


def _define_constants(text):
    return [Constant(name, int(value), "#define", "integer")
            for name, value in re.findall(r"^[ \t]*#[ \t]*define[ \t]+(ODESENS_\w+)[ \t]+"
                                          r"(-?\d+)[ \t]*$", text, flags=re.M)]


def _check_facts(functions, facts):
    """Every fact names a parameter the header declares."""
    declared = {(f.name, p.name) for f in functions for p in f.params}
    for fact in sorted(facts.ARRAY_OUTPUTS | facts.NULLABLE_STRINGS):
        if fact not in declared:
            raise HeaderError("%s: bindings/header_facts.py names its parameter '%s', which "
                              "odesens.h does not declare" % fact)


def _check_unique(functions, constants):
    seen = set()
    for name in [f.name for f in functions] + [c.name for c in constants]:
        if name in seen:
            raise HeaderError("%s: declared twice" % name)
        seen.add(name)


def parse_header(path, facts=header_facts):
    """The Header of the file at `path`; HeaderError if it cannot be mapped.
    `facts`: what the types do not say (header_facts.py; tests give others)."""
    with open(path, encoding="utf-8") as f:
        raw = f.read()
    text = _blank_comments(raw)
    callbacks = set(re.findall(r"typedef\s+[\w\s*]+?\(\s*\*\s*(\w+)\s*\)", text))
    handles = set(re.findall(r"typedef\s+struct\s+\w+\s+(\w+)\s*;", text))
    functions = _functions(raw, text, handles, callbacks, facts)
    constants = _define_constants(text) + _enum_constants(text, facts)
    _check_facts(functions, facts)
    _check_unique(functions, constants)
    if not functions:
        raise HeaderError("%s declares no ODESENS_API function" % path)
    return Header(path, tuple(functions), tuple(constants))
