# SPDX-License-Identifier: Apache-2.0
"""tests/pathological/tars.py - hostile tar streams for packaged charts
(issue 36 item 1-3): malformed PAX records, deep paths, long names, links,
escapes. Shared by run.py (gzipped, through `schemadoc diff`) and
tests/fuzz/seeds.py (raw, as fuzz_archive reads them). Every stream is
built here from Python's tarfile headers; nothing binary is committed
except the fuzz regressions it wrote once."""
import io
import tarfile

CHART = b"apiVersion: v2\nname: c\nversion: 1.0.0\n"


def header(name, size, typ=tarfile.REGTYPE):
    t = tarfile.TarInfo(name)
    t.size = size
    t.type = typ
    return t.tobuf(format=tarfile.USTAR_FORMAT)


def pad(b):
    return b + b"\0" * ((512 - len(b) % 512) % 512)


def member(name, data, typ=tarfile.REGTYPE):
    return header(name, len(data), typ) + pad(data)


def pax_record(key, value):
    """One well-formed PAX record: its length counts its own digits."""
    body = b" " + key + b"=" + value + b"\n"
    n = len(body) + 1
    while len(str(n)) + len(body) != n:
        n += 1
    return str(n).encode() + body


def pax(records):
    return member("././@PaxHeader", records, tarfile.XHDTYPE)


def end():
    return b"\0" * 1024


def chart(extra=b""):
    return member("c/Chart.yaml", CHART) + extra


# A 50-byte first record, then a length of 2^64 - 50: an unchecked sum of
# offset and length wraps back to 0 and reads the header for ever.
FIFTY = b"50 comment=" + b"x" * 38 + b"\n"
assert len(FIFTY) == 50

CASES = {
    # the length wraps the offset: a hang before issue 36
    "pax-length-overflow": chart(pax(FIFTY + b"18446744073709551566 x=y\n") + member("c/v.yaml", b"a: 1\n")) + end(),
    # 20 digits: more than 64 bits
    "pax-length-20-digits": chart(pax(b"99999999999999999999 path=c/x\n") + member("c/v.yaml", b"a: 1\n")) + end(),
    # a length shorter than its own digits: the value's length underflows
    "pax-length-underflow": chart(pax(b"1 path=c/x\n") + member("c/v.yaml", b"a: 1\n")) + end(),
    "pax-length-short": chart(pax(b"3 x\n12 path=c/yy\n") + member("c/v.yaml", b"a: 1\n")) + end(),
    # past the end of the header
    "pax-length-past-end": chart(pax(b"200 path=c/x\n") + member("c/v.yaml", b"a: 1\n")) + end(),
    # no '=' / no newline where the length ends
    "pax-record-no-equals": chart(pax(b"10 pathcx\n") + member("c/v.yaml", b"a: 1\n")) + end(),
    "pax-record-no-newline": chart(pax(b"11 path=c/xy") + member("c/v.yaml", b"a: 1\n")) + end(),
    "pax-size-not-a-number": chart(pax(pax_record(b"size", b"12x")) + member("c/v.yaml", b"a: 1\n")) + end(),
    # a PAX path 120 folders deep: its tree must go whole afterwards
    "pax-path-120-deep": chart(pax(pax_record(b"path", b"c/" + b"d/" * 120 + b"f.yaml"))
                               + member("placeholder", b"x\n")) + end(),
    # GNU long name
    "gnu-long-name": chart(member("././@LongLink", b"c/" + b"n" * 200 + b"\0", tarfile.GNUTYPE_LONGNAME)
                           + member("placeholder", b"x: 1\n")) + end(),
    "dotdot": chart(member("c/../../escaped.yaml", b"x: 1\n")) + end(),
    "absolute": chart(member("/tmp/escaped.yaml", b"x: 1\n")) + end(),
    "symlink": chart(header("c/link", 0, tarfile.SYMTYPE)) + end(),
    "truncated": chart(header("c/values.yaml", 4096)) + b"a: 1\n",
}

# what run.py expects on stderr for each (None: only exit status 2 and a
# FILE: error: line)
ERRORS = {
    "pax-length-overflow": r"tar entry 2 \('\./\./@PaxHeader'\): bad PAX record at byte 50: its length '18446744073709551566",
    "pax-length-20-digits": r"tar entry 2 \('\./\./@PaxHeader'\): bad PAX record at byte 0: its length",
    "pax-length-underflow": r"tar entry 2 \('\./\./@PaxHeader'\): bad PAX record at byte 0: a length of 1 is shorter",
    "pax-length-short": r"tar entry 2 .*: a length of 3 is shorter",
    "pax-length-past-end": r"tar entry 2 .*: a length of 200 goes past the end of the header",
    "pax-record-no-equals": r"tar entry 2 .*: not 'key=value' and a newline",
    "pax-record-no-newline": r"tar entry 2 .*: not 'key=value' and a newline",
    "pax-size-not-a-number": r"tar entry 2 .*: bad PAX size '12x'",
    "dotdot": r"tar entry 2 \('c/\.\./\.\./escaped\.yaml'\): refused: an absolute path or '\.\.'",
    "absolute": r"tar entry 2 .*: refused: an absolute path",
    "symlink": r"tar entry 2 \('c/link'\): refused: links and special files",
    "truncated": r"tar entry 2 .*: truncated tar archive",
}
