#!/usr/bin/env python3
"""Checks that the hand-written C header and the Swift exports cannot drift apart.

1. The declarations the Swift compiler prints for the @c functions (-emit-clang-header-path) must
   declare the same functions, with the same return and parameter types, as Include/iosiap/iosiap.h.
   Opaque handles print as void * on the Swift side and are compared as such.
2. The status codes of iosiap.h must be exactly the raw values of Swift's StoreErrorCode (plus 0).
3. IOSIAP_MAX_PRODUCT_ID_LENGTH and IOSIAP_MAX_OFFER_JWS_LENGTH must equal the core's limits.

usage: compare_headers.py HAND_HEADER GENERATED_HEADER STORE_ERROR_CODE_SWIFT REQUEST_VALIDATION_SWIFT
"""
import re
import sys

OPAQUE = {"iosiap_store", "iosiap_product"}
QUALIFIERS = re.compile(r"\b(_Nullable|_Nonnull|_Null_unspecified|SWIFT_NOEXCEPT|SWIFT_WARN_UNUSED_RESULT|SWIFT_EXTERN|extern)\b")


def tokens(text):
    return re.findall(r"[A-Za-z_][A-Za-z0-9_]*|\*", QUALIFIERS.sub(" ", text))


def canonical_type(toks):
    toks = list(toks)
    for i in range(1, len(toks)):  # "char const" -> "const char"
        if toks[i] == "const" and toks[i - 1] not in ("*", "const"):
            toks[i - 1], toks[i] = toks[i], toks[i - 1]
    # An opaque handle is void * in Swift's view, whatever its constness.
    for index, word in enumerate(toks):
        if word in OPAQUE:
            return " ".join(["void"] + toks[index + 1:])
    return " ".join(toks)


def parameter_type(text):
    toks = tokens(text)
    if len(toks) >= 2 and toks[-1] != "*":  # drop the parameter's name
        toks = toks[:-1]
    return canonical_type(toks)


def declarations(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"^\s*#[^\n]*", " ", text, flags=re.M)
    result = {}
    for match in re.finditer(r"([A-Za-z_][\w\s\*]*?)\b(iosiap_\w+)\s*\(([^;{}]*?)\)\s*[A-Z_\s]*;", text):
        ret, name, params = match.groups()
        if "typedef" in ret:
            continue
        params = params.strip()
        types = [] if params in ("", "void") else [parameter_type(p) for p in params.split(",")]
        result[name] = (canonical_type(tokens(ret)), types)
    return result


def main():
    hand_path, generated_path, error_code_path, validation_path = sys.argv[1:5]
    hand_text = open(hand_path).read()
    hand = declarations(hand_text)
    generated = {name: decl for name, decl in declarations(open(generated_path).read()).items()}
    problems = []
    for name in sorted(set(hand) | set(generated)):
        if name not in generated:
            problems.append(f"{name}: declared in {hand_path} but not exported by the Swift code")
        elif name not in hand:
            problems.append(f"{name}: exported by the Swift code but not declared in {hand_path}")
        elif hand[name] != generated[name]:
            problems.append(f"{name}: header says {hand[name]}, Swift exports {generated[name]}")

    header_codes = {int(v) for v in re.findall(r"IOSIAP_(?:OK|E_\w+)\s*=\s*(-?\d+)", hand_text)}
    swift_codes = {int(v) for v in re.findall(r"case \w+ = (-\d+)", open(error_code_path).read())} | {0}
    if header_codes != swift_codes:
        problems.append(f"status codes differ: only in the header {sorted(header_codes - swift_codes)}, "
                        f"only in StoreErrorCode {sorted(swift_codes - header_codes)}")

    validation_text = open(validation_path).read()
    for macro, swift_name in [("IOSIAP_MAX_PRODUCT_ID_LENGTH", "maximumIdentifierLength"),
                              ("IOSIAP_MAX_OFFER_JWS_LENGTH", "maximumOfferJWSLength")]:
        header_limit = re.search(rf"#define {macro} (\d+)", hand_text).group(1)
        swift_limit = re.search(rf"{swift_name} = (\d+)", validation_text).group(1)
        if header_limit != swift_limit:
            problems.append(f"{macro} is {header_limit}, the core's limit is {swift_limit}")

    for problem in problems:
        print("header drift: " + problem)
    print(f"compared {len(hand)} functions and {len(header_codes)} status codes: "
          + ("OK" if not problems else f"{len(problems)} problem(s)"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
