#!/usr/bin/env python3
"""The binding generator (bindings/): it maps every argument kind of
odesens.h, refuses what it cannot map naming the function, and its --check
finds stale generated files; the independent check of tests/capi finds a
wrong raw binding."""
import io
import os
import shutil
import sys
import tempfile
import types
import unittest
from contextlib import redirect_stdout, redirect_stderr

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bindings"))
sys.path.insert(0, os.path.join(ROOT, "tests", "capi"))

import check_bindings  # noqa: E402
import emit_fortran  # noqa: E402
import emit_julia  # noqa: E402
import generate_bindings  # noqa: E402
from odesens_header import KINDS, HeaderError, parse_header  # noqa: E402

HEADER = os.path.join(ROOT, "capi", "odesens.h")
NO_FACTS = types.SimpleNamespace(ARRAY_OUTPUTS=set(), NULLABLE_STRINGS=set(), INT_ENUMS=set())
PRELUDE = """
#define ODESENS_API
typedef struct odesens_thing odesens_thing;
typedef int (*odesens_fn)(double t, void* user);
"""


class Scratch(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def header(self, declarations):
        path = os.path.join(self.dir, "h.h")
        with open(path, "w", encoding="utf-8") as f:
            f.write(PRELUDE + declarations)
        return path

    def refused(self, declarations, *words, facts=NO_FACTS):
        with self.assertRaises(HeaderError) as caught:
            parse_header(self.header(declarations), facts)
        for w in words:
            self.assertIn(w, str(caught.exception))


class TheHeader(unittest.TestCase):
    def test_every_function_has_a_kind_for_each_argument(self):
        header = parse_header(HEADER)
        self.assertGreater(len(header.functions), 80)
        for f in header.functions:
            for p in f.params:
                self.assertIn(p.kind, KINDS, "%s(%s)" % (f.name, p.name))

    def test_buffers_and_single_values_are_told_apart(self):
        header = parse_header(HEADER)
        kind = {(f.name, p.name): p.kind for f in header.functions for p in f.params}
        self.assertEqual(kind["odesens_result_times", "out"], "double_array_out")
        self.assertEqual(kind["odesens_result_bounds_exponents", "out"], "int64_array_out")
        self.assertEqual(kind["odesens_result_sizes", "nx"], "int64_out")
        self.assertEqual(kind["odesens_result_stat", "value"], "double_out")
        self.assertEqual(kind["odesens_solver_solve_ensemble", "statuses"], "int64_array_out")
        self.assertEqual(kind["odesens_model_from_sbml_file", "sens_params"], "string_or_null")
        self.assertEqual(kind["odesens_result_data", "data"], "double_view_out")
        self.assertEqual(kind["odesens_solver_set_integrand_observables", "names"],
                         "string_array")
        self.assertEqual(kind["odesens_petab_parameter_bounds", "lower"], "double_array_out")
        self.assertEqual(kind["odesens_petab_parameter_bounds", "nominal"], "double_array_out")
        self.assertEqual(kind["odesens_petab_evaluate", "nllh"], "double_out")
        self.assertEqual(kind["odesens_petab_evaluate", "fim"], "double_array_out")
        self.assertEqual(kind["odesens_petab_evaluate", "simulations"], "double_array_out")
        self.assertEqual(kind["odesens_petab_evaluate", "method"], "string_or_null")

    def test_constants_keep_their_c_types(self):
        constants = {c.name: c for c in parse_header(HEADER).constants}
        self.assertEqual((constants["ODESENS_ERR_INTERNAL"].value,
                          constants["ODESENS_ERR_INTERNAL"].ctype), (-99, "int"))
        self.assertEqual(constants["ODESENS_ARRAY_GRADIENT_X0"].ctype, "int64")
        self.assertEqual(constants["ODESENS_ABI_VERSION"].ctype, "integer")


class Refusals(Scratch):
    def test_a_type_without_kind(self):
        self.refused("ODESENS_API int odesens_scale(odesens_thing* t, float factor);",
                     "odesens_scale", "factor", "float")

    def test_a_parameter_without_name(self):
        self.refused("ODESENS_API int odesens_count(int64_t);", "odesens_count")
        self.refused("ODESENS_API int odesens_take(const odesens_thing);", "odesens_take")

    def test_an_inline_function_pointer(self):
        self.refused("ODESENS_API int odesens_on(odesens_thing* t, int (*f)(double));",
                     "odesens_on")

    def test_a_pointer_that_may_be_a_value_or_a_buffer(self):
        self.refused("ODESENS_API int odesens_get(odesens_thing* t, double* v, int64_t flags);",
                     "odesens_get", "'v'", "header_facts")

    def test_a_return_type_without_kind(self):
        self.refused("ODESENS_API int64_t odesens_size(odesens_thing* t);", "odesens_size")

    def test_a_declaration_the_parser_cannot_read(self):
        self.refused("ODESENS_API int odesens_broken;", "odesens_broken")

    def test_an_enum_value_that_is_not_a_literal(self):
        self.refused("typedef enum odesens_flag { ODESENS_A = 1 << 2 } odesens_flag;\n"
                     "ODESENS_API void odesens_x(void);", "odesens_flag", "ODESENS_A")

    def test_a_fact_about_a_parameter_the_header_lacks(self):
        facts = types.SimpleNamespace(ARRAY_OUTPUTS={("odesens_gone", "out")},
                                      NULLABLE_STRINGS=set(), INT_ENUMS=set())
        self.refused("ODESENS_API void odesens_x(void);", "odesens_gone", facts=facts)

    def test_fortran_names_that_differ_only_in_case(self):
        header = parse_header(self.header(
            "ODESENS_API int odesens_pair(int64_t n, int64_t N);"), NO_FACTS)
        with self.assertRaises(HeaderError) as caught:
            emit_fortran.emit(header, ["banner"])
        self.assertIn("odesens_pair", str(caught.exception))


class Emitters(Scratch):
    def test_each_kind_is_declared_as_its_language_passes_it(self):
        header = parse_header(self.header(
            "typedef enum odesens_mode { ODESENS_MODE_A = 0, ODESENS_MODE_B = -3 } odesens_mode;\n"
            "#define ODESENS_ABI_VERSION 4\n"
            "ODESENS_API int odesens_abi_version(void);\n"
            "ODESENS_API int odesens_fill(const odesens_thing* t, int64_t k, double* out,\n"
            "                             int64_t len, const char** name, odesens_fn f);\n"),
            NO_FACTS)
        fortran = emit_fortran.emit(header, ["banner"])
        for line in ['function odesens_fill(t, k, out, len, name, f) bind(C, name="odesens_fill")',
                     "type(c_ptr), value :: t", "integer(c_int64_t), value :: k",
                     "real(c_double), intent(inout) :: out(*)",
                     "type(c_ptr), intent(out) :: name", "type(c_funptr), value :: f",
                     "integer(c_int64_t), parameter :: ODESENS_MODE_B = -3",
                     "integer, parameter :: ODESENS_MODULE_ABI_VERSION = 4"]:
            self.assertIn(line, fortran)
        julia = emit_julia.emit(header, ["banner"])
        self.assertIn("(Ptr{Cvoid}, Int64, Ptr{Cdouble}, Int64, Ref{Ptr{UInt8}}, Ptr{Cvoid})",
                      julia)
        self.assertIn("const ODESENS_MODE_B = Int64(-3)", julia)
        self.assertIn("const ODESENS_ABI_VERSION = 4", julia)

    def test_a_long_julia_wrapper_is_wrapped_and_read_back(self):
        header = parse_header(HEADER)
        evaluate = next(f for f in header.functions if f.name == "odesens_petab_evaluate")
        lines = emit_julia._wrapper(evaluate)
        self.assertGreater(len(lines), 4)
        path = os.path.join(tempfile.mkdtemp(), "raw.jl")
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(lines) + "\n")
            wrappers, _ = check_bindings.parse_julia(path)
        finally:
            shutil.rmtree(os.path.dirname(path))
        w = wrappers["odesens_petab_evaluate"]
        self.assertEqual(w["target"], "odesens_petab_evaluate")
        self.assertEqual(w["params"], len(evaluate.params))
        self.assertEqual(w["passed"], len(evaluate.params))
        self.assertEqual(len(w["types"]), len(evaluate.params))

    def test_lines_fit_in_100_columns(self):
        for text in generate_bindings.generate(HEADER).values():
            for line in text.splitlines():
                self.assertLessEqual(len(line), 100, line)


class StaleCheck(Scratch):
    def run_main(self, *args):
        out = io.StringIO()
        with redirect_stdout(out), redirect_stderr(out):
            status = generate_bindings.main(list(args))
        return status, out.getvalue()

    def test_fresh_files_pass_and_an_edited_or_missing_one_fails(self):
        self.assertEqual(self.run_main("--out-dir", self.dir)[0], 0)
        self.assertEqual(self.run_main("--out-dir", self.dir, "--check")[0], 0)
        path = os.path.join(self.dir, emit_julia.FILE_NAME)
        with open(path, "a", encoding="utf-8") as f:
            f.write("# edited by hand\n")
        status, out = self.run_main("--out-dir", self.dir, "--check")
        self.assertEqual(status, 1)
        self.assertIn("stale", out)
        self.assertIn("+# edited by hand", out.replace("-# edited", "+# edited"))
        self.assertIn(generate_bindings.COMMAND, out)
        os.remove(os.path.join(self.dir, emit_fortran.FILE_NAME))
        status, out = self.run_main("--out-dir", self.dir, "--check")
        self.assertEqual(status, 1)
        self.assertIn("missing", out)

    def test_an_unmappable_header_writes_nothing(self):
        header = self.header("ODESENS_API int odesens_scale(float factor);")
        status, out = self.run_main("--header", header, "--out-dir", self.dir)
        self.assertEqual(status, 1)
        self.assertIn("h.h:%d: odesens_scale" % (PRELUDE.count("\n") + 1), out)
        self.assertEqual(os.listdir(self.dir), ["h.h"])


class IndependentCheck(Scratch):
    """tests/capi/check_bindings.py, the second reader of the raw layers."""

    def check(self, language, raw_text, layer_text=None):
        raw = os.path.join(self.dir, "odesens_raw." + ("jl" if language == "julia" else "f90"))
        with open(raw, "w", encoding="utf-8") as f:
            f.write(raw_text)
        argv = ["check_bindings.py", language, HEADER, raw]
        if layer_text is not None:
            argv.append(os.path.join(self.dir, "layer"))
            with open(argv[-1], "w", encoding="utf-8") as f:
                f.write(layer_text)
        out = io.StringIO()
        with redirect_stdout(out):
            status = check_bindings.main(argv)
        return status, out.getvalue()

    def test_generated_layers_pass(self):
        files = generate_bindings.generate(HEADER)
        self.assertEqual(self.check("julia", files[emit_julia.FILE_NAME])[0], 0)
        self.assertEqual(self.check("fortran", files[emit_fortran.FILE_NAME])[0], 0)

    def test_a_wrong_type_is_found(self):
        files = generate_bindings.generate(HEADER)
        julia = files[emit_julia.FILE_NAME].replace(
            "(Ptr{Cvoid}, Ref{Int64}, Ref{Int64}), model, nx, np)",
            "(Ptr{Cvoid}, Ref{Cdouble}, Ref{Int64}), model, nx, np)")
        status, out = self.check("julia", julia)
        self.assertEqual(status, 1)
        self.assertIn("odesens_model_sizes: argument 2", out)
        fortran = files[emit_fortran.FILE_NAME].replace(
            "real(c_double), intent(inout) :: out(*)", "real(c_double), intent(out) :: out", 1)
        status, out = self.check("fortran", fortran)
        self.assertEqual(status, 1)
        self.assertIn("argument out", out)

    def test_a_module_that_calls_the_library_itself_is_found(self):
        files = generate_bindings.generate(HEADER)
        layer = ('include(joinpath("generated", "odesens_raw.jl"))\n'
                 "f() = ccall((:odesens_version, libodesens), Cstring, ())\n")
        status, out = self.check("julia", files[emit_julia.FILE_NAME], layer)
        self.assertEqual(status, 1)
        self.assertIn("calls odesens_version itself", out)
        status, out = self.check("fortran", files[emit_fortran.FILE_NAME],
                                 "module odesens\ncontains\nend module odesens\n")
        self.assertEqual(status, 1)
        self.assertIn("does not use the module odesens_raw", out)


if __name__ == "__main__":
    unittest.main()
