#!/usr/bin/env python3
"""Fails on an #include that reaches up a layer (docs/architecture.md).

The layers, lowest first: core, models, engine, reports, cli. A file may include its own layer
and the layers below it. Inside engine/ the concept folders are ordered too: ledger/ at the
bottom; des/ and sweep/ on it (neither includes the other); the scenario run (engine/*.hpp);
montecarlo/; decisions/ on top. A file may include its own folder and the folders below it; a
sub-folder belongs to its concept (engine/des/cloud/ is des/, engine/ledger/hourly/ is ledger/).

Usage: check_layers.py REPO_ROOT. Prints each offending line as FILE:LINE and exits 1; exit 0
when every include points down (or sideways within one folder).
"""
import pathlib
import re
import sys

LAYERS = ["core", "models", "engine", "reports", "cli"]
# engine/ concept folder -> rank; "" is engine/ itself (the scenario run).
ENGINE_CONCEPTS = {"ledger": 0, "des": 1, "sweep": 1, "": 2, "montecarlo": 3, "decisions": 4}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(path):
    top = path.split("/", 1)[0]
    return LAYERS.index(top) if top in LAYERS else None


def engine_concept_of(path):
    parts = path.split("/")
    return parts[1] if len(parts) > 2 else ""


def allowed(source, target):
    source_layer, target_layer = layer_of(source), layer_of(target)
    if target_layer is None:  # a file outside the layers (a system or test header)
        return True
    if target_layer != source_layer:
        return target_layer < source_layer
    if LAYERS[source_layer] != "engine":
        return True
    source_concept, target_concept = engine_concept_of(source), engine_concept_of(target)
    if source_concept == target_concept:
        return True
    if source_concept not in ENGINE_CONCEPTS or target_concept not in ENGINE_CONCEPTS:
        return False  # a new engine/ folder: give it a rank above
    return ENGINE_CONCEPTS[target_concept] < ENGINE_CONCEPTS[source_concept]


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    violations = []
    checked = 0
    for layer in LAYERS:
        for path in sorted((root / layer).rglob("*")):
            if path.suffix not in (".hpp", ".cpp", ".cu", ".h"):
                continue
            source = path.relative_to(root).as_posix()
            checked += 1
            for number, line in enumerate(path.read_text().splitlines(), 1):
                match = INCLUDE.match(line)
                if match and not allowed(source, match.group(1)):
                    violations.append(f"{source}:{number}: includes {match.group(1)}, a layer or concept above it")
    for violation in violations:
        print(violation)
    if checked == 0:
        print(f"no source files under {root}")
        return 1
    print(f"{checked} files checked, {len(violations)} includes reach up")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
