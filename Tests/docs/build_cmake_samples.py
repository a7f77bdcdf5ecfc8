"""Builds and runs every CMake sample of the docs (```cmake blocks in README.md and docs/*.md) against the SDK
folder, so that a sample naming a package, version or target the SDK's CMake package lacks fails the test
command. A sample is the part of a game's CMakeLists.txt about IOSiAP: it is put in a project whose target `game`
is the C example game (Examples/c/main.c), configured with CMAKE_PREFIX_PATH set to the SDK folder, built, and
run on the example catalog.
usage: build_cmake_samples.py SDK_DIR CATALOG WORK_DIR"""
import pathlib
import sys

import doc_samples

PROJECT = '''cmake_minimum_required(VERSION 3.16)
project(sample C)
add_executable(game "{game}")
'''


def main():
    sdk, catalog, work = (pathlib.Path(argument).resolve() for argument in sys.argv[1:4])
    work.mkdir(parents=True, exist_ok=True)
    game = doc_samples.ROOT / "Examples/c/main.c"

    def source(name, body):
        return PROJECT.format(game=game) + f"# {name}\n" + body

    def command(path):
        project = path.with_suffix("")
        script = (f'set -e; rm -rf "{project}"; mkdir -p "{project}"; cp "{path}" "{project}/CMakeLists.txt"; '
                  f'cmake -S "{project}" -B "{project}/build" -DCMAKE_PREFIX_PATH="{sdk}" >/dev/null; '
                  f'cmake --build "{project}/build" >/dev/null; '
                  f'"{project}/build/game" "{catalog}" "{project}/state" >/dev/null')
        return ["bash", "-c", script]

    return doc_samples.check_all("cmake", "CMake", "build and run", work, source, command)


if __name__ == "__main__":
    sys.exit(main())
