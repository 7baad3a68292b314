# SPDX-License-Identifier: GPL-2.0
"""TAP for the host's Python self-tests (the shell ones use lib/sh/tap.sh):
check() records a result, done() prints them as TAP 14 and returns the
exit status.  One module, so that every self-test prints its failures'
details the same way."""

results = []


def check(ok, what, detail=""):
    """record one result; returns whether it passed"""
    results.append((bool(ok), what, detail))
    return bool(ok)


def done(max_detail=20):
    """print the plan and every result, a failure's detail as comment lines
    (at most MAX_DETAIL); 0 when all passed, else 1"""
    print("TAP version 14")
    print(f"1..{len(results)}")
    for i, (ok, what, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {what}")
        if not ok and detail:
            for line in str(detail).splitlines()[:max_detail]:
                print(f"  # {line}")
    return 0 if all(ok for ok, _, _ in results) else 1
