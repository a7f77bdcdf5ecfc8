#!/usr/bin/env python3
"""What Linux's compiler cannot check: that the StoreKit backend uses an API newer than a deployment target
only behind an availability gate at least that new.

Linux ignores `introduced:` versions, so scripts/check-storekit.sh runs this in two steps per platform:

  check-availability.py mark STUB PLATFORM TARGET OUT
      Copies the transcription STUB to OUT, with `@available(*, deprecated, message: "introduced in <P> <V>")`
      put before every declaration whose availability for PLATFORM (ios, macos, tvos, visionos) is newer than
      TARGET. Deprecation, unlike availability, is diagnosed on Linux, at every use, gated or not.

  check-availability.py opaque COPY_DIR SOURCE_DIR
      Copies SOURCE_DIR's Swift files to COPY_DIR with every `#available(...)` / `#unavailable(...)` condition
      turned into a call of `_availabilityOpaque()` of the same length (declared in a file it adds), so that the
      compiler diagnoses the branches it would otherwise treat as decided (an `else`, a `guard`'s body), where
      an older OS's fallback lives. Lines and columns stay those of the sources.

  check-availability.py gates PLATFORM DIAGNOSTICS OUT_STUB COPY_DIR SOURCE_DIR SOURCE...
      Reads the compiler's warnings (DIAGNOSTICS, on COPY_DIR's files) for those markers and accepts each only
      inside an `if #available` / `guard #available` condition, the block it opens (not its `else`), or an
      `@available` declaration naming PLATFORM at least that new, read in SOURCE_DIR's file. The compiler does not
      diagnose an enum case used as a pattern (`case .ineligible:`, `catch X.ineligible`), so every case the mark
      step marked is also looked for in the case and catch clauses of the SOURCEs in Live/ (the rest switches over
      our own enums), and held to the same rule. No use found at all fails: the check did not see the backend.

Not checked: code in `#if` branches the configuration does not compile, uses hidden behind a typealias, and a
case named on a line that neither starts nor continues its `case` or `catch` clause.
"""
import os
import re
import sys

SWIFT_NAMES = {"ios": "iOS", "macos": "macOS", "tvos": "tvOS", "visionos": "visionOS"}
MARKER = "introduced in"


def version(text):
    return tuple(int(part) for part in text.split("."))


def introduced(attribute, platform):
    """The version an `@available(...)` line gives PLATFORM, or None when it gives none."""
    name = SWIFT_NAMES[platform]
    inner = attribute[attribute.index("(") + 1:attribute.rindex(")")]
    long_form = re.match(rf"\s*{name}\s*,\s*introduced:\s*([\d.]+)", inner)
    if long_form:
        return version(long_form.group(1))
    for item in inner.split(","):
        # `anyAppleOS 27.0` (the 27 SDKs) stands for every Apple platform at that version.
        short_form = re.fullmatch(rf"\s*(?:{name}|anyAppleOS)\s+([\d.]+)\s*", item)
        if short_form:
            return version(short_form.group(1))
    return None


def mark(stub, platform, target, out):
    target = version(target)
    lines = open(stub).read().splitlines()
    marked, cases = [], set()
    already = False  # a marker was put before this declaration's attributes
    for number, line in enumerate(lines):
        stripped = line.strip()
        # A new declaration, or the other branch of an `#if` (each branch's attributes get their own marker).
        if not stripped.startswith(("@", "#")) or stripped.startswith(("#else", "#elseif", "#endif")):
            already = False
        if stripped.startswith("@available("):
            since = introduced(stripped, platform)
            if since and since > target and not already:
                already = True
                indent = line[:len(line) - len(line.lstrip())]
                shown = ".".join(str(part) for part in since)
                marked.append(f'{indent}@available(*, deprecated, message: "{MARKER} {SWIFT_NAMES[platform]} {shown}")')
                # The enum case (if that is what the attributes lead to) is remembered for the pattern check.
                for following in lines[number + 1:]:
                    if following.strip().startswith(("@", "#")):
                        continue
                    case = re.match(r"\s*case\s+(\w+)", following)
                    if case:
                        cases.add((case.group(1), shown))
                    break
        marked.append(line)
    with open(out, "w") as file:
        file.write("\n".join(marked) + "\n")
        # The cases marked, for the gates step.
        for name, shown in sorted(cases):
            file.write(f"// marked-case: {name} {shown}\n")


def strip_comment(line):
    """The line without strings' contents, `/* */` comments on it, and its `//` comment."""
    line = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
    return re.sub(r"//.*$", "", re.sub(r"/\*.*?\*/", "", line))


def statement_tail(text):
    """What follows the last `{`, `}` or `;` of text outside parentheses (a closure passed in a condition is
    part of it): the part of the statement text ends in."""
    depth = 0
    for position in range(len(text) - 1, -1, -1):
        character = text[position]
        if character == ")":
            depth += 1
        elif character == "(":
            depth -= 1
        elif character in "{};" and depth <= 0:
            return text[position + 1:]
    return text


def gate_versions(text, platform):
    """Versions an `#available(...)` or `@available(...)` in text gives PLATFORM (inf for a bare `*`)."""
    found = []
    for attribute in re.findall(r"[#@]available\(([^)]*)\)", text):
        since = introduced(f"({attribute})", platform)
        if since:
            found.append(since)
    return found


def gated(lines, number, column, platform, needed):
    """Whether the use at lines[number][:column] sits inside a gate naming PLATFORM at least `needed`."""
    def enough(text):
        return any(since >= needed for since in gate_versions(text, platform))

    # A condition before the use in the same statement: `if #available(...), case .x = error {`, on this line
    # or on the lines it continues (ending in `,` or `&&`). A `guard`'s condition gates nothing in its own
    # statement (its body is the fallback), nor does one that an `else` follows.
    before = strip_comment(lines[number][:column])
    condition = [statement_tail(before)]
    whole = condition[0] == before  # nothing on the line ended a statement: it may continue one from above
    above = number - 1
    while whole and above >= 0 and strip_comment(lines[above]).strip().endswith((",", "&&")):
        previous = strip_comment(lines[above])
        condition.append(statement_tail(previous))
        whole = condition[-1] == previous
        above -= 1
    joined = " ".join(reversed(condition))
    if not joined.strip().startswith("guard") and enough(joined):
        return True
    depth = 0
    current = strip_comment(lines[number][:column])
    index = number
    after_case = False  # a `case` or `default` of the scope the scan is in lies between it and the use
    while index >= 0:
        encloses = False  # a brace on this line opens a scope the use is in
        for position in range(len(current) - 1, -1, -1):
            character = current[position]
            if character == "}":
                depth += 1
            elif character == "{":
                if depth > 0:
                    depth -= 1
                    continue
                encloses = True
                after_case = False  # an enclosing scope: its own guards count again
                # An enclosing scope opens here: its header is this line up to the brace (from the end of the
                # statement before it), the lines it continues (ending in `,` or `&&`) and its attribute lines.
                # A `guard`'s body and an `else` are the fallback: never a gate.
                opener = statement_tail(current[:position])
                if opener.strip().startswith("guard") or re.search(r"\belse\b", opener):
                    continue
                header = [opener]
                above = index - 1
                while above >= 0:
                    previous = strip_comment(lines[above]).strip()
                    # An attribute line of its own (`@available(iOS 27.0, *)`), not a declaration that starts with one.
                    if previous.endswith((",", "&&", "(")) or re.fullmatch(r"@\w+(\(.*\))?", previous):
                        header.append(previous)
                        above -= 1
                    else:
                        break
                if enough(" ".join(header)):
                    return True
        # A `guard #available(...) else { ... }` ended before the use, in this scope or an enclosing one (not the
        # guard whose body holds the use).
        if index != number and depth == 0 and not encloses and not after_case and current.strip().startswith("guard") \
                and enough(current.split("else")[0]):
            return True
        # A guard in an earlier `case` of a switch does not reach a later one.
        if depth == 0 and not encloses and re.match(r"\s*(case\b|default\s*:)", current):
            after_case = True
        index -= 1
        if index >= 0:
            current = strip_comment(lines[index])
    return False


def opaque(copy_dir, source_dir):
    """Copies source_dir's Swift files with availability conditions made opaque calls of the same length."""
    def call(match):
        text = match.group(0)
        head = "!_availabilityOpaque(" if text.startswith("#unavailable") else "_availabilityOpaque("
        padding = len(text) - len(head) - 1
        if padding < 0:
            sys.exit(f"check-availability: '{text}' is too short to stand in for")
        return head + " " * padding + ")"
    for folder, _, names in os.walk(source_dir):
        for name in names:
            if not name.endswith(".swift"):
                continue
            source = os.path.join(folder, name)
            target = os.path.join(copy_dir, os.path.relpath(source, source_dir))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            text = open(source).read()
            with open(target, "w") as file:
                file.write(re.sub(r"#(?:un)?available\([^)]*\)", call, text))
    with open(os.path.join(copy_dir, "AvailabilityOpaque.swift"), "w") as file:
        file.write("// Written by scripts/check-availability.py: a condition the compiler cannot decide.\n"
                   "@inline(never) func _availabilityOpaque() -> Bool { Int.random(in: 0...1) == 0 }\n")


def gates(platform, diagnostics, marked_stub, copy_dir, source_dir, sources):
    failures, checked = [], 0
    texts = {path: open(path).read().splitlines() for path in sources}
    copy_dir, source_dir = os.path.abspath(copy_dir), os.path.abspath(source_dir)
    pattern = re.compile(rf"^(.+?):(\d+):(\d+): warning: .* is deprecated: {MARKER} (\w+) ([\d.]+)")
    seen = set()
    for line in open(diagnostics):
        match = pattern.match(line.strip())
        if not match or match.group(1, 2, 3) in seen:
            continue
        seen.add(match.group(1, 2, 3))
        path, row, column, needed = match.group(1), int(match.group(2)) - 1, int(match.group(3)) - 1, version(match.group(5))
        if os.path.abspath(path).startswith(copy_dir + os.sep):  # the copy's line is the source's
            path = os.path.join(source_dir, os.path.relpath(os.path.abspath(path), copy_dir))
        lines = texts.get(path) or open(path).read().splitlines()
        checked += 1
        if not gated(lines, row, column, platform, needed):
            failures.append(f"{path}:{row + 1}: uses an API introduced in {match.group(4)} {match.group(5)} "
                            f"without a gate: {lines[row].strip()}")
    # Enum cases as patterns, which the compiler does not diagnose.
    cases = [line.split()[2:4] for line in open(marked_stub) if line.startswith("// marked-case: ")]
    for path, lines in texts.items():
        if "/Live/" not in path:
            continue
        in_clause = False  # a `case` or `catch` clause continued from the line before (ending in `,`)
        for row, text in enumerate(lines):
            code = strip_comment(text)
            clause = re.search(r"\b(?:case|catch)\b", code)
            start = clause.start() if clause else (0 if in_clause else None)
            in_clause = start is not None and code.rstrip().endswith(",")
            if start is None:
                continue
            # The clause's patterns end at its `=` (`if case`), `:` (`switch`) or `{` (`catch`).
            end = re.search(r"[=:{]", code[start:])
            clause_text = code[start:start + end.start()] if end else code[start:]
            for name, shown in cases:
                for use in re.finditer(rf"\.{name}\b", clause_text):
                    use_start = start + use.start()
                    checked += 1
                    if not gated(lines, row, use_start, platform, version(shown)):
                        failures.append(f"{path}:{row + 1}: matches the case .{name}, introduced in "
                                        f"{SWIFT_NAMES[platform]} {shown}, without a gate: {text.strip()}")
    if checked == 0:
        failures.append("no use of an API newer than the deployment target was found: the backend was not checked")
    print(f"   {checked} uses of APIs newer than the deployment target, every one gated" if not failures
          else "\n".join(failures))
    return 1 if failures else 0


# Where a use of an iOS 27.0 API is gated, and where it is not: `selftest` holds `gated` to each.
SELF_TEST = [
    ("if #available(iOS 27.0, *) {\n        USE()\n    }", True),
    ("if #available(iOS 27.0, *) {\n        a()\n    } else {\n        USE()\n    }", False),
    ("if #available(iOS 27.0, *) { a() } else { USE() }", False),
    ("if #available(iOS 27.0, *) { a() }; USE()", False),
    ("guard #available(iOS 27.0, *) else { USE(); return }", False),
    ("guard #available(iOS 27.0, *) else {\n        USE()\n        return\n    }", False),
    ("guard #available(iOS 27.0, *) else { return }\n    USE()", True),
    ("guard #available(iOS 27.0, *) else {\n        return\n    }\n    USE()", True),
    ("if #available(iOS 27.0, *), case .x = USE {\n    }", True),
    ("if #available(iOS 27.0, *),\n       USE == 1 {\n    }", True),
    ("if #available(iOS 26.0, *) {\n        USE()\n    }", False),
    ("if #available(macOS 27.0, *) {\n        USE()\n    }", False),
    ("/* { */ USE()", False),
    ("if #available(iOS 27.0, *) {\n        Task { USE() }\n    }", True),
    ("if #available(iOS 27.0, *), let w = run(body: { a() }) {\n        USE()\n    }", True),
    ("USE()", False),
    ("switch x {\n    case 1:\n        guard #available(iOS 27.0, *) else { return }\n    default:\n        USE()\n    }", False),
    ("switch x {\n    case 1:\n        guard #available(iOS 27.0, *) else { return }\n        USE()\n    default: break\n    }", True),
    ("if #available(anyAppleOS 27.0, *) {\n        USE()\n    }", True),
]


def selftest():
    wrong = []
    for body, expected in SELF_TEST:
        lines = ("func f() {\n    " + body + "\n}").splitlines()
        row = next(i for i, line in enumerate(lines) if "USE" in line)
        if gated(lines, row, lines[row].index("USE"), "ios", (27, 0)) != expected:
            wrong.append(f"{'ungated' if expected else 'gated'} use taken for the other: {body!r}")
    wrapped = ["@available(iOS 27.0, *)", "func f() {", "    USE()", "}"]
    if not gated(wrapped, 2, 4, "ios", (27, 0)):
        wrong.append("a use in an @available(iOS 27.0, *) function taken for ungated")
    property_above = ["@available(iOS 27.0, *) var x: Int { 0 }", "func f() {", "    USE()", "}"]
    if gated(property_above, 2, 4, "ios", (27, 0)):
        wrong.append("an @available property above a function taken for the function's gate")
    print("\n".join(wrong) or f"   the gate reader: {len(SELF_TEST) + 2} cases right")
    return 1 if wrong else 0


if __name__ == "__main__":
    if len(sys.argv) >= 6 and sys.argv[1] == "mark":
        mark(*sys.argv[2:6])
    elif len(sys.argv) == 2 and sys.argv[1] == "selftest":
        sys.exit(selftest())
    elif len(sys.argv) == 4 and sys.argv[1] == "opaque":
        opaque(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 7 and sys.argv[1] == "gates":
        sys.exit(gates(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7:]))
    else:
        sys.exit(__doc__)
