"""Canonical JSON and digests exactly as the harness computes them (spec 11): sorted keys, no whitespace."""
import decimal
import hashlib
import json
import math
import re

# JS numbers are doubles: integers beyond 2^53 lose precision there, so they do here too.
_MAX_SAFE = 2 ** 53
_LONE_SURROGATE = re.compile('[\ud800-\udfff]')


# Serializes a parsed JSON value byte-for-byte like the harness's canonicalJson (JS number and string rules).
def canonical_json(value):
    if value is None:
        return 'null'
    if value is True:
        return 'true'
    if value is False:
        return 'false'
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, (int, float)):
        return js_number(value)
    if isinstance(value, list):
        return '[' + ','.join(canonical_json(item) for item in value) + ']'
    if isinstance(value, dict):
        # JS sorts keys by UTF-16 code unit; big-endian UTF-16 bytes compare in that same order.
        keys = sorted(value.keys(), key=lambda k: k.encode('utf-16-be', 'surrogatepass'))
        return '{' + ','.join(_string(k) + ':' + canonical_json(value[k]) for k in keys) + '}'
    raise TypeError(f'canonical_json: {type(value).__name__} is not JSON')


# SHA-256 hex of a string's UTF-8 bytes.
def sha256_hex(text):
    return hashlib.sha256(text.encode('utf-8')).hexdigest()


# Formats a number the way ECMAScript Number.prototype.toString does (what JSON.stringify emits).
def js_number(value):
    if isinstance(value, int) and abs(value) <= _MAX_SAFE:
        return str(value)
    number = float(value)
    if not math.isfinite(number):
        raise ValueError('canonical_json: non-finite number')
    if number == 0:
        return '0'
    sign = '-' if number < 0 else ''
    _, digits, exponent = decimal.Decimal(repr(abs(number))).as_tuple()
    text = ''.join(str(d) for d in digits).rstrip('0') or '0'
    k = len(text)
    n = exponent + len(digits)
    if k <= n <= 21:
        body = text + '0' * (n - k)
    elif 0 < n <= 21:
        body = text[:n] + '.' + text[n:]
    elif -6 < n <= 0:
        body = '0.' + '0' * (-n) + text
    else:
        e = n - 1
        mantissa = text if k == 1 else text[0] + '.' + text[1:]
        body = f"{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + body


def _string(text):
    # Python's escapes for controls, quotes and backslashes match JSON.stringify; a lone
    # surrogate is escaped by JS (well-formed stringify), so escape it here too.
    dumped = json.dumps(text, ensure_ascii=False)
    return _LONE_SURROGATE.sub(lambda m: '\\u%04x' % ord(m.group()), dumped)
