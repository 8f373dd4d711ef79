#!/usr/bin/env python3
"""Keeps the bounds of schema/scenario.schema.json equal to the ones `validate` reads with, so
that they cannot drift (issue 43, item 8).

The bounds come from the same place as validate's: the table models/input_limits.hpp and the
calls of the strict reader (core/io/json_reader.hpp) in the models' parsers, e.g.
    r.number_or("pue", 1.3, limits::kPue)         -> "pue": minimum 1, maximum 5
    r.integer_or("peak_hour", 14, 0, 23)          -> "peak_hour": minimum 0, maximum 23
    r.number_or("availability", 1.0, Bounds::fraction())
A number read with a default (number_or, optional_number) everywhere also takes null, as the
reader does (null is the default there: "pue": null).
A key read with two different bounds in two places is held to their hull where the schema writes
no bound of its own; one whose bound depends on another field (`horizon_months - 1`) is left as the
schema writes it (--write lists them).
Also generated: the fields an inline catalog record (no "id") requires, from the parse_KIND
functions of models/catalog/records.cpp; the enum of a key read with r.choice/choice_or and one
list of choices everywhere; on every string and free key, the text rule (no control character);
and on every string that names a catalog record, `examples` listing pricing-data/'s ids of that
kind (completion in an editor; not a rule, as a scenario may name another catalog). The rules
across fields (the schema's `allOf`, `if`/`then`) are
written in the schema by hand; docs/scenario.md lists them and the ones JSON Schema cannot say.

Usage: sync_schema_limits.py ROOT --check   (exit 1 and the differences when the schema drifted)
       sync_schema_limits.py ROOT --write   (rewrites the schema's bounds)
"""
import glob
import json
import math
import os
import re
import sys

INF = math.inf


def number(text):
    text = text.strip().replace("'", "")
    return float(text)


def limits_table(root):
    """{"kPue": (1.0, 5.0, False), "kMaxNodes": (100000, ...)} from models/input_limits.hpp."""
    table = {}
    with open(os.path.join(root, "models/input_limits.hpp"), encoding="utf-8") as f:
        text = f.read()
    for name, body in re.findall(r"inline constexpr Bounds (k\w+)\{([^}]*)\}", text):
        parts = [p.strip() for p in body.split(",")]
        table[name] = (number(parts[0]), number(parts[1]) if len(parts) > 1 else INF,
                       len(parts) > 2 and parts[2] == "true")
    for name, value in re.findall(r"inline constexpr long (k\w+) = ([0-9']+);", text):
        table[name] = number(value)
    return table


def bounds_of(argument, table):
    """(min, max, min_exclusive) of a Bounds argument as the parsers write it, or None."""
    a = re.sub(r"limits::(k\w+)\.(min|max)",
               lambda m: repr(table[m.group(1)][0 if m.group(2) == "min" else 1]) if isinstance(table.get(m.group(1)), tuple)
               else m.group(0), argument.strip())
    m = re.fullmatch(r"limits::(k\w+)", a)
    if m and isinstance(table.get(m.group(1)), tuple):
        return table[m.group(1)]
    if a == "Bounds::fraction()":
        return (0.0, 1.0, False)
    if a == "Bounds::positive()":
        return (0.0, INF, True)
    if a == "Bounds::non_negative()":
        return (0.0, INF, False)
    m = re.fullmatch(r"Bounds::between\(\s*(-?[0-9.e]+)\s*,\s*(-?[0-9.e]+)\s*\)", a)
    if m:
        return (number(m.group(1)), number(m.group(2)), False)
    m = re.fullmatch(r"Bounds\{\s*(-?[0-9.e]+)\s*,\s*(-?[0-9.e]+)\s*(?:,\s*(true|false))?\s*\}", a)
    if m:
        return (number(m.group(1)), number(m.group(2)), m.group(3) == "true")
    return None


def integer_bound(text, table):
    t = text.strip()
    m = re.fullmatch(r"limits::(k\w+)", t)
    if m and isinstance(table.get(m.group(1)), float):
        return table[m.group(1)]
    try:
        return number(t)
    except ValueError:
        return None


def split_arguments(text):
    """The top-level comma-separated arguments of a call's text (after its opening parenthesis)."""
    out, depth, current = [], 0, ""
    for c in text:
        if c in "({[":
            depth += 1
        elif c in ")}]":
            if depth == 0:
                out.append(current)
                return out
            depth -= 1
        if c == "," and depth == 0:
            out.append(current)
            current = ""
        else:
            current += c
    return None


def parser_bounds(root, table):
    """{key: (min, max, min_exclusive)} for keys read with one bound everywhere; and the others."""
    seen, kinds, symbolic = {}, {}, {}
    sources = glob.glob(os.path.join(root, "models/**/*.cpp"), recursive=True)
    call = re.compile(r"\.(number|number_or|optional_number|numbers|integer|integer_or)\(\"(\w+)\"")
    texts = {}
    for path in sorted(sources):
        if "/importers/" in path:
            continue
        with open(path, encoding="utf-8") as f:
            texts[path] = f.read()
    # A helper that reads a key it is given, e.g. hourly_rates(r, "weekday_usd_per_kwh") whose body
    # is r.numbers(key, limits::kUsdPerKwh, 24): its calls read as that call.
    helpers = {}
    for text in texts.values():
        for name, body in re.findall(r"(\w+)\(JsonObjectReader& r, std::string_view key\) \{\n(.*?)\n\}", text, re.S):
            inner = re.search(r"r\.(number|number_or|optional_number|numbers|integer|integer_or)\(key", body)
            if inner:
                helpers[name] = (inner.group(1), body[inner.end():])
    for path, text in sorted(texts.items()):
        found = [(m.group(1), m.group(2), text[m.end():]) for m in call.finditer(text)]
        for name, (kind, tail) in helpers.items():
            found += [(kind, key, tail) for key in re.findall(rf"\b{name}\(r, \"(\w+)\"\)", text)]
        for kind, key, rest in found:
            args = split_arguments(rest)
            if args is None:
                continue
            bound = None
            if kind in ("number", "optional_number", "numbers") and len(args) >= 2:
                bound = bounds_of(args[1], table)
            elif kind == "number_or" and len(args) >= 3:
                bound = bounds_of(args[2], table)
            elif kind in ("integer", "integer_or") and len(args) >= (3 if kind == "integer" else 4):
                lo_text, hi_text = args[1:3] if kind == "integer" else args[2:4]
                lo, hi = integer_bound(lo_text, table), integer_bound(hi_text, table)
                if lo is not None and hi is not None:
                    bound = (lo, hi, False)
                else:
                    symbolic.setdefault(key, []).append((lo_text.strip(), hi_text.strip()))
            seen.setdefault(key, set()).add(bound)
            kinds.setdefault(key, set()).add(kind)
    unique = {k: next(iter(v)) for k, v in seen.items() if len(v) == 1 and None not in v}
    ambiguous = sorted(k for k, v in seen.items() if len(v) > 1 or None in v)
    nullable = {k for k, v in kinds.items() if v <= {"number_or", "optional_number"}}
    # A key read with several known bounds is held, at least, to their hull: where the schema writes
    # no bound of its own on a side, the hull's is the one validate never goes past.
    hull = {k: (min(b[0] for b in v), max(b[1] for b in v), all(b[2] for b in v if b[0] == min(c[0] for c in v)))
            for k, v in seen.items() if len(v) > 1 and None not in v}
    hull.update(symbolic_hull(seen, symbolic, unique, hull, derived_symbols(root)))
    return unique, ambiguous, nullable, hull


def derived_symbols(root):
    """Bounds the parsers compute from another field, by the field and its factor:
    models/commitment/commitment.cpp reads days against horizon_days = horizon_months x
    kHoursPerMonth (core/calendar.hpp) / 24."""
    with open(os.path.join(root, "core/calendar.hpp"), encoding="utf-8") as f:
        hours_per_month = int(re.search(r"kHoursPerMonth = (\d+);", f.read()).group(1))
    return {"horizon_days": ("horizon_months", hours_per_month / 24)}


def symbolic_hull(seen, symbolic, unique, hull, derived):
    """{key: (min, max, False)} for keys whose bound is another field's value, e.g.
    r.integer_or("purchase_month", 0, 0, horizon_months - 1) -> maximum 599, horizon_months being
    read in [1, 600]: the widest the bound can be, whatever the other field holds (a hull, as for a
    key read with two bounds; validate's own bound for one scenario may be narrower)."""
    known = {**hull, **unique}

    def side(expr, which):
        m = re.fullmatch(r"(?:\w+\.)?(\w+)(?:\s*([+-])\s*([0-9]+))?", expr)
        if not m:
            return None
        try:
            return number(expr)
        except ValueError:
            pass
        name, sign, offset = m.group(1), m.group(2), m.group(3)
        if name in derived:
            base, factor = derived[name]
            value = known[base][which] * factor if base in known else None
            value = math.floor(value) if value is not None else None
        else:
            value = known[name][which] if name in known else None
        if value is None:
            return None
        return value + (int(offset) if sign == "+" else -int(offset) if sign == "-" else 0)

    out = {}
    for _ in range(4):  # a bound on a field whose own bound is another's (order_month <= purchase_month)
        for key, pairs in symbolic.items():
            numeric = [b for b in seen[key] if b is not None]
            resolved = [(side(lo, 0), side(hi, 1)) for lo, hi in pairs]
            if any(lo is None or hi is None for lo, hi in resolved):
                continue
            every = numeric + [(lo, hi, False) for lo, hi in resolved]
            out[key] = (min(b[0] for b in every), max(b[1] for b in every), False)
        known.update(out)
    return out


def parser_choices(root):
    """{key: [choices]} for keys read with r.choice/choice_or and one list of choices everywhere."""
    seen = {}
    for path in sorted(glob.glob(os.path.join(root, "models/**/*.cpp"), recursive=True)):
        if "/importers/" in path:
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for key, choices in re.findall(r"\.choice(?:_or)?\(\"(\w+)\", \{([^}]*)\}", text):
            seen.setdefault(key, set()).add(tuple(re.findall(r"\"([^\"]*)\"", choices)))
    return {k: list(next(iter(v))) for k, v in seen.items() if len(v) == 1}


def named_properties(node, path=""):
    """Every property of every "properties" object in the schema, depth first: (its JSON pointer,
    its name, its schema)."""
    if isinstance(node, list):
        for i, child in enumerate(node):
            yield from named_properties(child, f"{path}/{i}")
        return
    if not isinstance(node, dict):
        return
    for key, child in node.items():
        here = f"{path}/{key}"
        if key == "properties" and isinstance(child, dict):
            for name, prop in child.items():
                yield f"{here}/{name}", name, prop
        yield from named_properties(child, here)


def apply_choices(schema, choices):
    """Sets the enum of every property named in `choices` that the schema writes as an enum of
    strings (itself or a branch of its anyOf/oneOf). Returns the changes."""
    changes = []

    def enums(prop):
        if not isinstance(prop, dict):
            return
        if isinstance(prop.get("enum"), list) and all(isinstance(e, str) for e in prop["enum"]):
            yield prop
        for key in ("anyOf", "oneOf"):
            for b in prop.get(key, []):
                yield from enums(b)

    for where, name, prop in named_properties(schema):
        for e in enums(prop) if name in choices else ():
            if e["enum"] != choices[name]:
                changes.append(f"{where}: enum {e['enum']} -> {choices[name]}")
                e["enum"] = list(choices[name])
    return changes


def record_required(root):
    """{"server": ["gpu_model", ..., "source", "as_of"], ...}: the fields an inline catalog record
    (one without an "id") must carry, as models/catalog/records.cpp reads them: the calls of a
    required accessor in parse_KIND's own body (not those under an `if`, which a rule across
    fields decides), and the provenance every record carries."""
    with open(os.path.join(root, "models/catalog/records.cpp"), encoding="utf-8") as f:
        text = f.read()
    required_call = re.compile(r"(?:r\.(?:number|integer|string|choice|boolean|numbers)\(|"
                               r"(?:non_empty_string|count_at_least_one)\(r, )\"(\w+)\"")
    provenance = re.search(r"Provenance parse_provenance\(.*?\n\}", text, re.S).group(0)
    common = required_call.findall(provenance) + re.findall(r"r\.value\(\"(\w+)\"\)", provenance)
    out = {"serving_profile": serving_profile_required(root, common)}
    for kind, start in ((m.group(1), m.end()) for m in re.finditer(r"\bparse_record<\w+>\(r, \"(\w+)\"", text)):
        own = top_level_fields(text, text.index("{", start) + 1, required_call)
        out[kind] = list(dict.fromkeys(own + common))
    return out


def top_level_fields(text, body_start, required_call):
    """The fields `required_call` matches in a C++ body that starts after its "{", outside any
    nested block (an `if`, a lambda): the ones read on every path."""
    depth, at, own = 1, body_start, []
    while depth > 0:
        c = text[at]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif depth == 1:
            m = required_call.match(text, at)
            if m:
                own.append(m.group(1))
        at += 1
    return own


def serving_profile_required(root, common):
    """The fields an inline serving profile (one without an "id") must carry, as
    models/serving/serving_profile.cpp's parse_serving_profile reads them: its required accessors
    outside an `if` (prefill_gpus and decode_gpus come together), "points" (read whole, refused
    unless a non-empty array), and the provenance every record carries."""
    with open(os.path.join(root, "models/serving/serving_profile.cpp"), encoding="utf-8") as f:
        text = f.read()
    body_start = text.index("{", re.search(r"ServingProfile parse_serving_profile\(", text).end()) + 1
    required_call = re.compile(r"(?:r\.(?:number|integer|string|choice|boolean|numbers)\(|non_empty\(r, |r\.value\()"
                               r"\"(\w+)\"")
    return list(dict.fromkeys(top_level_fields(text, body_start, required_call) + common))


def apply_required(schema, required):
    """In every inline record's schema outside the plans (a plan's record is a merge patch of the
    scenario's) and in a plan's venues (a venue's offer is read whole), `if` it has no "id" `then`
    the record's fields are required and not null (an inline record reads null as absent); `else`
    (an override of a catalog record) not null either (null removes the record's value). Returns
    the changes."""
    changes = []

    def visit(node, path):
        if isinstance(node, list):
            for i, child in enumerate(node):
                visit(child, f"{path}/{i}")
            return
        if not isinstance(node, dict):
            return
        description = node.get("description")
        m = re.match(r"an? (\w+) record(?:$|:)", description) if isinstance(description, str) else None
        # A plan's record is a patch of the scenario's, except a venue's offer (read whole).
        kind = m.group(1) if m and ("/plans/" not in path or "/venues/" in path) else None
        # A serving profile (its object branch says so) is read whole wherever it is written, in a
        # plan too (models/serving/plan_serving.hpp).
        if any(isinstance(b, dict) and str(b.get("description", "")).startswith("a serving_profile record written inline")
               for b in node.get("oneOf", [])):
            kind = "serving_profile"
        if kind in required:
            for i, branch in enumerate(node.get("oneOf", [])):
                if branch.get("type") != "object":
                    continue
                keys = [k for k in required[kind] if k in branch.get("properties", {})]
                want = {"not": {"required": ["id"]}}, {"required": keys,
                                                         "properties": {k: {"not": {"type": "null"}} for k in keys}}
                if (branch.get("if"), branch.get("then")) != want:
                    changes.append(f"{path}/oneOf/{i}: required without an id: {keys}")
                    branch["if"], branch["then"] = want
                # With an id, null removes the catalog record's value: a field the record requires
                # is then missing.
                if branch.get("else") != {"properties": want[1]["properties"]} and keys:
                    changes.append(f"{path}/oneOf/{i}: not null with an id: {keys}")
                    branch["else"] = {"properties": want[1]["properties"]}
        for key, child in node.items():
            visit(child, f"{path}/{key}")

    visit(schema, "")
    return changes


# Text: a scenario's strings and keys hold no control character (U+0000..U+001F, U+007F), as
# require_printable_text (core/io/json_reader.cpp, by core/io/utf8_text.hpp's first_unprintable_byte)
# refuses them. A `not` of a search, not `^[^...]*$`: Python's `$` also matches before a final "\n";
# the `not` holds "type": "string" so that it passes a number or a null of the same property.
TEXT_RULE = {"not": {"type": "string", "pattern": "[\\u0000-\\u001F\\u007F]"}}
TEXT_REF = "#/$defs/text"
SUBSCHEMA_MAPS = ("properties", "patternProperties", "$defs", "dependentSchemas")
SUBSCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
SUBSCHEMAS = ("items", "additionalProperties", "propertyNames", "not", "if", "then", "else", "contains",
              "unevaluatedProperties", "unevaluatedItems")


def apply_text_rule(schema):
    """Every string the schema takes (a `type` of "string" without an enum or const) and every
    key of an object whose keys are not all named (`propertyNames`, or an `additionalProperties`
    schema) refers to $defs/text. Returns the changes."""
    changes = []
    if schema.setdefault("$defs", {}).get("text") != TEXT_RULE:
        changes.append(f"/$defs/text: {TEXT_RULE}")
        schema["$defs"]["text"] = dict(TEXT_RULE)

    def refer(node, where):
        if node.get("$ref") != TEXT_REF:
            changes.append(f"{where}: + $ref {TEXT_REF}")
            node["$ref"] = TEXT_REF

    def visit(node, where):
        if not isinstance(node, dict) or where == "/$defs/text":
            return
        types = node.get("type") if isinstance(node.get("type"), list) else [node.get("type")]
        if "string" in types and "enum" not in node and "const" not in node:
            refer(node, where)
        if isinstance(node.get("additionalProperties"), dict) and "propertyNames" not in node:
            node["propertyNames"] = {}
        if isinstance(node.get("propertyNames"), dict) and "enum" not in node["propertyNames"]:
            refer(node["propertyNames"], where + "/propertyNames")
        for key in SUBSCHEMA_MAPS:
            for name, child in node.get(key, {}).items():
                visit(child, f"{where}/{key}/{name}")
        for key in SUBSCHEMA_LISTS:
            for i, child in enumerate(node.get(key, [])):
                visit(child, f"{where}/{key}/{i}")
        for key in SUBSCHEMAS:
            visit(node.get(key), f"{where}/{key}")

    visit(schema, "")
    return changes


# The fields that name a catalog record, by the kind of record they name (a power section's
# "region"; an inline cloud offer's "region" is the provider's, not a catalog id).
CATALOG_REFERENCES = {"offer": "cloud_offer", "gpu": "gpu", "gpu_model": "gpu", "predecessor_gpu": "gpu",
                      "server": "server", "successor_server": "server", "cooling": "cooling",
                      "colocation": "colocation", "region": "power_region", "serving_profile": "serving_profile"}


def shipped_catalog_ids(root):
    """{"cloud_offer": ["aws/p5.48xlarge/us-east-1", ...], ...}: the ids of pricing-data/, by kind,
    in the order Catalog::load reads them (files sorted by name, records in file order)."""
    ids = {}
    for path in sorted(glob.glob(os.path.join(root, "pricing-data/*.json"))):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        if isinstance(doc, dict) and isinstance(doc.get("records"), list):
            ids.setdefault(doc.get("kind"), []).extend(r["id"] for r in doc["records"] if isinstance(r, dict) and "id" in r)
    return ids


def apply_catalog_examples(schema, ids):
    """On every string that names a catalog record (CATALOG_REFERENCES; the id of an override
    too), `examples`: the shipped catalog's ids of that kind, for an editor's completion. An
    annotation, not a rule: a scenario may name any catalog (`catalog_dir`, `--catalog`), so the
    schema refuses no id. Returns the changes."""
    changes = []

    def strings(prop, where):
        if not isinstance(prop, dict):
            return
        if prop.get("type") == "string" and "enum" not in prop:
            yield prop, where
        if prop.get("type") == "object" and isinstance(prop.get("properties", {}).get("id"), dict):
            yield prop["properties"]["id"], where + "/properties/id"
        for key in ("anyOf", "oneOf"):
            for i, b in enumerate(prop.get(key, [])):
                yield from strings(b, f"{where}/{key}/{i}")

    for where, name, prop in named_properties(schema):
        kind = CATALOG_REFERENCES.get(name)
        if kind not in ids or (name == "region" and "/power/" not in where) or "/then/" in where:
            continue
        for s, here in strings(prop, where):
            if s.get("examples") != ids[kind]:
                changes.append(f"{here}: examples = the shipped catalog's {len(ids[kind])} {kind} ids")
                s["examples"] = list(ids[kind])
    return changes


def json_number(x):
    return int(x) if float(x).is_integer() and abs(x) < 2**53 else x


def apply(schema, bounds, nullable, hull):
    """Sets the bounds of every numeric property named in `bounds` (and null where the reader
    takes it); returns the changes."""
    changes = []

    def numeric(node):
        t = node.get("type")
        types = t if isinstance(t, list) else [t]
        return "number" in types or "integer" in types


    def targets(prop):
        """The numeric schemas a property's bounds apply to: itself, the items of a list of numbers
        (r.numbers), and each branch of an anyOf/oneOf (an override's `{"anyOf": [number, null]}`).
        Yields (schema, is_branch): a branch's null is its sibling's, not a type of its own."""
        if not isinstance(prop, dict):
            return
        if prop.get("type") == "array" and isinstance(prop.get("items"), dict):
            yield prop["items"], False
        elif "type" in prop:
            yield prop, False
        for key in ("anyOf", "oneOf"):
            for b in prop.get(key, []):
                for inner, _ in targets(b):
                    yield inner, True

    def fill_hull(prop, name, branch, here):
        lo, hi, exclusive = hull[name]
        want = {}
        types = prop["type"] if isinstance(prop["type"], list) else [prop["type"]]
        if name in nullable and not branch and "null" not in types:
            want["type"] = types + ["null"]
        if lo != -INF and "minimum" not in prop and "exclusiveMinimum" not in prop:
            want["exclusiveMinimum" if exclusive else "minimum"] = json_number(lo)
        if hi != INF and "maximum" not in prop:
            want["maximum"] = json_number(hi)
        if want:
            changes.append(f"{here}: + {want} (the hull of its bounds)")
            prop.update(want)

    def set_bounds(prop, name, branch, here):
        nonlocal changes
        lo, hi, exclusive = bounds[name]
        want = {}
        if lo != -INF:
            want["exclusiveMinimum" if exclusive else "minimum"] = json_number(lo)
        if hi != INF:
            want["maximum"] = json_number(hi)
        if branch:
            want["type"] = prop["type"]
        elif name in nullable:
            types = prop["type"] if isinstance(prop["type"], list) else [prop["type"]]
            want["type"] = types if "null" in types else types + ["null"]
        else:
            want["type"] = prop["type"]
        have = {k: prop[k] for k in ("minimum", "exclusiveMinimum", "maximum", "type") if k in prop}
        if have != want:
            changes.append(f"{here}: {have} -> {want}")
            for k in ("minimum", "exclusiveMinimum", "maximum"):
                prop.pop(k, None)
            prop.update(want)

    for where, name, top in named_properties(schema):
        for prop, branch in targets(top):
            if name in bounds and numeric(prop):
                set_bounds(prop, name, branch, where)
            elif name in hull and numeric(prop):
                fill_hull(prop, name, branch, where)
    return changes


def main():
    root, mode = sys.argv[1], sys.argv[2]
    path = os.path.join(root, "schema/scenario.schema.json")
    with open(path, encoding="utf-8") as f:
        schema = json.load(f)
    bounds, ambiguous, nullable, hull = parser_bounds(root, limits_table(root))
    changes = (apply(schema, bounds, nullable, hull) + apply_required(schema, record_required(root)) +
               apply_choices(schema, parser_choices(root)) + apply_text_rule(schema) +
               apply_catalog_examples(schema, shipped_catalog_ids(root)))
    if mode == "--write":
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps(schema, indent=1, ensure_ascii=False) + "\n")
        print(f"{len(changes)} changes written; {len(bounds)} keys with one bound; left as written: {', '.join(ambiguous)}")
        return 0
    for c in changes:
        print("drift: " + c)
    if changes:
        print(f"{path}: {len(changes)} generated parts differ from the readers' and pricing-data/'s; run schema/sync_schema_limits.py . --write")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
