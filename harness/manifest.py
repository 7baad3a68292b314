# SPDX-License-Identifier: GPL-2.0
"""The results manifest, for the host's Python readers (compare.py, page.py).

lib/sh/manifest.sh writes RESULTS/manifest.txt and is its shell reader;
this is the same reading for compare.py and page.py: one line an
artifact, `KIND PATH SUITE BOOT` (docs/architecture.md, "results/"), a
path once with its last line, in the order paths were first listed.
"""
import os


def read_manifest(rdir):
    """(kind, path, suite, boot) rows of RESULTS_DIR/manifest.txt, or None without one."""
    path = os.path.join(rdir, "manifest.txt")
    if not os.path.isfile(path):
        return None
    rows = {}
    with open(path) as f:
        for line in f:
            words = line.split()
            if len(words) >= 2 and not line.startswith("#"):
                rows[words[1]] = tuple((words + ["-", "-"])[:4])
    return list(rows.values())


def entries(rdir, prefix=""):
    """Every artifact of RESULTS_DIR, its path relative to RESULTS_DIR: a
    `shard-dir` (harness/merge-shards.sh) is read through its own manifest,
    and its artifacts follow it with the shard's directory before their path."""
    rows = read_manifest(os.path.join(rdir, prefix)) or []
    out = []
    for kind, path, suite, boot in rows:
        full = os.path.join(prefix, path) if prefix else path
        if kind == "shard-dir":
            out.extend(entries(rdir, full))
        else:
            out.append((kind, full, suite, boot))
    return out


def evidence_name(inst_id):
    """tools/wberr-run/evidence.c evidence_dirname(): letters, digits and ._+- kept, the rest '_'."""
    return "".join(c if c.isascii() and (c.isalnum() or c in "._+-") else "_" for c in inst_id)
