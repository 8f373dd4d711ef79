#!/usr/bin/env python3
"""Checks JSON files against a JSON Schema (Draft 2020-12): the schema tcosim ships for
editors must accept every scenario tcosim accepts.

Usage: check_json_schema.py SCHEMA FILE...
       check_json_schema.py --verdicts SCHEMA LIST   (LIST: one file a line; prints "accept FILE"
                                                      or "reject FILE" for each, exit 0)

Files are read as a strict JSON parser reads them, as tcosim does: a UTF-8 byte-order mark is
skipped (RFC 8259 lets a parser ignore one), and NaN, Infinity and a key twice in one object are
not JSON (Python's json module takes all three by default)."""
import json
import sys

import jsonschema


def _no_constants(name):
    raise ValueError(f"{name} is not JSON")


def _no_duplicates(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {key!r} twice in one object")
        out[key] = value
    return out


def load_strict(path):
    with open(path, encoding="utf-8-sig") as f:
        return json.load(f, parse_constant=_no_constants, object_pairs_hook=_no_duplicates)


def errors_of(validator, path):
    """The schema's errors for one file, as "POINTER: MESSAGE"; a file that is not JSON is one error."""
    try:
        document = load_strict(path)
    except (ValueError, UnicodeDecodeError) as e:
        return [f": not JSON: {e}"]
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
    return ["/" + "/".join(str(p) for p in e.absolute_path) + ": " + e.message for e in errors]


def main() -> int:
    verdicts = sys.argv[1] == "--verdicts"
    args = sys.argv[2:] if verdicts else sys.argv[1:]
    schema_path = args[0]
    if verdicts:
        with open(args[1], encoding="utf-8") as f:
            files = [line.rstrip("\n") for line in f if line.strip()]
    else:
        files = args[1:]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failures = 0
    for path in files:
        errors = errors_of(validator, path)
        if verdicts:
            print(("reject " if errors else "accept ") + path + ("\t" + errors[0] if errors else ""))
            continue
        for error in errors:
            print(f"{path}{error}" if error.startswith(":") else f"{path}: {error}")
        failures += bool(errors)
    if verdicts:
        return 0
    print(f"{len(files) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
