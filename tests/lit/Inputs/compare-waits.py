#!/usr/bin/env python3
"""Compares the hot-loop vmcnt waits of two `klx pipeline --json` runs.

usage: compare-waits.py WITHOUT.json WITH.json

Prints both and fails unless WITH waits for everything (vmcnt(0)) fewer
times in loops than WITHOUT and waits for a count (vmcnt(N)) more often.
"""
import json
import sys


def loop_waits(path):
    with open(path) as f:
        run = json.load(f)
    counts = run["artifacts"][0]["instruction_counts"]["amdgcn"]["classes"]
    return counts["loop vmcnt(0)"], counts["loop vmcnt(N)"]


without, with_scopes = loop_waits(sys.argv[1]), loop_waits(sys.argv[2])
print(f"without alias scopes: loop vmcnt(0) {without[0]}, vmcnt(N) {without[1]}")
print(f"with alias scopes:    loop vmcnt(0) {with_scopes[0]}, vmcnt(N) {with_scopes[1]}")
if not (with_scopes[0] < without[0] and with_scopes[1] > without[1]):
    print("error: the alias scopes did not relax the hot loop's waits")
    sys.exit(1)
print("direction: fewer vmcnt(0), more vmcnt(N) with alias scopes")
