"""Spec 11 redaction, ported from reference-impl/redact.ts: the projection the args digest is computed over.

A finite shape detector: declared secret keys are dropped, recognized credential shapes masked.
"""
import re
from urllib.parse import unquote

REDACTED = '[redacted]'

_CREDENTIAL_KEYS = {
    'password', 'passwd', 'passphrase', 'token', 'secret', 'apikey', 'xapikey', 'authorization',
    'proxyauthorization', 'auth', 'cookie', 'setcookie', 'credential', 'credentials', 'privatekey',
    'clientsecret', 'secretkey', 'accesskey', 'sessiontoken',
}
_CREDENTIAL_KEY_SUFFIXES = ('password', 'secret', 'apikey', 'token', 'privatekey', 'credentials')
_CREDENTIAL_PARAMS = {'key', 'sig', 'signature', 'pwd', 'xamzsignature', 'xamzcredential', 'xamzsecuritytoken', 'accesstoken'}
_SECRET_FLAGS = {'token', 'password', 'passwd', 'apikey', 'secret', 'accesstoken', 'authtoken', 'clientsecret', 'privatekey', 'auth'}

_SCHEME = re.compile(r'\s*(bearer|basic|token)\s+\S', re.IGNORECASE)
_QUOTED_OPENER = re.compile(r'(["\']?)([A-Za-z0-9_.-]+)\1\s*[:=]\s*(["\'])')
_URL_AUTHORITY = re.compile(r'([A-Za-z][A-Za-z0-9+.-]*://)([^\s/?#]*)')
_QUERY_PARAM = re.compile(r'([?&;#])([^=&#?\s;]+)=([^&#\s;]*)')
_FLAG = re.compile(r'--?([A-Za-z][A-Za-z0-9_-]*)(=([\s\S]*))?')
_PORT = re.compile(r'([0-9]{1,5})(:[0-9]{1,5})?(/(tcp|udp))?')
_HOST_PORT = re.compile(r'([0-9]{1,3}(\.[0-9]{1,3}){3}:)?[0-9]{1,5}:[0-9]{1,5}')


# The redacted projection of tool args: top-level secret keys removed, credential shapes masked everywhere.
def redact_args(args, secret_arg_keys):
    secret = set(secret_arg_keys)
    return {key: _redact_member(key, value) for key, value in args.items() if key not in secret}


# Redacts any JSON value; arrays are treated as possible argv vectors.
def redact_value(value):
    if isinstance(value, str):
        return redact_string(value)
    if isinstance(value, list):
        return [redact_value(item) for item in _redact_argv(value)]
    if isinstance(value, dict):
        return {key: _redact_member(key, member) for key, member in value.items()}
    return value


# Masks credential shapes inside one string.
def redact_string(text):
    scheme = _SCHEME.match(text)
    if scheme:
        return f'{_canonical_scheme(scheme.group(1))} {REDACTED}'
    return _mask_query_values(_mask_url_userinfo(_mask_quoted_values(text)))


# True for a structural credential key: its whole value is masked before traversal.
def is_credential_key(key):
    k = _normalize(key)
    return k in _CREDENTIAL_KEYS or any(k.endswith(suffix) for suffix in _CREDENTIAL_KEY_SUFFIXES)


def _is_credential_param(name):
    return _normalize(name) in _CREDENTIAL_PARAMS or is_credential_key(name)


def _redact_member(key, value):
    return REDACTED if is_credential_key(key) else redact_value(value)


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


# Credential flags mask the whole following element or the value part of --flag=value.
def _redact_argv(items):
    out = list(items)
    i = 0
    while i < len(out):
        item = out[i]
        flag = _FLAG.fullmatch(item) if isinstance(item, str) else None
        if flag:
            name = flag.group(1)
            is_p = item.startswith('-p') and not item.startswith('--') and name == 'p'
            named = item.startswith('--') and _normalize(name) in _SECRET_FLAGS
            if named or is_p:
                if flag.group(2) is not None:
                    if named or not _is_port_shaped(flag.group(3) or ''):
                        out[i] = f"{item[:item.index('=')]}={REDACTED}"
                elif i + 1 < len(out):
                    nxt = out[i + 1]
                    port_like = isinstance(nxt, str) and _is_port_shaped(nxt)
                    if named or (not port_like and not _is_number(nxt)):
                        out[i + 1] = REDACTED
                    i += 1
        i += 1
    return out


def _is_port_shaped(value):
    return _PORT.fullmatch(value) is not None or _HOST_PORT.fullmatch(value) is not None


# key: "value" / key='value': the value is masked through its real closing quote (escapes honoured).
def _mask_quoted_values(text):
    out = []
    last = 0
    pos = 0
    while True:
        m = _QUOTED_OPENER.search(text, pos)
        if m is None:
            break
        pos = m.end()
        if not is_credential_key(m.group(2)):
            continue
        quote = m.group(3)
        value_start = m.end()
        end = value_start
        while end < len(text) and text[end] != quote:
            end += 2 if text[end] == '\\' else 1
        # An unterminated value is masked to the end: no credential suffix may survive.
        close = min(end, len(text))
        out.append(text[last:value_start] + REDACTED)
        last = close
        pos = max(close, pos)
    out.append(text[last:])
    return ''.join(out)


# scheme://userinfo@host: everything up to the authority's last '@' is userinfo.
def _mask_url_userinfo(text):
    def mask(m):
        authority = m.group(2)
        at = authority.rfind('@')
        return m.group(0) if at < 0 else f'{m.group(1)}{REDACTED}{authority[at:]}'
    return _URL_AUTHORITY.sub(mask, text)


# ?name=value / &name=value: masked through the next delimiter, whatever the length.
def _mask_query_values(text):
    def mask(m):
        sep, name = m.group(1), m.group(2)
        return f'{sep}{name}={REDACTED}' if _is_credential_param(_decode(name)) else m.group(0)
    return _QUERY_PARAM.sub(mask, text)


def _canonical_scheme(raw):
    lower = raw.lower()
    return 'Bearer' if lower == 'bearer' else 'Basic' if lower == 'basic' else 'Token'


def _normalize(key):
    return re.sub(r'[^a-z0-9]', '', key.lower())


def _decode(name):
    try:
        return unquote(name, errors='strict')
    except (UnicodeDecodeError, ValueError):
        return name
