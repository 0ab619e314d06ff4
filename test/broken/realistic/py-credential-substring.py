#!/usr/bin/env python3
"""The Python journal with the credential-key test its author found safer: a key is a credential when its name
*contains* a credential word, not when it is one of a list or ends in one.

The author's reason: the list and suffix rules miss keys real tools send (authHeader, signingKey, passcode,
tokenValue, dbCredentialsFile), and a secret that slips through is a dictionary-attackable digest (spec 11). So every
key holding pass, secret, token, auth, key, cred, cookie or sig is masked before hashing. It also masks an author,
a keyword, a passenger count, a tokenizer, a primaryKey, a signal: ordinary public fields, which spec 11 says
"still contribute their complete surviving values to identity". Two calls that differ only there get one digest, and
a re-run that asked for another author or another primaryKey is answered with the recorded result of the old one
(spec 4: "answering it with the old answer would be a silent wrong result").
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..', 'examples', 'python-journal')))

import journal  # noqa: E402
import redact  # noqa: E402

_CREDENTIAL_WORDS = ('pass', 'secret', 'token', 'auth', 'key', 'cred', 'cookie', 'sig')


def is_credential_key(key):
    k = redact._normalize(key)
    return any(word in k for word in _CREDENTIAL_WORDS)


redact.is_credential_key = is_credential_key

if __name__ == '__main__':
    sys.exit(journal.main(sys.argv[1:]))
