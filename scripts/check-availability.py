#!/usr/bin/env python3
"""What Linux's compiler cannot check: that the StoreKit backend uses an API newer than a deployment target
only behind an availability gate at least that new.

Linux ignores `introduced:` versions, so scripts/check-storekit.sh runs this in two steps per platform:

  check-availability.py mark STUB PLATFORM TARGET OUT
      Copies the transcription STUB to OUT, with `@available(*, deprecated, message: "introduced in <P> <V>")`
      put before every declaration whose availability for PLATFORM (ios, macos, tvos, visionos) is newer than
      TARGET. Deprecation, unlike availability, is diagnosed on Linux, at every use, gated or not.

  check-availability.py gates PLATFORM DIAGNOSTICS OUT_STUB SOURCE...
      Reads the compiler's warnings (DIAGNOSTICS) for those markers and accepts each only inside an
      `if #available` / `guard #available` condition or an `@available` declaration naming PLATFORM at least that
      new. The compiler does not diagnose an enum case used as a pattern (`case .ineligible:`), so every case the
      mark step marked is also looked for as a pattern in the SOURCEs' StoreKit switches (Live/ only: the rest
      switches over our own enums), and held to the same rule.

Not checked: code in `#if` branches the configuration does not compile, and uses hidden behind a typealias.
"""
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
        short_form = re.fullmatch(rf"\s*{name}\s+([\d.]+)\s*", item)
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
        if not stripped.startswith(("@", "#")):
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
    return re.sub(r"//.*$", "", re.sub(r'"(?:[^"\\]|\\.)*"', '""', line))


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
    # or on the lines it continues (ending in `,` or `&&`).
    condition, above = [strip_comment(lines[number][:column])], number - 1
    while above >= 0 and strip_comment(lines[above]).strip().endswith((",", "&&")):
        condition.append(strip_comment(lines[above]))
        above -= 1
    if enough(" ".join(condition)):
        return True
    depth = 0
    current = strip_comment(lines[number][:column])
    index = number
    while index >= 0:
        for position in range(len(current) - 1, -1, -1):
            character = current[position]
            if character == "}":
                depth += 1
            elif character == "{":
                if depth > 0:
                    depth -= 1
                    continue
                # An enclosing scope opens here: its header is this line up to the brace, the lines it
                # continues (ending in `,` or `&&`) and its attribute lines.
                header = [current[:position]]
                above = index - 1
                while above >= 0:
                    previous = strip_comment(lines[above]).strip()
                    if previous.endswith((",", "&&", "(")) or previous.startswith("@"):
                        header.append(previous)
                        above -= 1
                    else:
                        break
                if enough(" ".join(header)):
                    return True
        # A `guard #available(...) else { ... }` earlier in this scope or an enclosing one.
        if depth == 0 and current.strip().startswith("guard") and enough(current.split("else")[0]):
            return True
        index -= 1
        if index >= 0:
            current = strip_comment(lines[index])
    return False


def gates(platform, diagnostics, marked_stub, sources):
    failures, checked = [], 0
    texts = {path: open(path).read().splitlines() for path in sources}
    pattern = re.compile(rf"^(.+?):(\d+):(\d+): warning: .* is deprecated: {MARKER} (\w+) ([\d.]+)")
    seen = set()
    for line in open(diagnostics):
        match = pattern.match(line.strip())
        if not match or match.group(1, 2, 3) in seen:
            continue
        seen.add(match.group(1, 2, 3))
        path, row, column, needed = match.group(1), int(match.group(2)) - 1, int(match.group(3)) - 1, version(match.group(5))
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
        for row, text in enumerate(lines):
            code = strip_comment(text)
            for name, shown in cases:
                for use in re.finditer(rf"\bcase\s+(?:let\s+)?\.{name}\b|,\s*\.{name}\s*[:,]", code):
                    checked += 1
                    if not gated(lines, row, use.start(), platform, version(shown)):
                        failures.append(f"{path}:{row + 1}: matches the case .{name}, introduced in "
                                        f"{SWIFT_NAMES[platform]} {shown}, without a gate: {text.strip()}")
    print(f"   {checked} uses of APIs newer than the deployment target, every one gated" if not failures
          else "\n".join(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) >= 6 and sys.argv[1] == "mark":
        mark(*sys.argv[2:6])
    elif len(sys.argv) >= 5 and sys.argv[1] == "gates":
        sys.exit(gates(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]))
    else:
        sys.exit(__doc__)
