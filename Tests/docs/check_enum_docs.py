"""Fails when a value of an enum in the given headers has no documentation comment (Doxygen lists such a value
without complaint). A value's comment is a non-empty /**< ... */ after it, before or after its comma. Before the
headers it checks itself on small enums, documented and not, so that a parser that stops finding values fails too.
usage: check_enum_docs.py HEADER..."""
import pathlib
import re
import sys


def undocumented(text):
    """The names of the enum values in C or C++ source `text` that carry no /**< */ comment."""
    # Comments first, so that a '}' or ',' inside one ends nothing: a /**< */ that says something is a marker.
    text = re.sub(r"/\*\*<(.*?)\*/", lambda doc: " @DOC@ " if doc.group(1).strip() else " ", text, flags=re.S)
    text = re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)
    missing = []
    for body in re.findall(r"^(?:typedef )?enum(?: class)? \w+[^{;]*\{(.*?)\}", text, re.S | re.M):
        names, documented = [], set()
        for entry in body.split(","):  # a value's documentation follows it, before or after its comma
            words = entry.split()
            while words and words[0] == "@DOC@":
                if names:
                    documented.add(names[-1])
                words.pop(0)
            if words and re.match(r"[A-Za-z_]\w*$", words[0]):
                names.append(words[0])
                if "@DOC@" in words[1:]:
                    documented.add(names[-1])
        missing += [name for name in names if name not in documented]
    return missing


SELF_TEST = [  # (source, the values it must report)
    ("typedef enum e {\n    A = 1, /**< one, two */\n    B /**< b */,\n    C = 3 /**< c } */\n} e;", []),
    ("typedef enum e {\n    A = 1, /**< a */\n    B,\n    C /**<   */\n} e;", ["B", "C"]),
    ("enum class Kind : int {\n    First, // not Doxygen's\n    Second /**< second */\n};", ["First"]),
    ("typedef enum e { A, B } e;", ["A", "B"]),
]


def main():
    for source, expected in SELF_TEST:
        if undocumented(source) != expected:
            sys.exit(f"check_enum_docs: the parser found {undocumented(source)}, not {expected}, in:\n{source}")
    missing = [f"{pathlib.Path(header).name}: {name}" for header in sys.argv[1:]
               for name in undocumented(pathlib.Path(header).read_text())]
    if missing:
        sys.exit("build-docs: enum values without documentation: " + ", ".join(missing))


if __name__ == "__main__":
    main()
