"""Compiles every C++ sample of the docs (```cpp blocks in README.md and docs/*.md) against the SDK folder's headers,
so that a sample naming a class, method or overload the headers lack fails the test command. A sample is a whole
file without main: it is compiled as it is, as C++98 and C++11 when it includes the classic IOSiAP.h alone, else as
C++11, with -Wall -Wextra -Woverloaded-virtual -Werror.
usage: compile_cpp_samples.py COMPILER INCLUDE_DIR WORK_DIR"""
import pathlib
import subprocess
import sys

import doc_samples


def main():
    compiler, include, work = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
    work.mkdir(parents=True, exist_ok=True)
    found = failed = 0
    for name, body in doc_samples.samples("cpp"):
        found += 1
        source = work / f"sample_{found}.cpp"
        source.write_text(f"// {name}\n" + body)
        standards = ["c++98", "c++11"] if "<IOSiAP.h>" in body and "iosiap.hpp" not in body else ["c++11"]
        for standard in standards:
            result = subprocess.run([compiler, f"-std={standard}", "-Wall", "-Wextra", "-Woverloaded-virtual", "-pedantic",
                                     "-Werror", "-I", include, "-fsyntax-only", str(source)], capture_output=True, text=True)
            if result.returncode != 0:
                failed += 1
                print(f"FAILED: the C++ sample {name} does not compile as {standard}:\n{result.stderr}", file=sys.stderr)
    if found == 0:
        print("FAILED: no C++ sample found in the docs", file=sys.stderr)
        return 1
    print(f"docs: {found} C++ samples, {failed} failed to compile")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
