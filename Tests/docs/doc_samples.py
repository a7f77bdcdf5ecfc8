"""The docs' code samples (```LANGUAGE blocks in README.md and docs/*.md), and the one loop that checks each:
for compile_c_samples.py and typecheck_swift_samples.py."""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def samples(language):
    """(name, body) of each sample in `language`, named by its file and its number there."""
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        # A fence may be indented (a sample inside a list item): its lines lose that indentation.
        pattern = rf"^([ \t]*)```{re.escape(language)}\n(.*?)^\1```$"
        for number, match in enumerate(re.finditer(pattern, path.read_text(), re.S | re.M), 1):
            indent = match.group(1)
            body = "".join(line[len(indent):] if line.startswith(indent) else line
                           for line in match.group(2).splitlines(keepends=True))
            yield f"{path.relative_to(ROOT)} #{number}", body


def check_all(language, label, verb, work, source_for, command_for):
    """Writes each sample's source (source_for(name, body) -> text) into `work` and runs command_for(path) on it;
    prints each failure and a summary. Returns the exit status: 1 if one failed or none was found."""
    found = failed = 0
    for name, body in samples(language):
        found += 1
        source = work / f"sample_{found}.{'c' if language == 'c' else language}"
        source.write_text(source_for(name, body))
        result = subprocess.run(command_for(source), capture_output=True, text=True)
        if result.returncode != 0:
            failed += 1
            print(f"FAILED: the {label} sample {name} does not {verb}:\n{result.stderr}", file=sys.stderr)
    if found == 0:
        print(f"FAILED: no {label} sample found in the docs", file=sys.stderr)
        return 1
    print(f"docs: {found} {label} samples, {failed} failed to {verb}")
    return 1 if failed else 0
