#!/usr/bin/env python3
"""The subcommands `tcosim --help` lists (with the nested ones: `demand import`, `demand stats`...)
must be the commands of the README's command table and each have its section in docs/cli.md.

Usage: check_cli_docs.py TCOSIM README.md docs/cli.md
Prints what is missing where, and exits 1 when anything is.
"""
import re
import subprocess
import sys


def listed_subcommands(tcosim, words):
    """The subcommands that `tcosim WORDS... --help` lists under its "Subcommands:" heading."""
    text = subprocess.run([tcosim, *words, "--help"], check=True, capture_output=True, text=True).stdout
    names, inside = [], False
    for line in text.splitlines():
        if line.strip().lower() == "subcommands:":
            inside = True
        elif inside and re.match(r"^  \S", line):
            names.append(line.split()[0])
        elif inside and line.strip() == "":
            inside = False
    return names


def help_commands(tcosim):
    commands = []
    for name in listed_subcommands(tcosim, []):
        nested = listed_subcommands(tcosim, [name])
        commands += [f"{name} {sub}" for sub in nested] if nested else [name]
    return set(commands)


def mentioned_commands(text, known_tops, nested_tops):
    """Every `tcosim NAME [SUB]` written in backquotes in the text."""
    found = set()
    for span in re.findall(r"`([^`]*)`", text):
        for m in re.finditer(r"\btcosim ([a-z]+)(?: ([a-z]+))?", span):
            top, sub = m.group(1), m.group(2)
            if top in nested_tops and sub:
                found.add(f"{top} {sub}")
            elif top in known_tops or top not in nested_tops:
                found.add(top)
    return found


def command_table(readme):
    """The first cells of the README's "## Commands" table."""
    section = readme.split("## Commands", 1)[1].split("\n## ", 1)[0]
    return "\n".join(line.split(" | ")[0] for line in section.splitlines() if line.startswith("| `"))


def main():
    tcosim, readme_path, cli_doc_path = sys.argv[1:4]
    commands = help_commands(tcosim)
    if len(commands) < 10:
        print(f"expected the subcommands of `tcosim --help`, found {sorted(commands)}")
        return 1
    nested_tops = {c.split()[0] for c in commands if " " in c}
    tops = {c for c in commands if " " not in c}
    readme = command_table(open(readme_path, encoding="utf-8").read())
    headings = "\n".join(l for l in open(cli_doc_path, encoding="utf-8").read().splitlines() if l.startswith("### "))
    failed = False
    for where, text in (("the README's command table", readme), (cli_doc_path + "'s sections", headings)):
        found = mentioned_commands(text, tops, nested_tops)
        for missing in sorted(commands - found):
            print(f"tcosim {missing}: listed by `tcosim --help`, missing from {where}")
            failed = True
        for extra in sorted(found - commands):
            print(f"tcosim {extra}: in {where}, but `tcosim --help` lists no such command")
            failed = True
    if not failed:
        print(f"{len(commands)} commands, each in `tcosim --help`, the README and {cli_doc_path}: "
              + ", ".join(sorted(commands)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
