#!/usr/bin/env python3
"""The hostile-input suite: runs the odesens tool and the C ABI program
hostile_capi on inputs meant to break them, one case at a time, each in a
process of its own with a time and a memory limit, and checks that each
ends the way its table row says: an exit status and a fragment of the
message on standard error, and never a crash, a sanitizer report, a hang
or a memory blow-up.

The cases are data: tests/hostile/cases_cli.py (command lines),
cases_ode.py (.ode texts), cases_sbml.py (SBML texts), each a list of
Case rows (hostile_case.py), and the table at the end of hostile_capi.c
(C ABI call sequences, one C function per case, which checks statuses and
odesens_errmsg itself and exits 0 when all its checks hold).

To add a case: a row in the table of its kind (see hostile_case.Case for
the fields; an input can be built by a recipe such as repeat("x+", 10000)),
or a C function and its row in the table of hostile_capi.c. CMake reads
the case names when it configures, and configures again when a table
changes; each case is then the ctest test hostile.KIND.NAME.

A case marked `pending` (with the reason) describes behaviour that is
being changed elsewhere: its expectation is what the behaviour should be
after the change. Until then a mismatch, a crash included, is reported as
a skip (exit status 77) with the details instead of a failure; a pending
case that passes says so, so that the flag can be removed.

  run_hostile.py --list
  run_hostile.py --tool ODESENS --capi HOSTILE_CAPI [--sanitized] CASE...
  run_hostile.py --tool ODESENS --capi HOSTILE_CAPI [--sanitized] --all [-j N]

--sanitized: the programs are built with AddressSanitizer, which reserves
terabytes of address space, so the memory limit is enforced by watching
the resident set instead of with RLIMIT_AS. Exit status for one case: 0
passed, 77 skipped (pending), 1 failed.
"""
import argparse
import importlib
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from hostile_case import Case  # noqa: E402

# The tables by the prefix of their case names, imported only when a case
# of theirs runs: ctest starts the runner once per case (about 800 times in
# CI), and the .ode and SBML tables build their large inputs on import.
TABLES = {"cli": "cases_cli", "ode": "cases_ode", "sbml": "cases_sbml"}

REPO = os.path.dirname(os.path.dirname(HERE))
SHARED = os.environ.get("ODESENS_SHARED_DIR", os.path.join(os.path.dirname(REPO), "shared"))
TIME_LIMIT = 20.0  # seconds per case
MEMORY_LIMIT = 4 << 30  # bytes per case
SKIP = 77

SANITIZER_REPORTS = re.compile(
    r"ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|ThreadSanitizer)"
    r"|runtime error: |^SUMMARY: \w+Sanitizer",
    re.MULTILINE)


def capi_cases():
    """The rows {"name", function, pending} of the table in hostile_capi.c."""
    with open(os.path.join(HERE, "hostile_capi.c"), encoding="utf-8") as f:
        source = f.read()
    reasons = dict(re.findall(r'^#define (\w+) "([^"]*)"$', source, re.MULTILINE))
    table = source[source.index("static const struct hostile_case cases[]"):]
    rows = re.findall(r'\{\s*"(\w+)",\s*\w+,\s*(NULL|\w+|"[^"]*")\s*\}', table)
    cases = []
    for name, pending in rows:
        if pending == "NULL":
            pending = None
        elif pending.startswith('"'):
            pending = pending[1:-1]
        else:
            pending = reasons.get(pending, pending)
        cases.append(Case("capi." + name, args=["{capi}", name], status=0, stderr=[],
                          pending=pending))
    return cases


def table_cases(prefix):
    """The cases of one table, named PREFIX.NAME."""
    if prefix == "capi":
        return capi_cases()
    module = importlib.import_module(TABLES[prefix])
    return [case.renamed(prefix + "." + case.name) for case in module.CASES]


def all_cases():
    cases = []
    for prefix in list(TABLES) + ["capi"]:
        cases += table_cases(prefix)
    names = [c.name for c in cases]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise SystemExit("duplicate case names: " + ", ".join(duplicates))
    return cases


def resident_bytes(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


class Outcome:
    def __init__(self, time_limit, memory_limit):
        self.time_limit = time_limit
        self.memory_limit = memory_limit
        self.status = None
        self.timed_out = False
        self.memory = 0  # resident bytes when killed for memory, else 0
        self.stdout = b""
        self.stderr = b""


def child_environment():
    """The environment, with the suppressions of leaks inside libraries
    (tests/lsan.supp) added to LSAN_OPTIONS."""
    env = dict(os.environ)
    suppressions = "suppressions=" + os.path.join(REPO, "tests", "lsan.supp")
    env["LSAN_OPTIONS"] = ":".join(filter(None, [env.get("LSAN_OPTIONS"), suppressions]))
    return env


def run_process(argv, cwd, sanitized, time_limit=TIME_LIMIT, memory_limit=MEMORY_LIMIT,
                file_limit=None):
    """Runs argv with the limits (file_limit: RLIMIT_FSIZE, if given);
    returns an Outcome."""
    out = Outcome(time_limit, memory_limit)

    def limit_memory():
        if not sanitized:
            resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if file_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))

    with open(os.path.join(cwd, ".stdout"), "wb+") as so, \
            open(os.path.join(cwd, ".stderr"), "wb+") as se:
        proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=so, stderr=se,
                                start_new_session=True, preexec_fn=limit_memory,
                                env=child_environment())
        done = threading.Event()

        def kill():
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        # RSS watchdog: the only memory limit under ASan, a second one otherwise.
        def watch():
            while not done.wait(0.02):
                rss = resident_bytes(proc.pid)
                if rss > memory_limit:
                    out.memory = rss
                    kill()
                    return

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        try:
            proc.wait(timeout=time_limit)
        except subprocess.TimeoutExpired:
            out.timed_out = True
            kill()
            proc.wait()
        done.set()
        watcher.join()
        out.status = proc.returncode
        so.seek(0)
        se.seek(0)
        out.stdout = so.read()
        out.stderr = se.read()
    return out


# Messages are bounded (odesens::Error keeps 4 KB of one): an id of
# megabytes in a file made a message of megabytes.
MOST_STDERR_BYTES = 16 * 1024


def problems_of(case, out, values):
    """What is wrong with the outcome of `case`, as a list of sentences."""
    text = out.stderr.decode("utf-8", "replace")
    if out.timed_out:
        return [f"did not finish within {out.time_limit:g} s"]
    if out.memory:
        return [f"killed at {out.memory >> 20} MB resident (limit {out.memory_limit >> 20} MB)"]
    problems = []
    if out.status < 0:
        problems.append(f"killed by signal {-out.status} ({signal.Signals(-out.status).name})")
    if SANITIZER_REPORTS.search(text):
        problems.append("sanitizer report on stderr")
    if len(out.stderr) > MOST_STDERR_BYTES:
        problems.append(f"stderr of {len(out.stderr)} bytes: a message echoes its input")
    if out.status >= 0 and out.status != case.status:
        problems.append(f"exit status {out.status}, expected {case.status}")
    for fragment in case.stderr_fragments():
        fragment = substitute(fragment, values)
        if fragment not in text:
            problems.append(f"stderr lacks {fragment!r}")
    if case.stdout is not None and case.stdout not in out.stdout.decode("utf-8", "replace"):
        problems.append(f"stdout lacks {case.stdout!r}")
    return problems


def substitute(arg, values):
    """{input}, {tmp}, {shared}, {repo}, {capi} in an argument (nothing
    else: arguments may hold braces of their own)."""
    if isinstance(arg, bytes):
        return arg
    for key, value in values.items():
        arg = arg.replace("{" + key + "}", value)
    return arg


def run_case(case, tool, capi, sanitized):
    """Returns (exit code for the case, report text)."""
    work = tempfile.mkdtemp(prefix="odesens_hostile_")
    try:
        values = {"tool": tool, "capi": capi, "tmp": work, "shared": SHARED, "repo": REPO,
                  "input": os.path.join(work, case.input_name)}
        if case.input is not None:
            with open(values["input"], "wb") as f:
                f.write(case.input_bytes())
        argv = [substitute(a, values) for a in case.args]
        if not case.args or argv[0] != capi:
            argv.insert(0, tool)
        started = time.monotonic()
        out = run_process(argv, work, sanitized, file_limit=case.file_limit)
        seconds = time.monotonic() - started
        problems = problems_of(case, out, values)
        shown = " ".join(a if len(a) < 120 else a[:100] + "..."
                         for a in map(os.fsdecode, argv[1:]))
        head = f"{case.name}: {shown} -> status {out.status} in {seconds:.2f} s"
        err = out.stderr.decode("utf-8", "replace")
        err_tail = err if len(err) < 4000 else "...\n" + err[-4000:]
        if not problems:
            if case.pending:
                return 0, (head + "\npassed; pending (" + case.pending +
                           ") no longer needed: remove the flag")
            return 0, head + "\npassed"
        report = head + "\n  " + "\n  ".join(problems) + "\nstderr:\n" + err_tail
        if case.pending:
            return SKIP, "SKIPPED, pending: " + case.pending + "\n" + report
        return 1, "FAILED\n" + report
    finally:
        shutil.rmtree(work, ignore_errors=True)


def self_test():
    """The runner catches what it is there to catch: a hang, a memory
    blow-up (with RLIMIT_AS and with the RSS watchdog alone), a signal, a
    sanitizer report, a wrong status and a missing message. The programs
    are this Python interpreter; the limits are small. The memory checks
    get 10 s rather than 1: writing 600 MB takes a while on a loaded
    machine, and they must be caught by the memory limit, not the clock."""
    python = sys.executable
    checks = [
        ("hang", "import time; time.sleep(30)", False, "did not finish within 1 s", 1.0),
        ("address space", "b = b'x' * (600 << 20)", False, "exit status 1, expected 0", 10.0),
        ("resident set", "import time; b = b'x' * (600 << 20); time.sleep(30)", True,
         "MB resident (limit 256 MB)", 10.0),
        ("signal", "import os; os.abort()", False, "killed by signal 6 (SIGABRT)", 1.0),
        ("sanitizer", "import sys; sys.stderr.write('==1==ERROR: AddressSanitizer: x')", False,
         "sanitizer report on stderr", 1.0),
        ("status", "import sys; sys.exit(3)", False, "exit status 3, expected 0", 1.0),
    ]
    failures = 0
    work = tempfile.mkdtemp(prefix="odesens_hostile_self_test_")
    try:
        for what, code, sanitized, expected, time_limit in checks:
            case = Case("self_test." + what, [], 0, ["never printed"] if what == "status" else [])
            out = run_process([python, "-S", "-c", code], work, sanitized, time_limit=time_limit,
                              memory_limit=256 << 20)
            problems = problems_of(case, out, {})
            if not any(expected in p for p in problems):
                failures += 1
                print(f"self-test {what}: expected a problem with {expected!r}, got {problems}")
            else:
                print(f"self-test {what}: caught ({'; '.join(problems)})")
        ok = run_process([python, "-S", "-c", "import sys; sys.stderr.write('fine')"], work, False)
        if problems_of(Case("self_test.ok", [], 0, "fine"), ok, {}):
            failures += 1
            print("self-test ok: a good run was reported as a problem")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{len(checks) + 1 - failures} passed, {failures} failed")
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--list", action="store_true", help="print the case names")
    parser.add_argument("--tool", help="the odesens program")
    parser.add_argument("--capi", help="the hostile_capi program")
    parser.add_argument("--sanitized", action="store_true",
                        help="programs built with AddressSanitizer: watch RSS, no RLIMIT_AS")
    parser.add_argument("--all", action="store_true", help="run every case, print a summary")
    parser.add_argument("-j", type=int, default=2, help="cases at once with --all")
    parser.add_argument("--check-capi-table", action="store_true",
                        help="check that the rows read from hostile_capi.c are the cases "
                             "`hostile_capi --list` prints")
    parser.add_argument("--self-test", action="store_true",
                        help="check that the runner catches hangs, memory blow-ups, signals, "
                             "sanitizer reports and wrong statuses")
    parser.add_argument("cases", nargs="*")
    a = parser.parse_args()
    if a.self_test:
        return self_test()
    # One named case (how ctest runs them) needs only its own table.
    prefixes = {name.split(".", 1)[0] for name in a.cases}
    if a.list or a.all or a.check_capi_table or not prefixes <= set(TABLES) | {"capi"}:
        cases = all_cases()
    else:
        cases = [c for prefix in sorted(prefixes) for c in table_cases(prefix)]
    if a.list:
        print("\n".join(c.name for c in cases))
        return 0
    if a.check_capi_table:
        listed = subprocess.run([a.capi, "--list"], capture_output=True, text=True,
                                check=True).stdout.split()
        read = [c.name[len("capi."):] for c in capi_cases()]
        if listed != read:
            print("hostile_capi.c: rows not read from the table (keep each row on one line "
                  "of the shape {\"name\", function, NULL, \"reason\" or MACRO}):",
                  sorted(set(listed) ^ set(read)))
            return 1
        print(f"{len(read)} C ABI cases, all read from the table")
        return 0
    if not a.tool or not a.capi:
        parser.error("--tool and --capi are required to run cases")
    by_name = {c.name: c for c in cases}
    chosen = cases if a.all else []
    for name in a.cases:
        if name not in by_name:
            parser.error(f"no case named {name!r}")
        chosen.append(by_name[name])
    if not chosen:
        parser.error("no case given")
    tool, capi = os.path.abspath(a.tool), os.path.abspath(a.capi)
    if len(chosen) == 1:
        code, report = run_case(chosen[0], tool, capi, a.sanitized)
        print(report)
        return code
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=max(1, a.j)) as pool:
        results = list(pool.map(lambda c: run_case(c, tool, capi, a.sanitized), chosen))
    counts = {0: 0, SKIP: 0, 1: 0}
    for code, report in results:
        counts[code] += 1
        if code != 0 or "no longer needed" in report:
            print(report + "\n")
    print(f"{counts[0]} passed, {counts[1]} failed, {counts[SKIP]} skipped")
    return 1 if counts[1] else 0


if __name__ == "__main__":
    sys.exit(main())
