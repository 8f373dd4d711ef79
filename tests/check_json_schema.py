#!/usr/bin/env python3
"""Checks JSON files against a JSON Schema (Draft 2020-12): the schema tcosim ships for
editors must accept every scenario tcosim accepts. Usage: check_json_schema.py SCHEMA FILE..."""
import json
import sys

import jsonschema


def main() -> int:
    schema_path, files = sys.argv[1], sys.argv[2:]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failures = 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
        for error in errors:
            pointer = "/" + "/".join(str(p) for p in error.absolute_path)
            print(f"{path}: {pointer}: {error.message}")
        failures += bool(errors)
    print(f"{len(files) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
