#!/usr/bin/env python3
"""Every semantic case of a full SBML Test Suite checkout through `odesens run`.

../shared/sbml-test-suite holds a selection (its README); the tests run it
with cvodes_fsa. This sweep takes the suite's whole cases/semantic folder
(any checkout of https://github.com/sbmlteam/sbml-test-suite) and runs each
case with each method given, judging the observed variables by the case's own
pass rule (|got - expected| <= absolute + relative |expected|). A case ends
as pass, WRONG (a value beyond the rule), refused (an error: a construct
odesens does not support, named in the message), timeout, CRASH (a signal),
or nosettings (not a time course). `-warned` marks a run that printed a
warning. Cases tagged RandomEventExecution have no single right answer
(events of equal priority fire in random order; odesens fires them in
declaration order) and are counted apart.

  /usr/bin/python3 benchmarks/sbml_suite_sweep.py --suite SUITE/cases/semantic \
      --methods cvodes_fsa,odesd --rtol 1e-8 [--out results.tsv]
"""
import argparse
import csv
import math
import os
import subprocess


def settings_of(path):
    out = {}
    for line in open(path):
        if ':' in line:
            key, value = line.split(':', 1)
            out[key.strip()] = value.strip()
    return out


def names(text):
    return [v.strip() for v in text.split(',') if v.strip()]


def model_file(folder, case):
    # A full checkout names each level's file; ../shared/sbml-test-suite one.
    for name in [f'{case}-sbml-{v}.xml' for v in ('l3v2', 'l3v1', 'l2v5', 'l2v4')] + [
            f'{case}-sbml.xml']:
        path = os.path.join(folder, name)
        if os.path.exists(path):
            return path
    return None


def number(cell):
    cell = cell.strip()
    return float(cell.replace('INF', 'inf')) if cell else math.nan


def first_difference(case_dir, case, settings, variables, text):
    """The first value beyond the case's pass rule, or ''."""
    rows = list(csv.reader(open(os.path.join(case_dir, f'{case}-results.csv'))))
    header = [h.strip() for h in rows[0]]
    expected = [[number(c) for c in r] for r in rows[1:] if r]
    ours = list(csv.reader(text.split('\n\n')[0].splitlines()))
    got = [[number(c) for c in r] for r in ours[1:] if r]
    absolute, relative = float(settings.get('absolute', 0)), float(settings.get('relative', 0))
    first_observed = len(ours[0]) - len(variables)
    for n, name in enumerate(variables):
        column = header.index(name, 1)
        for want_row, got_row in zip(expected, got):
            want, value = want_row[column], got_row[first_observed + n]
            if math.isnan(want) and math.isnan(value):
                continue
            if math.isinf(want) and value == want:
                continue
            if abs(value - want) <= absolute + relative * abs(want):
                continue
            return f'{name} at t = {want_row[0]}: expected {want}, got {value}'
    return ''


def run_case(odesens, suite, case, method, rtol, seconds):
    folder = os.path.join(suite, case)
    model = model_file(folder, case)
    settings = settings_of(os.path.join(folder, f'{case}-settings.txt'))
    try:
        start, duration = float(settings['start']), float(settings['duration'])
        steps = int(settings['steps'])
    except (KeyError, ValueError):
        return 'nosettings', ''
    if model is None:
        return 'nosettings', ''
    variables = names(settings.get('variables', ''))
    amount = names(settings.get('amount', ''))
    concentration = names(settings.get('concentration', ''))
    observe = [v + (':amount' if v in amount else ':concentration' if v in concentration else '')
               for v in variables]
    command = [odesens, 'run', model, '--method', method, '--rtol', rtol, '--atol', '1e-14',
               '--tout', f'{start}:{start + duration}:{steps + 1}', '--format', 'csv',
               '--max-steps', '1000000']
    for _ in range(len(observe) + 1):
        try:
            p = subprocess.run(command + (['--observe', ','.join(observe)] if observe else []),
                               capture_output=True, text=True, timeout=seconds)
        except subprocess.TimeoutExpired:
            return 'timeout', ''
        # The settings list compartments among the amounts too (case 00105):
        # observed as they are.
        plain = [o for o in observe
                 if f"observable '{o}'" in p.stderr and 'only species' in p.stderr]
        if p.returncode == 0 or not plain:
            break
        observe = [o.split(':')[0] if o in plain else o for o in observe]
    if p.returncode < 0 or p.returncode > 128:
        return 'CRASH', p.stderr[-200:]
    if p.returncode != 0:
        return 'refused', (p.stderr.strip().splitlines() or [''])[-1]
    difference = first_difference(folder, case, settings, variables, p.stdout)
    warned = any(line.startswith('odesens: warning') for line in p.stderr.splitlines())
    return ('WRONG' if difference else 'pass') + ('-warned' if warned else ''), difference


def random_order(suite, case):
    # The tag, not the word: case 01000's description says it does not test
    # RandomEventExecution.
    path = os.path.join(suite, case, f'{case}-model.m')
    if not os.path.exists(path):
        return False
    tags = [line for line in open(path) if line.strip().startswith('testTags:')]
    return any('RandomEventExecution' in line for line in tags)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--suite', required=True, help='the suite\'s cases/semantic folder')
    parser.add_argument('--methods', default='cvodes_fsa')
    parser.add_argument('--rtol', default='1e-8')
    parser.add_argument('--seconds', type=float, default=30.0, help='time limit of one run')
    parser.add_argument('--odesens', default=os.path.join(here, '..', 'build', 'bin', 'odesens'))
    parser.add_argument('--out', help='one row per case and method (TSV)')
    a = parser.parse_args()
    cases = sorted(c for c in os.listdir(a.suite) if c.isdigit())
    out = open(a.out, 'w') if a.out else None
    for method in names(a.methods):
        counts, random_counts, wrong = {}, {}, []
        for case in cases:
            verdict, detail = run_case(a.odesens, a.suite, case, method, a.rtol, a.seconds)
            random = random_order(a.suite, case)
            tally = random_counts if random else counts
            tally[verdict] = tally.get(verdict, 0) + 1
            if not random and verdict.split('-')[0] in ('WRONG', 'CRASH', 'timeout'):
                wrong.append(f'{case} {verdict} {detail}')
            if out:
                out.write(f'{method}\t{case}\t{verdict}\t{int(random)}\t{detail}\n')
        print(f'{method}: ' + ', '.join(f'{k} {v}' for k, v in sorted(counts.items())) +
              '; RandomEventExecution: ' +
              ', '.join(f'{k} {v}' for k, v in sorted(random_counts.items())))
        for line in wrong:
            print('  ' + line)


if __name__ == '__main__':
    main()
