#!/usr/bin/env python3
"""Fails when a file of one layer includes a header of a layer above it.

usage: check_layers.py SRC_DIR INCLUDE_DIR LAYERS_TXT

LAYERS_TXT is written by src/CMakeLists.txt, one line a layer:
"name: lower layers it links". A private header "X/..." belongs to layer
X (the folder under src/); a public header include/odesens/H belongs to
the layer named for it in PUBLIC_HEADER_LAYER below. Every public header
must be listed there, so that a new one is placed deliberately.
"""
import pathlib
import re
import sys

PUBLIC_HEADER_LAYER = {
    "status.hpp": "core",
    "sparsity.hpp": "core",
    "version.hpp": "core",
    "model.hpp": "model",
    "model_capabilities.hpp": "model",
    "workspace.hpp": "model",
    "callback_model.hpp": "model",
    "builtin_models.hpp": "model",
    "expr_model.hpp": "expr",
    "record.hpp": "sources",
    "sbml_model.hpp": "sources",
    "model_loader.hpp": "sources",
    "options.hpp": "problem",
    "problem.hpp": "problem",
    "objective.hpp": "problem",
    "session.hpp": "methods",
    "result.hpp": "problem",
    "result_arrays.hpp": "problem",
    "observables.hpp": "problem",
    "integrand.hpp": "problem",
    "methods.hpp": "methods",
    "method_choice.hpp": "methods",
    "pbs.hpp": "methods",
    "ensemble.hpp": "ensemble",
    "steady_state.hpp": "estimate",
    "petab.hpp": "estimate",
    "fit.hpp": "fit",
    "profile.hpp": "fit",
    "odesens.hpp": "api",
}
# Parts of the tree above every library layer: they may include anything.
TOP = {"cli"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def main():
    src, include_dir, layers_txt = map(pathlib.Path, sys.argv[1:4])
    allowed = {}
    for line in layers_txt.read_text().splitlines():
        if ":" in line:
            name, deps = line.split(":", 1)
            allowed[name.strip()] = set(deps.replace(";", " ").split()) | {name.strip()}
    problems = []
    for header in sorted((include_dir / "odesens").glob("*.hpp")):
        if header.name not in PUBLIC_HEADER_LAYER:
            problems.append(f"{header}: public header not assigned to a layer in {__file__}")
    for path in sorted(src.rglob("*")):
        if path.suffix not in {".cpp", ".hpp", ".h", ".def"}:
            continue
        layer = path.relative_to(src).parts[0]
        if layer in TOP:
            continue
        if layer not in allowed:
            problems.append(f"{path}: folder '{layer}' is not a layer of src/CMakeLists.txt")
            continue
        for number, text in enumerate(path.read_text(errors="replace").splitlines(), 1):
            m = INCLUDE.match(text)
            if not m:
                continue
            target = m.group(1)
            if target.startswith("odesens/"):
                owner = PUBLIC_HEADER_LAYER.get(target[len("odesens/"):])
            elif "/" in target:
                owner = target.split("/", 1)[0]
            else:
                continue  # a header beside the file
            if owner is None or owner not in allowed[layer]:
                problems.append(f"{path}:{number}: layer '{layer}' includes \"{target}\" "
                                f"of layer '{owner}', which it does not depend on")
    for p in problems:
        print(p)
    print(f"checked layers: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
