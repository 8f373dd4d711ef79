#!/usr/bin/env python3
"""Every single edit of the mutation test's scenarios, judged by `tcosim validate` and by
schema/scenario.schema.json (issue 43, item 8): each member set to null, deleted, or set to 0,
1e-320, -1, "", {}, [] (the EDITS named), one file each. Prints the agreement and every
disagreement with validate's message or the schema's. Where the mutation test samples, this
covers every member; it is slow (a validate a file), so it is a tool, not a test.

Usage: scripts/schema_probe.py [--build BUILD] [--edits null,delete,...]
       (run from the checkout; BUILD defaults to build, holding the tcosim binary)"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

EDIT_VALUES = {"null": None, "zero": 0, "tiny": 1e-320, "neg": -1, "empty": "", "obj": {}, "arr": []}


def mutated_scenarios(root):
    """The mutation test's source scenarios, from tests/test_mutation.cpp's kMutated* lists."""
    with open(os.path.join(root, "tests/test_mutation.cpp"), encoding="utf-8") as f:
        text = f.read()
    files = []
    for body in re.findall(r"const std::vector<std::string> kMutated\w*Scenarios = \{(.*?)\};", text, re.S):
        files += re.findall(r"\"([^\"]+\.json)\"", body)
    return files


def movable(root, source):
    """The scenario with its catalog folder and series files as absolute paths (as the test's)."""
    path = os.path.join(root, source)
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    folder = os.path.dirname(path)
    doc["catalog_dir"] = os.path.normpath(os.path.join(folder, doc.get("catalog_dir", "../pricing-data")))

    def absolute(v):
        children = v.items() if isinstance(v, dict) else enumerate(v) if isinstance(v, list) else ()
        for k, x in children:
            if k == "file" and isinstance(x, str):
                v[k] = os.path.normpath(os.path.join(folder, x))
            else:
                absolute(x)

    absolute(doc)
    return doc


def members(v, pointer=""):
    """(pointer, container, key) of every member and item, depth first."""
    children = v.items() if isinstance(v, dict) else enumerate(v) if isinstance(v, list) else ()
    for k, x in children:
        yield f"{pointer}/{k}", v, k
        yield from members(x, f"{pointer}/{k}")


def edited(base, index, edit):
    """A copy of `base` with its index-th member edited, and the edit's description; None when
    the edit does not apply (deleting an item of a list, a value set to itself)."""
    doc = json.loads(json.dumps(base))
    pointer, container, key = list(members(doc))[index]
    if pointer == "/catalog_dir":
        return None
    if edit == "delete":
        if not isinstance(container, dict):
            return None
        del container[key]
    else:
        if container[key] == EDIT_VALUES[edit] and type(container[key]) is type(EDIT_VALUES[edit]):
            return None
        container[key] = EDIT_VALUES[edit]
    return doc, f"{edit} {pointer}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--edits", default=",".join(["delete"] + list(EDIT_VALUES)))
    args = parser.parse_args()
    root = os.getcwd()
    tcosim = os.path.join(root, args.build, "tcosim")
    folder = tempfile.mkdtemp(prefix="tcosim-schema-probe-")
    files = []
    for source in mutated_scenarios(root):
        base = movable(root, source)
        for index in range(sum(1 for _ in members(base))):
            for edit in args.edits.split(","):
                made = edited(base, index, edit)
                if made is None:
                    continue
                path = os.path.join(folder, f"p{len(files)}.json")
                with open(path, "w", encoding="utf-8") as f:
                    json.dump(made[0], f, indent=1)
                files.append((path, f"{source}: {made[1]}"))
    listing = os.path.join(folder, "list.txt")
    with open(listing, "w", encoding="utf-8") as f:
        f.write("".join(path + "\n" for path, _ in files))
    verdicts = subprocess.run([sys.executable, os.path.join(root, "tests/check_json_schema.py"), "--verdicts",
                               os.path.join(root, "schema/scenario.schema.json"), listing],
                              capture_output=True, text=True, check=True).stdout
    schema = {}
    for line in verdicts.splitlines():
        verdict, rest = line.split(" ", 1)
        file, _, why = rest.partition("\t")
        schema[file] = (verdict == "accept", why)
    agree, too_strict, too_lenient = 0, [], []
    for path, what in files:
        v = subprocess.run([tcosim, "validate", path], capture_output=True, text=True)
        if v.returncode not in (0, 2):
            print(f"validate exit {v.returncode}: {what}\n  {(v.stdout + v.stderr)[:400]}")
            continue
        accepts, why = schema[path]
        if accepts == (v.returncode == 0):
            agree += 1
        elif accepts:
            too_lenient.append((what, (v.stdout + v.stderr).splitlines()[0].replace(path, "FILE")))
        else:
            too_strict.append((what, why))
    print(f"{agree} of {len(files)} single edits agree ({agree / len(files):.4f}); the schema refuses "
          f"{len(too_strict)} that validate accepts and takes {len(too_lenient)} that validate refuses")
    for title, cases in (("the schema refuses, validate accepts", too_strict),
                         ("the schema takes, validate refuses", too_lenient)):
        for what, why in cases:
            print(f"{title}: {what}\n  {why}")
    subprocess.run(["rm", "-rf", folder], check=True)
    return 1 if too_strict else 0


if __name__ == "__main__":
    sys.exit(main())
