#!/usr/bin/env python3
"""Writes the strict-JSON conformance corpus (docs/pipeline.md#sources): valid.ndjson and invalid.ndjson.

Every line of valid.ndjson is an RFC 8259 object the importer must store exactly (fields id, s, n,
b; anything under x is dropped by the corpus pipeline); every line of invalid.ndjson breaks one
rule and must be rejected on its own line. Run it again after changing a case; the test reads the
files, not this script.
"""
import os

here = os.path.dirname(os.path.abspath(__file__))

def case(i, rest):
    return ('{"id":"%s"%s}' % (i, rest)).encode()

valid = [
    # whitespace: space, tab and carriage return around every token
    b' \t{ \t"id" \t: \t"ws-1" \t, "s" : "a" \t} \t\r',
    b'{"id":"ws-2","s":"no space at all","n":1,"b":true}',
    # strings: every escape, \u escapes, surrogate pairs, raw UTF-8 of 2, 3 and 4 bytes, DEL
    case("str-escapes", r',"s":"\" \\ \/ \b \f \n \r \t"'.encode().decode('latin1')),
    case("str-u", r',"s":"\u0041\u00e9\u4e2d\uFFFF"'),
    case("str-pair", r',"s":"\ud83d\ude00 \uD834\uDD1E"'),
    ('{"id":"str-utf8","s":"é 中 😀 \x7f"}').encode(),
    case("str-empty", ',"s":""'),
    case("str-key-escape", r',"\u0073":"key s written as \\u0073"'),
    case("str-slash", r',"s":"a/b\/c"'),
    # numbers: every form, kept as their exact text
    *[case("num-%d" % k, ',"n":%s' % n) for k, n in enumerate([
        "0", "-0", "1", "-1", "1.5", "-0.25", "0.1", "1e5", "1E5", "1e+5", "1e-5", "-1.5E-3", "0e0",
        "123456789012345678901234567890", "1e400", "-1e-400", "0.100000000000000000000000001",
        "9223372036854775808", "-9223372036854775809", "1.0",
    ])],
    # literals
    case("lit-true", ',"b":true'), case("lit-false", ',"b":false'), case("lit-null", ',"s":null,"n":null,"b":null'),
    # objects and arrays (in x, dropped): empty, nested, mixed, the same key in different objects
    case("nest-empty", ',"x":{}'), case("nest-empty-array", ',"x":[]'),
    case("nest-mixed", ',"x":[1,"a",true,null,{"k":[{}]},[[]],-0.5e-1]'),
    case("nest-same-key", ',"x":[{"a":1},{"a":2},{"b":{"a":3}}]'),
    case("nest-space", ',"x": [ 1 , { "a" : [ ] } ] '),
    case("nest-deep", ',"x":' + "[" * 500 + "]" * 500),
    case("nest-escaped-keys", r',"x":{"a":1,"\u0062":2}'),
]

invalid = [
    # comments
    b'{"id":"c-1"} // a comment', b'{"id":"c-2" /* a comment */}', b'# {"id":"c-3"}',
    # quotes
    b"{'id':'q-1'}", b'{"id":\'q-2\'}', b'{id:"q-3"}',
    # trailing and missing commas, colons, brackets
    b'{"id":"t-1",}', b'{"id":"t-2","x":[1,2,]}', b'{"id":"t-3","x":[,1]}', b'{"id":"t-4" "s":"a"}',
    b'{"id" "t-5"}', b'{"id":"t-6"', b'{"id":"t-7","x":[1}', b'{"id":"t-8","x":{"a":1]}', b'{"id":"t-9",,"s":"a"}',
    b'{"id":"t-10"}}', b'{"id":"t-11","x":{"a"}}', b'{"id":"t-12","x":{1:2}}',
    # numbers
    *[case("n-%d" % k, ',"n":%s' % n) for k, n in enumerate([
        "NaN", "Infinity", "-Infinity", "01", "-01", "00", "1.", ".5", "+1", "1e", "1e+", "-", "--1",
        "0x10", "1.5.5", "1e5e5", "- 1", "1 2", "infinity", "nan",
    ])],
    # literals
    case("l-1", ',"b":True'), case("l-2", ',"b":nul'), case("l-3", ',"b":truex'), case("l-4", ',"b":undefined'),
    # strings: control characters, escapes, surrogates, unclosed
    b'{"id":"s-1","s":"tab\there"}', b'{"id":"s-2","s":"\x01"}', b'{"id":"s-3","s":"\x1f"}',
    case("s-4", r',"s":"\q"'), case("s-5", r',"s":"\x41"'), case("s-6", r',"s":"\u12"'),
    case("s-7", r',"s":"\u12G4"'), case("s-8", r',"s":"\U0041"'), case("s-9", r',"s":"\ud800"'),
    case("s-10", r',"s":"\udc00"'), case("s-11", r',"s":"\ud800\u0041"'), case("s-12", r',"s":"\ud800x"'),
    b'{"id":"s-13","s":"unclosed}', case("s-14", r',"s":"\"'),
    # invalid UTF-8, raw
    b'{"id":"u-1","s":"\xff"}', b'{"id":"u-2","s":"\xc3"}', b'{"id":"u-3","s":"\xc0\x80"}',
    b'{"id":"u-4","s":"\xe0\x80\x80"}', b'{"id":"u-5","s":"\xed\xa0\x80"}', b'{"id":"u-6","s":"\xf5\x80\x80\x80"}',
    b'{"id":"u-7","s":"\xf0\x9f\x98"}', b'{"id":"u-8","\xff":1}',
    # text after the value
    b'{"id":"a-1"} x', b'{"id":"a-2"}{"id":"a-3"}', b'{"id":"a-4"},',
    # ambiguous or truncated keys
    b'{"id":"d-1","s":"a","s":"b"}', case("d-2", r',"\u0073":"a","s":"b"'), b'{"id":"d-3","x":{"a":1,"a":2}}',
    case("d-4", r',"id\u0000x":"a NUL in a key"'),
    # not an object
    b'[{"id":"o-1"}]', b'"o-2"', b'42', b'true', b'null',
    # nesting deeper than the parser allows
    case("deep-1", ',"x":' + "[" * 10000 + "]" * 10000),
    case("deep-2", ',"x":' + '{"a":' * 10000 + "1" + "}" * 10000),
]

for name, lines in (("valid.ndjson", valid), ("invalid.ndjson", invalid)):
    with open(os.path.join(here, name), "wb") as out:
        for line in lines:
            data = line if isinstance(line, bytes) else line.encode("latin1")
            assert b"\n" not in data, data
            out.write(data + b"\n")
print(len(valid), "valid,", len(invalid), "invalid")
